import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  WEEKDAYS,
  nextOccurrenceAfter,
  upcomingOccurrences,
  type WeeklyRecurrence,
} from '../../engine/index.js';
import { listAcceptedZones } from '../../engine/internals.js';
import { SCALE, isoDate, oracleDayExists, oracleResolve } from './time-oracle.js';

const DAY = 86_400_000;
const FIRST_DAY = Date.UTC(1970, 0, 5) / DAY;
const LAST_DAY = Date.UTC(2037, 8, 1) / DAY;
/** Zones whose clocks change often or oddly, drawn half of the time. */
const CHANGING = [
  'America/New_York',
  'Europe/Berlin',
  'Europe/London',
  'Australia/Lord_Howe',
  'America/Santiago',
  'America/Sao_Paulo',
  'Pacific/Apia',
  'America/Havana',
  'Asia/Tehran',
  'Africa/Casablanca',
  'Pacific/Chatham',
  'Antarctica/Troll',
];

const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
const isoWeekday = (day: number) => (((day + 3) % 7) + 7) % 7; // 0 = Monday, via 1970-01-01 = Thursday

const ruleArb = fc
  .record({
    zone: fc.oneof(fc.constantFrom(...CHANGING), fc.constantFrom(...listAcceptedZones())),
    minute: fc.oneof(fc.integer({ min: 0, max: 239 }), fc.integer({ min: 0, max: 1439 })),
    days: fc.subarray([...WEEKDAYS], { minLength: 1 }),
    start: fc.integer({ min: FIRST_DAY, max: LAST_DAY }),
    length: fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }),
    pause: fc.option(fc.integer({ min: -3, max: 15 }), { nil: null }),
    skips: fc.uniqueArray(fc.integer({ min: -2, max: 40 }), { maxLength: 8 }),
    afterShift: fc.integer({ min: -3 * DAY, max: 10 * DAY }),
    count: fc.integer({ min: 1, max: 25 }),
  })
  .map((r) => ({
    ...r,
    rule: {
      kind: 'weekly',
      timezone: r.zone,
      localTime: hhmm(r.minute),
      daysOfWeek: r.days,
      startDate: isoDate(r.start),
      endDate: r.length === null ? null : isoDate(r.start + r.length),
      pausedUntil: r.pause === null ? null : isoDate(r.start + r.pause),
      skipDates: r.skips.map((s) => isoDate(r.start + s)).sort(),
    } satisfies WeeklyRecurrence,
    after: r.start * DAY + r.afterShift,
  }));

describe('upcomingOccurrences(weekly rule, after, n) against an independent enumeration', () => {
  it('rings exactly once on each selected, unpaused, unskipped local day that exists, in order, none missing, at the oracle instant', () => {
    fc.assert(
      fc.property(
        ruleArb,
        ({ rule, zone, minute, days, start, length, pause, skips, after, count }) => {
          const got = upcomingOccurrences(rule, after, count);
          // Independent enumeration of the days that must ring, with the oracle's instants.
          const chosen = new Set(days.map((d) => WEEKDAYS.indexOf(d)));
          const skipped = new Set(skips.map((s) => start + s));
          const first = pause === null ? start : Math.max(start, start + pause + 1);
          const last = length === null ? Infinity : start + length;
          const expected: Array<{ date: string; at: number }> = [];
          for (
            let day = first;
            day <= last && expected.length < count && day < first + 7 * (count + skips.length + 2);
            day++
          ) {
            if (!chosen.has(isoWeekday(day)) || skipped.has(day)) continue;
            const o = oracleResolve(zone, day * DAY + minute * 60_000);
            if (o.at <= after) continue;
            if (o.kind === 'nonexistent_shifted' && !oracleDayExists(zone, day)) continue;
            expected.push({ date: isoDate(day), at: o.at });
          }
          assert.deepEqual(
            got.map((o) => ({ date: o.date, at: o.at })),
            expected,
            `${zone} ${rule.localTime} ${days.join(',')} from ${rule.startDate}`,
          );
          for (let i = 1; i < got.length; i++)
            assert.ok(got[i]!.at > got[i - 1]!.at, 'strictly increasing');
          for (const o of got) {
            assert.ok(o.at > after, 'strictly after the reference instant');
            if (o.local.wallTimeKind !== 'nonexistent_shifted')
              assert.equal(`${o.local.date} ${o.local.time}`, `${o.date} ${rule.localTime}`);
            assert.equal(o.transition === null, o.local.wallTimeKind === 'normal');
          }
        },
      ),
      { numRuns: 300 * SCALE },
    );
  });

  it('upcoming(n) equals n steps of next', () => {
    fc.assert(
      fc.property(ruleArb, ({ rule, after, count }) => {
        const got = upcomingOccurrences(rule, after, count);
        const stepped = [];
        let t = after;
        for (let i = 0; i < count; i++) {
          const o = nextOccurrenceAfter(rule, t);
          if (o === null) break;
          stepped.push(o);
          t = o.at;
        }
        assert.deepEqual(got, stepped);
        if (got.length < count)
          assert.equal(
            nextOccurrenceAfter(rule, got.at(-1)?.at ?? after),
            null,
            'fewer only when the schedule ended',
          );
      }),
      { numRuns: 300 * SCALE },
    );
  });
});
