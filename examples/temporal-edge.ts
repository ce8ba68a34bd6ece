/**
 * Temporal at the engine's edge, in use and measured: the prototype behind
 * docs/decisions/0017-temporal-at-the-edge.md. It builds a weekly series from PlainDate and
 * PlainTime values, prints its next call as a ZonedDateTime, times each edge function against
 * the engine's string API, and counts the wall times where Temporal's own
 * `disambiguation: 'compatible'` and the engine's policy disagree. Prints numbers, asserts
 * nothing. On a Node with a global Temporal (26):
 *
 *   scripts/with-node.sh 26 node --import tsx examples/temporal-edge.ts [calls]
 *
 * Elsewhere (Node 22, 24) it uses @js-temporal/polyfill, a dependency of this repository.
 */
import { performance } from 'node:perf_hooks';
import { Temporal as Polyfill } from '@js-temporal/polyfill';
import {
  epochMsFrom,
  localDateFrom,
  localTimeFrom,
  nextOccurrenceAfter,
  occurrenceTimeToTemporal,
  resolveWallTime,
  resolveWallTimeTemporal,
  zonedDateTimeAt,
} from '../engine/index.js';
import type {
  PlainDateLike,
  PlainTimeLike,
  TemporalNamespace,
  WeeklyRecurrence,
} from '../engine/index.js';

const native = (globalThis as { Temporal?: typeof Polyfill }).Temporal;
const T = native ?? Polyfill;
const temporal = T as unknown as TemporalNamespace;
const ZONES = [
  'America/New_York',
  'Europe/Paris',
  'Australia/Sydney',
  'Asia/Kolkata',
  'America/Sao_Paulo',
  'Pacific/Chatham',
];
const N = Number(process.argv[2] ?? 200_000);

/** ns per call of fn over N calls, after a warm-up; the median of 5 runs. */
function ns(fn: (i: number) => unknown): number {
  let sink = 0;
  for (let i = 0; i < 20_000; i++) sink += fn(i) ? 1 : 0;
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    for (let i = 0; i < N; i++) sink += fn(i) ? 1 : 0;
    runs.push(((performance.now() - t0) * 1e6) / N);
  }
  if (sink < 0) console.log(sink);
  return runs.sort((a, b) => a - b)[2]!;
}

const dates: string[] = [];
const times: string[] = [];
for (let i = 0; i < 1024; i++) {
  const d = new Date(Date.UTC(2027, 0, 1) + ((i * 37) % 730) * 86_400_000);
  dates.push(d.toISOString().slice(0, 10));
  times.push(`${String((i * 7) % 24).padStart(2, '0')}:${String((i * 13) % 60).padStart(2, '0')}`);
}
const temporalDates = dates.map((d) => T.PlainDate.from(d));
const temporalTimes = times.map((t) => T.PlainTime.from(t));
const plainDates = temporalDates as unknown as PlainDateLike[];
const plainTimes = temporalTimes as unknown as PlainTimeLike[];
const zone = (i: number) => ZONES[i % ZONES.length]!;

const zonedAt = plainDates.map((_, i) =>
  zonedDateTimeAt(1_800_000_000_000 + i * 3_600_000, zone(i), { temporal }),
);

const rows: [string, number][] = [
  [
    'engine resolveWallTime(zone, "YYYY-MM-DD", "HH:MM")',
    ns((i) => resolveWallTime(zone(i), dates[i & 1023]!, times[i & 1023]!).at),
  ],
  [
    'edge: resolveWallTime(zone, localDateFrom(PlainDate), localTimeFrom(PlainTime))',
    ns(
      (i) =>
        resolveWallTime(
          zone(i),
          localDateFrom(plainDates[i & 1023]!),
          localTimeFrom(plainTimes[i & 1023]!),
        ).at,
    ),
  ],
  [
    'edge: resolveWallTimeTemporal(zone, PlainDate, PlainTime) -> ZonedDateTime',
    ns(
      (i) =>
        resolveWallTimeTemporal(zone(i), plainDates[i & 1023]!, plainTimes[i & 1023]!, { temporal })
          .zoned,
    ),
  ],
  [
    'edge: zonedDateTimeAt(epochMs, zone)',
    ns((i) => zonedDateTimeAt(1_800_000_000_000 + i * 60_000, zone(i), { temporal })),
  ],
  ['edge: epochMsFrom(ZonedDateTime)', ns((i) => epochMsFrom(zonedAt[i & 1023]!))],
  [
    'Temporal alone: PlainDate.toZonedDateTime({plainTime, timeZone}).epochMilliseconds',
    ns(
      (i) =>
        temporalDates[i & 1023]!.toZonedDateTime({
          plainTime: temporalTimes[i & 1023]!,
          timeZone: zone(i),
        }).epochMilliseconds,
    ),
  ],
];

// Does Temporal's 'compatible' agree with the engine's policy? Every local minute of the
// spring-forward and fall-back days of 2027 in the zones above.
let compared = 0;
let differ = 0;
const examples: string[] = [];
for (const z of ZONES) {
  for (let day = 0; day < 365; day++) {
    const date = new Date(Date.UTC(2027, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
    const start = T.PlainDate.from(date).toZonedDateTime({ timeZone: z });
    if (start.hoursInDay === 24) continue;
    for (let m = 0; m < 1440; m += 5) {
      const time = `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
      const engine = resolveWallTime(z, date, time).at;
      const theirs = T.PlainDateTime.from(`${date}T${time}`).toZonedDateTime(z, {
        disambiguation: 'compatible',
      }).epochMilliseconds;
      compared++;
      if (engine !== theirs) {
        differ++;
        if (examples.length < 3)
          examples.push(
            `${z} ${date} ${time}: engine ${new Date(engine).toISOString()}, compatible ${new Date(theirs).toISOString()}`,
          );
      }
    }
  }
}

const weekly: WeeklyRecurrence = {
  kind: 'weekly',
  timezone: 'America/New_York',
  localTime: localTimeFrom(T.PlainTime.from('07:00')),
  daysOfWeek: ['mon', 'wed', 'fri'],
  startDate: localDateFrom(T.PlainDate.from('2027-03-01')),
  endDate: null,
  pausedUntil: null,
  skipDates: [],
};
const next = nextOccurrenceAfter(weekly, Date.parse('2027-03-13T00:00:00Z'))!;

console.log(
  `Node ${process.version}; Temporal: ${native ? 'native (global)' : '@js-temporal/polyfill'}; ${N} calls per run, median of 5`,
);
for (const [name, v] of rows) console.log(`${v.toFixed(0).padStart(7)} ns  ${name}`);
console.log(
  `wall times on the clock-change days of 2027 (${ZONES.length} zones, every 5 min): ${differ} of ${compared} differ`,
);
for (const e of examples) console.log(`  ${e}`);
console.log(
  `a weekly series built from PlainDate/PlainTime, next after 13 March: ${occurrenceTimeToTemporal(next, { temporal }).at.toString()}`,
);
