/**
 * Benchmark of the engine's time functions on the dispatch path: wall-time resolutions per
 * second and upcoming(100) per second, cold (first touch of every zone) and warm.
 * Prints figures, asserts nothing. Run alone with `node --import tsx bench/time.ts`, or
 * through `npm run bench` (bench/run.ts calls {@link runTimeBench}).
 */
import { pathToFileURL } from 'node:url';
import {
  nextOccurrenceAfter,
  resolveWallTime,
  upcomingOccurrences,
  type WeeklyRecurrence,
} from '../engine/index.js';
import { listAcceptedZones } from '../engine/internals.js';

/** One measured figure. */
export interface TimeBenchFigure {
  name: string;
  operations: number;
  seconds: number;
  perSecond: number;
}

/** Options of {@link runTimeBench}. */
export interface TimeBenchOptions {
  /**
   * Rough wall time per warm measurement, in milliseconds.
   * @defaultValue 1000
   */
  durationMs?: number;
  /** Where lines go. @defaultValue console.log */
  print?: (line: string) => void;
}

/** A deterministic pseudo-random sequence (the bench must not depend on Math.random). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Runs `batch(n)` with growing n for about `durationMs`; each batch performs n operations. */
function measure(name: string, durationMs: number, batch: (n: number) => void): TimeBenchFigure {
  let ops = 0;
  const start = performance.now();
  let elapsed = 0;
  let n = 10;
  while (elapsed < durationMs) {
    batch(n);
    ops += n;
    elapsed = performance.now() - start;
    if (elapsed < durationMs / 4) n *= 2;
  }
  return {
    name,
    operations: ops,
    seconds: elapsed / 1000,
    perSecond: Math.round(ops / (elapsed / 1000)),
  };
}

/**
 * Runs the time benchmark and returns its figures (also printed, one line each).
 * The 7:00 spike case resolves 07:00 local on dates within the next 400 days in the 40 most
 * common zones, as the dispatcher does when 100k calls are due in one morning.
 */
export async function runTimeBench(options: TimeBenchOptions = {}): Promise<TimeBenchFigure[]> {
  const durationMs = options.durationMs ?? 1000;
  const print = options.print ?? ((line: string) => console.log(line));
  const zones = listAcceptedZones();
  const common = [
    'America/New_York',
    'America/Chicago',
    'America/Denver',
    'America/Los_Angeles',
    'America/Phoenix',
    'America/Anchorage',
    'Pacific/Honolulu',
    'America/Toronto',
    'America/Vancouver',
    'America/Mexico_City',
    'America/Sao_Paulo',
    'America/Santiago',
    'America/Argentina/Buenos_Aires',
    'America/Bogota',
    'Europe/London',
    'Europe/Dublin',
    'Europe/Paris',
    'Europe/Berlin',
    'Europe/Madrid',
    'Europe/Rome',
    'Europe/Amsterdam',
    'Europe/Stockholm',
    'Europe/Warsaw',
    'Europe/Athens',
    'Europe/Kyiv',
    'Europe/Istanbul',
    'Europe/Moscow',
    'Africa/Cairo',
    'Africa/Lagos',
    'Africa/Johannesburg',
    'Asia/Dubai',
    'Asia/Kolkata',
    'Asia/Singapore',
    'Asia/Shanghai',
    'Asia/Tokyo',
    'Asia/Seoul',
    'Australia/Sydney',
    'Australia/Lord_Howe',
    'Pacific/Auckland',
    'UTC',
  ];
  const today = Date.UTC(2026, 10, 21) / 86_400_000;
  const figures: TimeBenchFigure[] = [];

  // Cold: the first resolution in each zone builds its cached rules.
  const coldStart = performance.now();
  for (const zone of zones) resolveWallTime(zone, '2027-03-14', '02:30');
  const coldSeconds = (performance.now() - coldStart) / 1000;
  figures.push({
    name: `resolveWallTime, cold, first call in each of ${zones.length} zones`,
    operations: zones.length,
    seconds: coldSeconds,
    perSecond: Math.round(zones.length / coldSeconds),
  });

  // Warm the common zones over the 400-day horizon, then measure.
  const dates: string[] = [];
  for (let d = 0; d <= 400; d++) {
    const day = new Date((today + d) * 86_400_000);
    dates.push(`${day.getUTCFullYear()}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())}`);
  }
  for (const zone of common) for (const date of dates) resolveWallTime(zone, date, '07:00');

  let rnd = lcg(1);
  figures.push(
    measure('resolveWallTime, 07:00 spike (40 zones x 400 days)', durationMs, (n) => {
      for (let i = 0; i < n; i++)
        resolveWallTime(
          common[(rnd() * common.length) | 0]!,
          dates[(rnd() * dates.length) | 0]!,
          '07:00',
        );
    }),
  );
  rnd = lcg(2);
  figures.push(
    measure('resolveWallTime, any time incl. gaps/overlaps (40 zones)', durationMs, (n) => {
      for (let i = 0; i < n; i++) {
        const m = (rnd() * 1440) | 0;
        resolveWallTime(
          common[(rnd() * common.length) | 0]!,
          dates[(rnd() * dates.length) | 0]!,
          `${pad((m / 60) | 0)}:${pad(m % 60)}`,
        );
      }
    }),
  );

  const rules: WeeklyRecurrence[] = common.map((zone, i) => ({
    kind: 'weekly',
    timezone: zone,
    localTime: i % 3 === 0 ? '02:30' : '07:00',
    daysOfWeek:
      i % 2 === 0
        ? ['mon', 'tue', 'wed', 'thu', 'fri']
        : ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
    startDate: null,
    endDate: null,
    pausedUntil: null,
    skipDates: ['2027-01-01', '2027-03-14'],
  }));
  const after = today * 86_400_000;
  rnd = lcg(3);
  figures.push(
    measure('nextOccurrenceAfter, weekly (40 zones)', durationMs, (n) => {
      for (let i = 0; i < n; i++)
        nextOccurrenceAfter(rules[(rnd() * rules.length) | 0]!, after + rnd() * 300 * 86_400_000);
    }),
  );
  rnd = lcg(4);
  figures.push(
    measure('upcomingOccurrences(rule, after, 100), weekly (40 zones)', durationMs, (n) => {
      for (let i = 0; i < n; i++)
        upcomingOccurrences(
          rules[(rnd() * rules.length) | 0]!,
          after + rnd() * 200 * 86_400_000,
          100,
        );
    }),
  );

  for (const f of figures)
    print(
      `time: ${f.name}: ${f.perSecond.toLocaleString('en-US')}/s (${f.operations.toLocaleString('en-US')} in ${f.seconds.toFixed(2)} s)`,
    );
  return figures;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runTimeBench();
}
