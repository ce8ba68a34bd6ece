/**
 * Property: a weekly series run by the engine (virtual clock, memory store, a phone that
 * answers and presses 1) places exactly one call per eligible local day (a selected weekday
 * between the start and end dates, after the pause, not skipped, that exists in the zone), at
 * the instant the independent time oracle gives, none early, none missing, none twice.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createRuntime, WEEKDAYS, type WeeklyRecurrence } from '../../engine/index.js';
import { MemoryStore, MemoryTelephony, VirtualClock } from '../../engine/sim/index.js';
import { SCALE, isoDate, oracleDayExists, oracleResolve } from './time-oracle.js';

const DAY = 86_400_000;
const ZONES = [
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'America/Santiago',
  'Asia/Tehran',
  'Pacific/Chatham',
  'UTC',
];
/** Windows around clock changes of several zones in 2027. */
const STARTS = [
  Date.UTC(2027, 2, 8),
  Date.UTC(2027, 2, 24),
  Date.UTC(2027, 3, 1),
  Date.UTC(2027, 8, 22),
  Date.UTC(2027, 9, 28),
].map((t) => t / DAY);
const WINDOW_DAYS = 16;
const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
const isoWeekday = (day: number) => (((day + 3) % 7) + 7) % 7; // 0 = Monday

const arb = fc.record({
  zone: fc.constantFrom(...ZONES),
  minute: fc.oneof(fc.integer({ min: 0, max: 239 }), fc.integer({ min: 0, max: 1439 })),
  days: fc.subarray([...WEEKDAYS], { minLength: 1 }),
  start: fc.constantFrom(...STARTS),
  startShift: fc.integer({ min: -3, max: 3 }),
  length: fc.option(fc.integer({ min: 0, max: 20 }), { nil: null }),
  pause: fc.option(fc.integer({ min: -2, max: 8 }), { nil: null }),
  skips: fc.uniqueArray(fc.integer({ min: -1, max: 18 }), { maxLength: 4 }),
});

describe('a weekly series through the runtime, against the time oracle', () => {
  it('places exactly one call per eligible local day, at the oracle instant', async () => {
    await fc.assert(
      fc.asyncProperty(
        arb,
        async ({ zone, minute, days, start, startShift, length, pause, skips }) => {
          const first = start + startShift; // the series' start date
          const rule: WeeklyRecurrence = {
            kind: 'weekly',
            timezone: zone,
            localTime: hhmm(minute),
            daysOfWeek: days,
            startDate: isoDate(first),
            endDate: length === null ? null : isoDate(first + length),
            pausedUntil: pause === null ? null : isoDate(first + pause),
            skipDates: skips.map((s) => isoDate(first + s)).sort(),
          };
          const from = start * DAY;
          const until = from + WINDOW_DAYS * DAY;
          const clock = new VirtualClock(from);
          const store = new MemoryStore();
          const phones = new MemoryTelephony({ clock });
          let n = 0;
          const ids = { uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` };
          const runtime = createRuntime({ clock, ids, store, telephony: phones });
          await runtime.start();
          const policy = {
            maxSnoozes: 0,
            offsetsMinutes: [],
            ringTimeoutSeconds: 15,
            snoozeMinutes: 1,
          };
          await runtime.saveSeries({ accountId: 'a', to: '+14155550123', rule, policy });
          await clock.advance(until);
          await runtime.stop();

          const chosen = new Set(days.map((d) => WEEKDAYS.indexOf(d)));
          const skipped = new Set(skips.map((s) => first + s));
          const firstDay = pause === null ? first : Math.max(first, first + pause + 1);
          const lastDay = length === null ? Infinity : first + length;
          const expected: number[] = [];
          for (let day = start - 2; day <= start + WINDOW_DAYS + 1; day++) {
            if (day < firstDay || day > lastDay || !chosen.has(isoWeekday(day)) || skipped.has(day))
              continue;
            const o = oracleResolve(zone, day * DAY + minute * 60_000);
            if (o.kind === 'nonexistent_shifted' && !oracleDayExists(zone, day)) continue;
            if (o.at > from && o.at <= until - 60_000) expected.push(o.at);
          }
          const placed = phones.calls.map((c) => c.placedAt).filter((t) => t <= until - 60_000);
          assert.deepEqual(
            placed,
            expected,
            `${zone} ${rule.localTime} ${days.join(',')} from ${rule.startDate}`,
          );
        },
      ),
      { numRuns: 25 * SCALE },
    );
  });
});
