/**
 * The schedule body's timing fields (`once` / `recurring`, snake_case fields, the catalogue's
 * codes) compiled into the engine's rule: host/schedules/recurrence-input.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compileRequestTiming } from '../../host/schedules/recurrence-input.js';

const at = (s: string) => Date.parse(s);
const iso = (ms: number) => new Date(ms).toISOString();

describe('compileRequestTiming(input, now)', () => {
  const now = at('2027-06-01T12:00:00Z');
  const code = (input: Parameters<typeof compileRequestTiming>[0]) => {
    const r = compileRequestTiming(input, now);
    return r.ok ? 'ok' : `${r.code}:${r.field}`;
  };
  it('compiles the three modes', () => {
    const once = compileRequestTiming(
      { kind: 'once', timezone: 'Asia/Calcutta', localDate: '2027-06-02', localTime: '06:30' },
      now,
    );
    assert.ok(once.ok);
    assert.deepEqual(once.recurrence, {
      kind: 'one_off',
      timezone: 'Asia/Kolkata',
      localDate: '2027-06-02',
      localTime: '06:30',
    });
    assert.equal(iso(once.first!.at), '2027-06-02T01:00:00.000Z');
    const inMin = compileRequestTiming({ kind: 'once', timezone: 'UTC', inMinutes: 1440 }, now);
    assert.ok(inMin.ok);
    assert.equal(inMin.first!.at, now + 1440 * 60_000);
    const rec = compileRequestTiming(
      {
        kind: 'recurring',
        timezone: 'Europe/London',
        localTime: '07:00',
        daysOfWeek: ['fri', 'mon', 'mon'],
        skipDates: ['2027-01-01', '2027-06-04'],
      },
      now,
    );
    assert.ok(rec.ok);
    assert.deepEqual(rec.recurrence, {
      kind: 'weekly',
      timezone: 'Europe/London',
      localTime: '07:00',
      daysOfWeek: ['mon', 'fri'],
      startDate: '2027-06-01',
      endDate: null,
      pausedUntil: null,
      skipDates: ['2027-06-04'],
    });
    assert.equal(rec.first!.date, '2027-06-07');
  });
  it('answers the catalogue codes', () => {
    assert.equal(
      code({ kind: 'once', timezone: 'US/Eastern', localDate: '2027-06-02', localTime: '06:30' }),
      'invalid_timezone:timezone',
    );
    assert.equal(
      code({ kind: 'once', timezone: 'Etc/GMT+5', localDate: '2027-06-02', localTime: '06:30' }),
      'timezone_not_allowed:timezone',
    );
    assert.equal(
      code({ kind: 'once', timezone: 'UTC', inMinutes: 0 }),
      'in_minutes_out_of_range:in_minutes',
    );
    assert.equal(
      code({ kind: 'once', timezone: 'UTC', inMinutes: 1441 }),
      'in_minutes_out_of_range:in_minutes',
    );
    assert.equal(code({ kind: 'once', timezone: 'UTC', inMinutes: 1 }), 'ok');
    assert.equal(
      code({ kind: 'once', timezone: 'UTC', inMinutes: 5, localTime: '07:00' }),
      'validation_error:in_minutes',
    );
    assert.equal(
      code({ kind: 'once', timezone: 'UTC', localDate: '2027-06-02', localTime: '7:00' }),
      'invalid_time:local_time',
    );
    assert.equal(
      code({ kind: 'once', timezone: 'UTC', localDate: '2027-06-02', localTime: '24:00' }),
      'invalid_time:local_time',
    );
    assert.equal(
      code({ kind: 'once', timezone: 'UTC', localTime: '07:00' }),
      'local_date_required:local_date',
    );
    assert.equal(
      code({ kind: 'once', timezone: 'UTC', localDate: '2027-06-01', localTime: '12:00' }),
      'time_in_past:local_time',
    );
    assert.equal(
      code({ kind: 'once', timezone: 'UTC', localDate: '2027-06-01', localTime: '12:01' }),
      'ok',
    );
    assert.equal(
      code({ kind: 'once', timezone: 'UTC', localDate: '2028-07-05', localTime: '12:00' }),
      'ok',
    );
    assert.equal(
      code({ kind: 'once', timezone: 'UTC', localDate: '2028-07-06', localTime: '12:00' }),
      'date_too_far:local_date',
    );
    assert.equal(
      code({ kind: 'once', timezone: 'UTC', localDate: '2027-02-30', localTime: '12:00' }),
      'validation_error:local_date',
    );
    assert.equal(
      code({ kind: 'recurring', timezone: 'UTC', localTime: '07:00', daysOfWeek: [] }),
      'days_of_week_empty:days_of_week',
    );
    assert.equal(
      code({ kind: 'recurring', timezone: 'UTC', localTime: '07:00' }),
      'days_of_week_empty:days_of_week',
    );
    assert.equal(
      code({ kind: 'recurring', timezone: 'UTC', localTime: '07:00', daysOfWeek: ['monday'] }),
      'validation_error:days_of_week.0',
    );
    assert.equal(
      code({ kind: 'recurring', timezone: 'UTC', localTime: '7am', daysOfWeek: ['mon'] }),
      'invalid_time:local_time',
    );
    assert.equal(
      code({
        kind: 'recurring',
        timezone: 'UTC',
        localTime: '07:00',
        daysOfWeek: ['mon'],
        startDate: '2028-07-06',
      }),
      'date_too_far:start_date',
    );
    assert.equal(
      code({
        kind: 'recurring',
        timezone: 'UTC',
        localTime: '07:00',
        daysOfWeek: ['mon'],
        pausedUntil: '2028-07-06',
      }),
      'date_too_far:paused_until',
    );
    assert.equal(
      code({
        kind: 'recurring',
        timezone: 'UTC',
        localTime: '07:00',
        daysOfWeek: ['mon'],
        startDate: '2027-07-01',
        endDate: '2027-06-30',
      }),
      'validation_error:end_date',
    );
    assert.equal(
      code({
        kind: 'recurring',
        timezone: 'UTC',
        localTime: '07:00',
        daysOfWeek: ['mon'],
        endDate: '',
      }),
      'ok',
    );
    assert.equal(
      code({
        kind: 'recurring',
        timezone: 'UTC',
        localTime: '07:00',
        daysOfWeek: ['mon'],
        skipDates: ['2027-13-01'],
      }),
      'validation_error:skip_dates.0',
    );
    assert.equal(
      code({
        kind: 'recurring',
        timezone: 'UTC',
        localTime: '07:00',
        daysOfWeek: ['mon'],
        skipDates: Array(101).fill('2027-07-01'),
      }),
      'validation_error:skip_dates',
    );
  });
  it('measures "400 days ahead" from today in the call\'s zone', () => {
    // 2027-06-01T12:00Z is already 2027-06-02 in Kiritimati (+14): its furthest date is a day later.
    assert.equal(
      code({
        kind: 'once',
        timezone: 'Pacific/Kiritimati',
        localDate: '2028-07-06',
        localTime: '12:00',
      }),
      'ok',
    );
    assert.equal(
      code({
        kind: 'once',
        timezone: 'Pacific/Kiritimati',
        localDate: '2028-07-07',
        localTime: '12:00',
      }),
      'date_too_far:local_date',
    );
  });
});
