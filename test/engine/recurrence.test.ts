import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  nextOccurrenceAfter,
  upcomingOccurrences,
  type Recurrence,
  type WeeklyRecurrence,
} from '../../engine/index.js';
import {
  isRecurrenceComplete,
  pruneSkipDates,
  skipNextOccurrence,
} from '../../engine/internals.js';

const at = (s: string) => Date.parse(s);
const iso = (ms: number) => new Date(ms).toISOString();

function weekly(partial: Partial<WeeklyRecurrence>): WeeklyRecurrence {
  return {
    kind: 'weekly',
    timezone: 'America/New_York',
    localTime: '07:00',
    daysOfWeek: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
    startDate: null,
    endDate: null,
    pausedUntil: null,
    skipDates: [],
    ...partial,
  };
}

describe('nextOccurrenceAfter(rule, after)', () => {
  it('one-off at a wall time: rings once, then the schedule is completed', () => {
    const rule: Recurrence = {
      kind: 'one_off',
      timezone: 'Europe/Berlin',
      localDate: '2027-03-28',
      localTime: '02:30',
    };
    const occ = nextOccurrenceAfter(rule, at('2027-03-01T00:00:00Z'))!;
    assert.equal(iso(occ.at), '2027-03-28T01:00:00.000Z');
    assert.equal(occ.local.time, '03:00');
    assert.equal(occ.local.wallTimeKind, 'nonexistent_shifted');
    assert.equal(occ.date, '2027-03-28');
    assert.equal(occ.source, 'one_off');
    assert.deepEqual(occ.requested, { date: '2027-03-28', time: '02:30' });
    assert.equal(occ.transition!.at, Date.parse('2027-03-28T01:00:00Z'), 'the clock change');
    assert.equal(nextOccurrenceAfter(rule, occ.at), null, 'strictly after');
    assert.equal(nextOccurrenceAfter(rule, occ.at - 1)!.at, occ.at);
    assert.equal(isRecurrenceComplete(rule, occ.at), true);
    assert.equal(isRecurrenceComplete(rule, occ.at - 1), false);
  });

  it('one-off in N minutes: a fixed instant', () => {
    const rule: Recurrence = {
      kind: 'in_minutes',
      timezone: 'Asia/Kolkata',
      at: at('2027-01-01T00:10:00Z'),
    };
    const occ = nextOccurrenceAfter(rule, at('2027-01-01T00:00:00Z'))!;
    assert.equal(iso(occ.at), '2027-01-01T00:10:00.000Z');
    assert.deepEqual(
      [occ.local.date, occ.local.time, occ.source, occ.requested, occ.transition],
      ['2027-01-01', '05:40', 'in_minutes', null, null],
    );
    assert.equal(nextOccurrenceAfter(rule, occ.at), null);
  });

  it('weekly 07:00 stays 07:00 local across both clock changes (never +24 h)', () => {
    const rule = weekly({ daysOfWeek: ['sat', 'sun', 'mon'] });
    const list = upcomingOccurrences(rule, at('2027-03-12T00:00:00Z'), 3);
    assert.deepEqual(
      list.map((o) => [o.date, o.local.time, o.local.utcOffset]),
      [
        ['2027-03-13', '07:00', '-05:00'],
        ['2027-03-14', '07:00', '-04:00'],
        ['2027-03-15', '07:00', '-04:00'],
      ],
    );
    assert.equal(
      list[1]!.at - list[0]!.at,
      23 * 3_600_000,
      'the spring-forward day is 23 hours long',
    );
    const autumn = upcomingOccurrences(rule, at('2027-11-05T00:00:00Z'), 2);
    assert.equal(
      autumn[1]!.at - autumn[0]!.at,
      25 * 3_600_000,
      'the fall-back day is 25 hours long',
    );
  });

  it('a gap shift never sticks to later occurrences', () => {
    const list = upcomingOccurrences(weekly({ localTime: '02:30' }), at('2027-03-12T12:00:00Z'), 4);
    assert.deepEqual(
      list.map((o) => `${o.date} ${o.local.time} ${o.local.wallTimeKind}`),
      [
        '2027-03-13 02:30 normal',
        '2027-03-14 03:00 nonexistent_shifted',
        '2027-03-15 02:30 normal',
        '2027-03-16 02:30 normal',
      ],
    );
    assert.equal(list.filter((o) => o.transition !== null).length, 1);
  });

  it('rings once in a fall-back overlap', () => {
    const list = upcomingOccurrences(weekly({ localTime: '01:30' }), at('2027-11-06T12:00:00Z'), 2);
    assert.deepEqual(
      list.map((o) => `${o.date} ${o.local.time} ${o.local.utcOffset} ${o.local.wallTimeKind}`),
      ['2027-11-07 01:30 -04:00 ambiguous_first', '2027-11-08 01:30 -05:00 normal'],
    );
  });

  it('Pacific/Apia: no call on 2011-12-30, a day that did not exist, and no second call on 2011-12-31', () => {
    const rule = weekly({
      timezone: 'Pacific/Apia',
      startDate: '2011-12-28',
      endDate: '2012-01-01',
    });
    const list = upcomingOccurrences(rule, at('2011-12-01T00:00:00Z'), 10);
    assert.deepEqual(
      list.map((o) => `${o.date} ${o.local.date} ${o.local.time}`),
      [
        '2011-12-28 2011-12-28 07:00',
        '2011-12-29 2011-12-29 07:00',
        '2011-12-31 2011-12-31 07:00',
        '2012-01-01 2012-01-01 07:00',
      ],
    );
  });

  it('honours start and end dates (inclusive), paused_until (inclusive) and skip_dates', () => {
    const rule = weekly({
      startDate: '2027-05-03',
      endDate: '2027-05-12',
      pausedUntil: '2027-05-05',
      skipDates: ['2027-05-08', '2027-05-10'],
    });
    const list = upcomingOccurrences(rule, at('2027-01-01T00:00:00Z'), 100);
    assert.deepEqual(
      list.map((o) => o.date),
      ['2027-05-06', '2027-05-07', '2027-05-09', '2027-05-11', '2027-05-12'],
    );
    assert.equal(isRecurrenceComplete(rule, list.at(-1)!.at), true);
  });

  it('has no occurrence without days', () => {
    assert.equal(nextOccurrenceAfter(weekly({ daysOfWeek: [] }), 0), null);
  });

  it('upcoming(count) takes 1..100', () => {
    assert.throws(() => upcomingOccurrences(weekly({}), 0, 0), {
      name: 'EngineError',
      field: 'count',
    });
    assert.throws(() => upcomingOccurrences(weekly({}), 0, 101), {
      name: 'EngineError',
      field: 'count',
    });
    assert.equal(upcomingOccurrences(weekly({}), at('2027-01-01T00:00:00Z'), 100).length, 100);
  });
});

describe('skipNextOccurrence(rule, now) and pruneSkipDates(rule, now)', () => {
  it('adds the local date of the skipped occurrence, sorted, and drops past dates', () => {
    const rule = weekly({ daysOfWeek: ['mon', 'wed'], skipDates: ['2027-06-30', '2027-05-01'] });
    const now = at('2027-06-01T15:00:00Z'); // Tue 11:00 in New York
    const { rule: next, skipped } = skipNextOccurrence(rule, now);
    assert.equal(skipped!.date, '2027-06-02');
    assert.deepEqual(next.skipDates, ['2027-06-02', '2027-06-30']);
    assert.equal(nextOccurrenceAfter(next, now)!.date, '2027-06-07');
    // Skipping again skips the one after.
    assert.deepEqual(skipNextOccurrence(next, now).rule.skipDates, [
      '2027-06-02',
      '2027-06-07',
      '2027-06-30',
    ]);
  });
  it('records the rule date, which is the local date in the zone, not in UTC', () => {
    const rule = weekly({ timezone: 'Pacific/Auckland', localTime: '06:00', daysOfWeek: ['mon'] });
    const { skipped, rule: next } = skipNextOccurrence(rule, at('2027-06-01T00:00:00Z'));
    assert.equal(skipped!.date, '2027-06-07');
    assert.equal(iso(skipped!.at), '2027-06-06T18:00:00.000Z');
    assert.deepEqual(next.skipDates, ['2027-06-07']);
  });
  it('leaves a finished rule unchanged', () => {
    const rule = weekly({ endDate: '2027-01-01' });
    const r = skipNextOccurrence(rule, at('2027-06-01T00:00:00Z'));
    assert.equal(r.skipped, null);
    assert.equal(r.rule, rule);
  });
  it("prunes with the zone's today", () => {
    const rule = weekly({
      timezone: 'Asia/Tokyo',
      skipDates: ['2027-06-02', '2027-06-01', '2027-06-01'],
    });
    // 2027-06-01T16:00Z is already June 2 in Tokyo.
    assert.deepEqual(pruneSkipDates(rule, at('2027-06-01T16:00:00Z')).skipDates, ['2027-06-02']);
    assert.deepEqual(pruneSkipDates(rule, at('2027-06-01T12:00:00Z')).skipDates, [
      '2027-06-01',
      '2027-06-02',
    ]);
  });
});
