/**
 * Temporal at the engine's edge (docs/decisions/0017-temporal-at-the-edge.md): an embedder
 * holding `Temporal.PlainDate`, `Temporal.PlainTime`, `Temporal.Instant` or
 * `Temporal.ZonedDateTime` values passes them here and gets the engine's own strings and epoch
 * milliseconds, and turns the engine's instants back into `ZonedDateTime`s. Nothing else in
 * the engine changes: rules, records, ports and the dispatch path stay on `YYYY-MM-DD`,
 * `HH:MM` and epoch ms.
 *
 * Values are recognised by their `Symbol.toStringTag` (`Temporal.PlainDate`, ...), so native
 * Temporal (Node 26) and a polyfill's objects both work, and importing this module needs no
 * Temporal at all. Only the functions that RETURN Temporal values need a `Temporal`
 * namespace: the global one (Node 26), or one passed in (`{ temporal }`, e.g. a polyfill on
 * Node 22 or 24).
 *
 * Wall times are resolved by the engine's policy (`WALL_TIME_POLICY`: the first instant at or
 * after the wall time; in a gap that is the clock change), never by Temporal's
 * `disambiguation: 'compatible'`, which rings an hour late in a spring-forward gap
 * (docs/decisions/0001).
 * @module
 */
import type { EpochMs } from './epoch.js';
import { resolveWallTime } from './wall-time.js';
import type { WallTimeKind, WallTimeResolution } from './wall-time.js';
import type { Transition } from './zone-rules.js';
import type { OccurrenceTime } from './recurrence.js';

/** What the engine reads of a `Temporal.PlainDate`. */
export interface PlainDateLike {
  /** `Temporal.PlainDate`: how the engine recognises the value (native Temporal or a polyfill). */
  readonly [Symbol.toStringTag]: 'Temporal.PlainDate';
  /** ISO year; outside 0000 to 9999 it is written with a sign and six digits. */
  readonly year: number;
  /** Month, 1 to 12. */
  readonly month: number;
  /** Day of the month, from 1. */
  readonly day: number;
  /** Must be `iso8601`: a date in another calendar is refused. */
  readonly calendarId: string;
}

/** What the engine reads of a `Temporal.PlainTime`. */
export interface PlainTimeLike {
  /** `Temporal.PlainTime`: how the engine recognises the value (native Temporal or a polyfill). */
  readonly [Symbol.toStringTag]: 'Temporal.PlainTime';
  /** Hour, 0 to 23. */
  readonly hour: number;
  /** Minute, 0 to 59. */
  readonly minute: number;
  /** Must be 0: wake-up times are whole minutes. */
  readonly second: number;
  /** Must be 0. */
  readonly millisecond: number;
  /** Must be 0. */
  readonly microsecond: number;
  /** Must be 0. */
  readonly nanosecond: number;
}

/** What the engine reads of a `Temporal.Instant`. */
export interface InstantLike {
  /** `Temporal.Instant`: how the engine recognises the value (native Temporal or a polyfill). */
  readonly [Symbol.toStringTag]: 'Temporal.Instant';
  /** The instant, epoch ms (sub-millisecond parts already dropped). */
  readonly epochMilliseconds: number;
}

/** A `Temporal.ZonedDateTime`, as far as the engine reads and returns it. */
export interface ZonedDateTimeLike {
  /** `Temporal.ZonedDateTime`: how the engine recognises the value (native Temporal or a polyfill). */
  readonly [Symbol.toStringTag]: 'Temporal.ZonedDateTime';
  /** The instant, epoch ms (what {@link epochMsFrom} returns). */
  readonly epochMilliseconds: number;
  /** The IANA zone it is in. */
  readonly timeZoneId: string;
  /** Its local date in that zone. */
  toPlainDate(): PlainDateLike;
  /** Its local time in that zone. */
  toPlainTime(): PlainTimeLike;
  /** ISO 8601 with offset and zone, e.g. `2027-03-15T07:00:00-04:00[America/New_York]`. */
  toString(): string;
}

/** The part of the `Temporal` namespace the engine calls to make values. */
export interface TemporalNamespace {
  /** `Temporal.Instant`: makes the `ZonedDateTime`s the functions return. */
  Instant: { fromEpochMilliseconds(ms: number): { toZonedDateTimeISO(zone: string): unknown } };
  /** `Temporal.PlainDate`: makes {@link TemporalOccurrenceTime.date}. */
  PlainDate: { from(iso: string): unknown };
  /** `Temporal.PlainTime`: part of the shape; no function calls it yet. */
  PlainTime: { from(iso: string): unknown };
}

/** Options of the functions that return Temporal values. */
export interface TemporalOptions {
  /** The namespace to make values with; default: the global `Temporal` (Node 26). */
  temporal?: TemporalNamespace;
}

function tag(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null
    ? (value as { [Symbol.toStringTag]?: string })[Symbol.toStringTag]
    : undefined;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/**
 * A local date as the engine writes it: a `Temporal.PlainDate` in the ISO calendar, or a
 * `YYYY-MM-DD` string (returned as given; the engine checks it where it is used).
 * @throws RangeError for a PlainDate in another calendar or a value of another kind.
 * @example localDateFrom(Temporal.PlainDate.from('2027-03-14')) // '2027-03-14'
 */
export function localDateFrom(value: string | PlainDateLike): string {
  if (typeof value === 'string') return value;
  if (tag(value) !== 'Temporal.PlainDate')
    throw new RangeError('localDateFrom: expected a Temporal.PlainDate or a YYYY-MM-DD string');
  if (value.calendarId !== 'iso8601')
    throw new RangeError(
      `localDateFrom: the date must be in the ISO calendar, got ${value.calendarId} (use withCalendar('iso8601'))`,
    );
  const year =
    value.year < 0 || value.year > 9999
      ? `${value.year < 0 ? '-' : '+'}${pad(Math.abs(value.year), 6)}`
      : pad(value.year, 4);
  return `${year}-${pad(value.month)}-${pad(value.day)}`;
}

/**
 * A local time as the engine writes it (`HH:MM`): a `Temporal.PlainTime` on a whole minute,
 * or an `HH:MM` string (returned as given). Wake-up times are whole minutes; a PlainTime
 * with seconds is refused rather than rounded, so the call never rings at another time than
 * the one given.
 * @throws RangeError for seconds or fractions, or a value of another kind.
 * @example localTimeFrom(Temporal.PlainTime.from('07:00')) // '07:00'
 */
export function localTimeFrom(value: string | PlainTimeLike): string {
  if (typeof value === 'string') return value;
  if (tag(value) !== 'Temporal.PlainTime')
    throw new RangeError('localTimeFrom: expected a Temporal.PlainTime or an HH:MM string');
  if (value.second || value.millisecond || value.microsecond || value.nanosecond)
    throw new RangeError(
      `localTimeFrom: the time must be a whole minute, got ${pad(value.hour)}:${pad(value.minute)}:${pad(value.second)} and a fraction`,
    );
  return `${pad(value.hour)}:${pad(value.minute)}`;
}

/**
 * An instant as the engine counts it (epoch ms): a number (returned as given), a
 * `Temporal.Instant` or a `Temporal.ZonedDateTime` (sub-millisecond parts are dropped,
 * towards the past, as `epochMilliseconds` does).
 * @example epochMsFrom(Temporal.Instant.from('2027-03-01T12:00:00Z')) // 1803988800000
 */
export function epochMsFrom(value: EpochMs | InstantLike | ZonedDateTimeLike): EpochMs {
  if (typeof value === 'number') return value;
  const t = tag(value);
  if (t !== 'Temporal.Instant' && t !== 'Temporal.ZonedDateTime')
    throw new RangeError(
      'epochMsFrom: expected epoch milliseconds, a Temporal.Instant or a Temporal.ZonedDateTime',
    );
  return value.epochMilliseconds;
}

function namespace(options: TemporalOptions | undefined): TemporalNamespace {
  const ns = options?.temporal ?? (globalThis as { Temporal?: TemporalNamespace }).Temporal;
  if (!ns)
    throw new TypeError(
      'Temporal is not available: Node 26 has it as a global; on Node 22 or 24 pass a polyfill as { temporal } (or assign globalThis.Temporal)',
    );
  return ns;
}

/**
 * An engine instant as a `Temporal.ZonedDateTime` in `zone`.
 * @example zonedDateTimeAt(occ.scheduledAt, 'America/New_York').toString() // '2027-03-15T07:00:00-04:00[America/New_York]'
 */
export function zonedDateTimeAt(
  at: EpochMs,
  zone: string,
  options?: TemporalOptions,
): ZonedDateTimeLike {
  return namespace(options)
    .Instant.fromEpochMilliseconds(at)
    .toZonedDateTimeISO(zone) as ZonedDateTimeLike;
}

/** The result of {@link resolveWallTimeTemporal}. */
export interface TemporalWallTime {
  /** The instant the phone rings, in the zone asked for. */
  zoned: ZonedDateTimeLike;
  /** normal, ambiguous_first or nonexistent_shifted (a gap moved it to the clock change). */
  kind: WallTimeKind;
  /** The engine's own result (strings and epoch ms). */
  resolution: WallTimeResolution;
}

/**
 * {@link resolveWallTime} with Temporal in and out: a date and a time (PlainDate/PlainTime
 * or the engine's strings) in `zone`, resolved by the engine's policy, returned as a
 * `ZonedDateTime` beside the engine's result.
 * @example resolveWallTimeTemporal('America/New_York', Temporal.PlainDate.from('2027-03-14'), Temporal.PlainTime.from('02:30')).zoned.toString()
 * // '2027-03-14T03:00:00-04:00[America/New_York]' (Temporal's 'compatible' would say 03:30)
 */
export function resolveWallTimeTemporal(
  zone: string,
  date: string | PlainDateLike,
  time: string | PlainTimeLike,
  options?: TemporalOptions,
): TemporalWallTime {
  const resolution = resolveWallTime(zone, localDateFrom(date), localTimeFrom(time));
  return {
    zoned: zonedDateTimeAt(resolution.at, zone, options),
    kind: resolution.local.wallTimeKind,
    resolution,
  };
}

/** An {@link OccurrenceTime} with Temporal values. */
export interface TemporalOccurrenceTime {
  /** When the phone rings, in the rule's zone. */
  at: ZonedDateTimeLike;
  /** The local date the rule produced it for (differs from `at`'s date only when a gap pushed it past midnight). */
  date: PlainDateLike;
  /** How the wall time resolved: `normal`, `ambiguous_first` or `nonexistent_shifted` (a gap moved it to the clock change). */
  kind: WallTimeKind;
  /** The clock change that moved the wall time, or null when it was normal (as {@link OccurrenceTime.transition}). */
  transition: Transition | null;
  /** How it was derived: `one_off`, `in_minutes` or `weekly`. */
  source: OccurrenceTime['source'];
}

/**
 * An occurrence computed by `nextOccurrenceAfter`, `upcomingOccurrences` and friends, with
 * Temporal values in the rule's zone.
 * @example
 * const next = nextOccurrenceAfter(rule, clock.now());
 * if (next) console.log(occurrenceTimeToTemporal(next).at.toString()); // 2027-03-01T07:00:00-05:00[America/New_York]
 */
export function occurrenceTimeToTemporal(
  t: OccurrenceTime,
  options?: TemporalOptions,
): TemporalOccurrenceTime {
  const ns = namespace(options);
  return {
    at: zonedDateTimeAt(t.at, t.local.timezone, { temporal: ns }),
    date: ns.PlainDate.from(t.date) as PlainDateLike,
    kind: t.local.wallTimeKind,
    transition: t.transition,
    source: t.source,
  };
}
