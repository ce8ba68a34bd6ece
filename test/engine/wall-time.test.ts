import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Temporal } from '@js-temporal/polyfill';
import { resolveWallTime } from '../../engine/index.js';
import {
  WALL_TIME_POLICY,
  homeTimeAt,
  inHomeTimezone,
  localDateAt,
  localTimeAt,
} from '../../engine/internals.js';
// The sentence is the host's words over the engine's resolution; checked here beside it.
import { clockChangeNotice } from '../../host/reference/clock-change.js';

const iso = (ms: number) => new Date(ms).toISOString();

function expectResolution(
  zone: string,
  date: string,
  time: string,
  at: string,
  local: [string, string, string, string],
  kind: string,
) {
  const r = resolveWallTime(zone, date, time);
  assert.equal(iso(r.at), at, `${zone} ${date} ${time}`);
  assert.deepEqual(
    [r.local.date, r.local.time, r.local.utcOffset, r.local.abbreviation],
    local,
    `${zone} ${date} ${time}`,
  );
  assert.equal(r.local.wallTimeKind, kind);
  assert.equal(r.local.timezone, zone);
  return r;
}

describe('resolveWallTime(zone, date, time): named clock changes', () => {
  it('America/New_York 2027-03-14: 02:30 does not exist and rings at 03:00 EDT (not Temporal compatible 03:30)', () => {
    const r = expectResolution(
      'America/New_York',
      '2027-03-14',
      '02:30',
      '2027-03-14T07:00:00.000Z',
      ['2027-03-14', '03:00', '-04:00', 'EDT'],
      'nonexistent_shifted',
    );
    const compatible = Temporal.ZonedDateTime.from(
      { timeZone: 'America/New_York', year: 2027, month: 3, day: 14, hour: 2, minute: 30 },
      { disambiguation: 'compatible' },
    );
    assert.equal(
      compatible.toPlainTime().toString(),
      '03:30:00',
      'Temporal compatible shifts by the gap length',
    );
    assert.notEqual(compatible.epochMilliseconds, r.at);
    assert.equal(
      clockChangeNotice(r),
      'Clocks in America/New_York go forward on 2027-03-14 from 02:00 to 03:00 (UTC offset -05:00 to -04:00), so 02:30 does not exist that day; the call rings at 03:00 instead.',
    );
    expectResolution(
      'America/New_York',
      '2027-03-14',
      '02:00',
      '2027-03-14T07:00:00.000Z',
      ['2027-03-14', '03:00', '-04:00', 'EDT'],
      'nonexistent_shifted',
    );
    expectResolution(
      'America/New_York',
      '2027-03-14',
      '02:59',
      '2027-03-14T07:00:00.000Z',
      ['2027-03-14', '03:00', '-04:00', 'EDT'],
      'nonexistent_shifted',
    );
    expectResolution(
      'America/New_York',
      '2027-03-14',
      '01:59',
      '2027-03-14T06:59:00.000Z',
      ['2027-03-14', '01:59', '-05:00', 'EST'],
      'normal',
    );
    expectResolution(
      'America/New_York',
      '2027-03-14',
      '03:00',
      '2027-03-14T07:00:00.000Z',
      ['2027-03-14', '03:00', '-04:00', 'EDT'],
      'normal',
    );
    expectResolution(
      'America/New_York',
      '2027-03-14',
      '07:00',
      '2027-03-14T11:00:00.000Z',
      ['2027-03-14', '07:00', '-04:00', 'EDT'],
      'normal',
    );
  });

  it('America/New_York 2027-11-07: 01:30 happens twice and rings once, at the first (EDT)', () => {
    const r = expectResolution(
      'America/New_York',
      '2027-11-07',
      '01:30',
      '2027-11-07T05:30:00.000Z',
      ['2027-11-07', '01:30', '-04:00', 'EDT'],
      'ambiguous_first',
    );
    const earlier = Temporal.ZonedDateTime.from(
      { timeZone: 'America/New_York', year: 2027, month: 11, day: 7, hour: 1, minute: 30 },
      { disambiguation: 'earlier' },
    );
    assert.equal(earlier.epochMilliseconds, r.at, "overlap policy is Temporal's 'earlier'");
    assert.equal(
      clockChangeNotice(r),
      'Clocks in America/New_York go back on 2027-11-07 from 02:00 to 01:00 (UTC offset -04:00 to -05:00), so 01:30 happens twice; the call rings at the first 01:30 (UTC offset -04:00), not the second (-05:00).',
    );
    expectResolution(
      'America/New_York',
      '2027-11-07',
      '01:00',
      '2027-11-07T05:00:00.000Z',
      ['2027-11-07', '01:00', '-04:00', 'EDT'],
      'ambiguous_first',
    );
    expectResolution(
      'America/New_York',
      '2027-11-07',
      '01:59',
      '2027-11-07T05:59:00.000Z',
      ['2027-11-07', '01:59', '-04:00', 'EDT'],
      'ambiguous_first',
    );
    expectResolution(
      'America/New_York',
      '2027-11-07',
      '00:59',
      '2027-11-07T04:59:00.000Z',
      ['2027-11-07', '00:59', '-04:00', 'EDT'],
      'normal',
    );
    expectResolution(
      'America/New_York',
      '2027-11-07',
      '02:00',
      '2027-11-07T07:00:00.000Z',
      ['2027-11-07', '02:00', '-05:00', 'EST'],
      'normal',
    );
    expectResolution(
      'America/New_York',
      '2027-11-07',
      '07:00',
      '2027-11-07T12:00:00.000Z',
      ['2027-11-07', '07:00', '-05:00', 'EST'],
      'normal',
    );
    assert.equal(
      clockChangeNotice(resolveWallTime('America/New_York', '2027-11-07', '07:00')),
      null,
    );
  });

  it('Europe/Berlin: 02:30 on 2027-03-28 rings at 03:00 CEST; 02:30 on 2027-10-31 at the first (CEST)', () => {
    expectResolution(
      'Europe/Berlin',
      '2027-03-28',
      '02:30',
      '2027-03-28T01:00:00.000Z',
      ['2027-03-28', '03:00', '+02:00', 'CEST'],
      'nonexistent_shifted',
    );
    expectResolution(
      'Europe/Berlin',
      '2027-10-31',
      '02:30',
      '2027-10-31T00:30:00.000Z',
      ['2027-10-31', '02:30', '+02:00', 'CEST'],
      'ambiguous_first',
    );
    expectResolution(
      'Europe/Berlin',
      '2027-07-01',
      '07:00',
      '2027-07-01T05:00:00.000Z',
      ['2027-07-01', '07:00', '+02:00', 'CEST'],
      'normal',
    );
  });

  it('Europe/London: 01:30 on 2027-03-28 rings at 02:00 BST; 01:30 on 2027-10-31 at the first (BST)', () => {
    expectResolution(
      'Europe/London',
      '2027-03-28',
      '01:30',
      '2027-03-28T01:00:00.000Z',
      ['2027-03-28', '02:00', '+01:00', 'BST'],
      'nonexistent_shifted',
    );
    expectResolution(
      'Europe/London',
      '2027-10-31',
      '01:30',
      '2027-10-31T00:30:00.000Z',
      ['2027-10-31', '01:30', '+01:00', 'BST'],
      'ambiguous_first',
    );
    expectResolution(
      'Europe/London',
      '2027-01-15',
      '07:00',
      '2027-01-15T07:00:00.000Z',
      ['2027-01-15', '07:00', '+00:00', 'GMT'],
      'normal',
    );
  });

  it('Australia/Lord_Howe: a 30-minute shift both ways', () => {
    const gap = expectResolution(
      'Australia/Lord_Howe',
      '2027-10-03',
      '02:15',
      '2027-10-02T15:30:00.000Z',
      ['2027-10-03', '02:30', '+11:00', 'LHDT'],
      'nonexistent_shifted',
    );
    assert.match(
      clockChangeNotice(gap)!,
      /from 02:00 to 02:30 \(UTC offset \+10:30 to \+11:00\), so 02:15 does not exist/,
    );
    const overlap = expectResolution(
      'Australia/Lord_Howe',
      '2027-04-04',
      '01:45',
      '2027-04-03T14:45:00.000Z',
      ['2027-04-04', '01:45', '+11:00', 'LHDT'],
      'ambiguous_first',
    );
    assert.match(clockChangeNotice(overlap)!, /go back on 2027-04-04 from 02:00 to 01:30/);
    expectResolution(
      'Australia/Lord_Howe',
      '2027-04-04',
      '02:00',
      '2027-04-03T15:30:00.000Z',
      ['2027-04-04', '02:00', '+10:30', 'LHST'],
      'normal',
    );
  });

  it('America/Santiago: midnight did not exist on 2018-08-12 and 2022-09-11', () => {
    expectResolution(
      'America/Santiago',
      '2018-08-12',
      '00:00',
      '2018-08-12T04:00:00.000Z',
      ['2018-08-12', '01:00', '-03:00', '-03'],
      'nonexistent_shifted',
    );
    expectResolution(
      'America/Santiago',
      '2018-08-12',
      '00:45',
      '2018-08-12T04:00:00.000Z',
      ['2018-08-12', '01:00', '-03:00', '-03'],
      'nonexistent_shifted',
    );
    expectResolution(
      'America/Santiago',
      '2022-09-11',
      '00:00',
      '2022-09-11T04:00:00.000Z',
      ['2022-09-11', '01:00', '-03:00', '-03'],
      'nonexistent_shifted',
    );
    expectResolution(
      'America/Santiago',
      '2022-09-10',
      '23:59',
      '2022-09-11T03:59:00.000Z',
      ['2022-09-10', '23:59', '-04:00', '-04'],
      'normal',
    );
  });

  it('America/Sao_Paulo: midnight did not exist on 2018-11-04 and 2016-10-16', () => {
    expectResolution(
      'America/Sao_Paulo',
      '2018-11-04',
      '00:30',
      '2018-11-04T03:00:00.000Z',
      ['2018-11-04', '01:00', '-02:00', 'BRST'],
      'nonexistent_shifted',
    );
    expectResolution(
      'America/Sao_Paulo',
      '2016-10-16',
      '00:00',
      '2016-10-16T03:00:00.000Z',
      ['2016-10-16', '01:00', '-02:00', 'BRST'],
      'nonexistent_shifted',
    );
    // Brazil left DST in 2019: no gap in 2019 or later.
    expectResolution(
      'America/Sao_Paulo',
      '2019-11-03',
      '00:30',
      '2019-11-03T03:30:00.000Z',
      ['2019-11-03', '00:30', '-03:00', 'BRT'],
      'normal',
    );
  });

  it('Pacific/Apia 2011-12-30: the whole day was skipped; a wall time that day rings at the first instant after', () => {
    const r = expectResolution(
      'Pacific/Apia',
      '2011-12-30',
      '07:00',
      '2011-12-30T10:00:00.000Z',
      ['2011-12-31', '00:00', '+14:00', '+14'],
      'nonexistent_shifted',
    );
    assert.equal(
      clockChangeNotice(r),
      'Clocks in Pacific/Apia go forward from 2011-12-30 00:00 to 2011-12-31 00:00 (UTC offset -10:00 to +14:00), so 07:00 on 2011-12-30 does not exist; the call rings at 00:00 on 2011-12-31 instead.',
    );
    expectResolution(
      'Pacific/Apia',
      '2011-12-29',
      '23:59',
      '2011-12-30T09:59:00.000Z',
      ['2011-12-29', '23:59', '-10:00', '-10'],
      'normal',
    );
    expectResolution(
      'Pacific/Apia',
      '2011-12-31',
      '07:00',
      '2011-12-30T17:00:00.000Z',
      ['2011-12-31', '07:00', '+14:00', '+14'],
      'normal',
    );
  });

  it('Asia/Kolkata: no DST; every wall time is normal at +05:30 IST', () => {
    for (const [date, time] of [
      ['2027-03-14', '02:30'],
      ['2027-11-07', '01:30'],
      ['1985-06-30', '23:59'],
      ['2037-12-31', '00:00'],
    ] as const) {
      const r = resolveWallTime('Asia/Kolkata', date, time);
      assert.equal(r.local.wallTimeKind, 'normal');
      assert.equal(r.local.utcOffset, '+05:30');
      assert.equal(r.local.abbreviation, 'IST');
      assert.equal(r.at, Date.parse(`${date}T${time}:00+05:30`));
    }
  });

  it('UTC never shifts', () => {
    expectResolution(
      'UTC',
      '2027-03-14',
      '02:30',
      '2027-03-14T02:30:00.000Z',
      ['2027-03-14', '02:30', '+00:00', 'UTC'],
      'normal',
    );
  });

  it('names its policy in Temporal words', () => {
    assert.deepEqual(
      { ...WALL_TIME_POLICY },
      { overlap: 'earlier', gap: 'first-instant-after-gap' },
    );
  });

  it('refuses malformed dates and times', () => {
    assert.throws(() => resolveWallTime('UTC', '2027-02-29', '07:00'), RangeError);
    assert.throws(() => resolveWallTime('UTC', '2027-1-01', '07:00'), RangeError);
    assert.throws(() => resolveWallTime('UTC', '2027-01-01', '24:00'), RangeError);
    assert.throws(() => resolveWallTime('UTC', '2027-01-01', '7:00'), RangeError);
    assert.throws(() => resolveWallTime('Mars/Olympus', '2027-01-01', '07:00'), RangeError);
  });
});

describe('localTimeAt, homeTimeAt, inHomeTimezone', () => {
  const at = Date.parse('2027-03-14T11:00:00Z');
  it('reads an instant on a zone clock', () => {
    assert.deepEqual(localTimeAt('America/New_York', at), {
      date: '2027-03-14',
      time: '07:00',
      timezone: 'America/New_York',
      utcOffset: '-04:00',
      abbreviation: 'EDT',
      wallTimeKind: 'normal',
    });
    assert.equal(localDateAt('Asia/Tokyo', at), '2027-03-14');
    assert.equal(localDateAt('Pacific/Honolulu', at), '2027-03-14');
    assert.equal(localDateAt('Pacific/Honolulu', Date.parse('2027-03-14T09:00:00Z')), '2027-03-13');
  });
  it('gives the home clock, or null when there is no home zone or it is the call zone', () => {
    assert.deepEqual(homeTimeAt('Europe/Berlin', at), {
      date: '2027-03-14',
      time: '12:00',
      timezone: 'Europe/Berlin',
      utcOffset: '+01:00',
    });
    assert.deepEqual(inHomeTimezone('America/New_York', 'Asia/Kolkata', at), {
      date: '2027-03-14',
      time: '16:30',
      timezone: 'Asia/Kolkata',
      utcOffset: '+05:30',
    });
    assert.equal(inHomeTimezone('America/New_York', 'America/New_York', at), null);
    assert.equal(inHomeTimezone('America/New_York', null, at), null);
  });
});
