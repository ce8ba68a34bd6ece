/**
 * Wall-time resolution: (local date, HH:MM, zone) → the instant the phone rings, with the
 * local reading of that instant and what kind of wall time it was.
 *
 * The policy, named as Temporal names its `disambiguation` options:
 * - overlap (a fall-back hour that happens twice): `'earlier'`: the first of the two
 *   instants. `wall_time_kind` = `ambiguous_first`.
 * - gap (a spring-forward hour that never happens): the first valid instant after the gap,
 *   which is the instant of the clock change itself. In New York on 2027-03-14 clocks jump
 *   from 02:00 to 03:00, so 02:30 rings at 03:00 (`nonexistent_shifted`). Temporal has no
 *   option for this: its default `'compatible'` gives 03:30 (it shifts by the gap's length)
 *   and `'earlier'` gives 01:30. We never use either in a gap.
 * Equivalently: the result is the earliest instant whose local reading is at or after the
 * requested wall time. The property tests check exactly that against an oracle.
 *
 * Every call derives the instant afresh from (date, time, zone); nothing is carried from a
 * previous occurrence, so a shift in one gap can never stick to later occurrences.
 * @module
 */
import type { EpochMs } from './epoch.js';
import { MS_PER_DAY, formatDate, formatOffset, formatTime, parseDate, parseTime } from './civil.js';
import { getZoneRules, type Transition } from './zone-rules.js';

/** How a requested wall time maps to an instant. */
export type WallTimeKind = 'normal' | 'ambiguous_first' | 'nonexistent_shifted';

/** The named disambiguation policy (see the module header). */
export const WALL_TIME_POLICY = Object.freeze({
  overlap: 'earlier',
  gap: 'first-instant-after-gap',
} as const);

/** When the phone rings, on the call's own clock (the spec's LocalTime). */
export interface LocalTime {
  /** Local date `YYYY-MM-DD` of the ringing instant. */
  date: string;
  /** Local time `HH:MM` of the ringing instant (03:00 for a 02:30 shifted out of a gap). */
  time: string;
  /** The zone. */
  timezone: string;
  /** UTC offset in force then, `+HH:MM`. */
  utcOffset: string;
  /** Abbreviation in force then (EST, CEST, IST, or `+03` style). */
  abbreviation: string;
  /** normal, ambiguous_first (first of two), nonexistent_shifted (moved past a gap). */
  wallTimeKind: WallTimeKind;
}

/** The same instant on the account's home clock (the spec's HomeTime). */
export interface HomeTime {
  date: string;
  time: string;
  timezone: string;
  utcOffset: string;
}

/** The result of {@link resolveWallTime}. */
export interface WallTimeResolution {
  /** The instant the phone rings (epoch ms). */
  at: EpochMs;
  /** The local reading of `at`, with the wall-time kind. */
  local: LocalTime;
  /** The wall time that was asked for. */
  requested: { date: string; time: string };
  /** The clock change that made the time ambiguous or nonexistent; null when normal. */
  transition: Transition | null;
}

/** Internal numeric result, no strings: the recurrence hot path uses it. */
export interface ResolvedInstant {
  at: EpochMs;
  kind: WallTimeKind;
  transition: Transition | null;
}

/** Offsets lie within ±16 h (historic local mean time included), gaps within 24 h. */
const SPAN = 16 * 3_600_000;

/**
 * Numeric core of {@link resolveWallTime}: `day` is days since 1970-01-01, `minute` minutes
 * since local midnight. No validation.
 * @internal
 */
export function resolveDayMinute(zone: string, day: number, minute: number): ResolvedInstant {
  const rules = getZoneRules(zone);
  const wall = day * MS_PER_DAY + minute * 60_000;
  const from = wall - SPAN;
  const transitions = rules.transitionsBetween(from, wall + SPAN);
  if (transitions.length === 0) {
    return { at: wall - rules.offsetAt(from), kind: 'normal', transition: null };
  }
  // Walk the periods [start, end) of constant offset; a period offers the candidate
  // `wall - offset` when that instant lies inside it.
  let first: EpochMs | null = null;
  let firstEnd: Transition | null = null;
  let count = 0;
  let start = from;
  let offset = rules.offsetAt(from);
  for (let i = 0; i <= transitions.length; i++) {
    const next = transitions[i];
    const end = next === undefined ? Infinity : next.at;
    const candidate = wall - offset;
    if (candidate >= start && candidate < end) {
      count++;
      if (first === null) {
        first = candidate;
        firstEnd = next ?? null;
      }
    }
    if (next !== undefined) {
      start = next.at;
      offset = next.offsetAfter;
    }
  }
  if (first !== null) {
    return count > 1
      ? { at: first, kind: 'ambiguous_first', transition: firstEnd }
      : { at: first, kind: 'normal', transition: null };
  }
  for (const t of transitions) {
    if (t.at + t.offsetBefore <= wall && wall < t.at + t.offsetAfter) {
      return { at: t.at, kind: 'nonexistent_shifted', transition: t };
    }
  }
  throw new Error(
    `resolveWallTime: no instant found for ${formatDate(day)} ${formatTime(minute)} in ${zone}`,
  );
}

/**
 * Resolves a wall time in a zone to the instant the phone rings, under
 * {@link WALL_TIME_POLICY}. Pure; cached per zone.
 *
 * @param zone - a zone accepted by `checkTimeZone` (canonical name).
 * @param date - local date `YYYY-MM-DD`.
 * @param time - local time `HH:MM`, 24-hour.
 * @throws RangeError when `date` or `time` is malformed or `zone` unknown to the runtime.
 * @example resolveWallTime('America/New_York', '2027-03-14', '02:30').local.time // '03:00' (nonexistent_shifted)
 * @example resolveWallTime('America/New_York', '2027-11-07', '01:30').local.utcOffset // '-04:00' (ambiguous_first)
 */
export function resolveWallTime(zone: string, date: string, time: string): WallTimeResolution {
  const day = parseDate(date);
  const minute = parseTime(time);
  if (day === null)
    throw new RangeError(
      `resolveWallTime: date must be a real YYYY-MM-DD, got ${JSON.stringify(date)}`,
    );
  if (minute === null)
    throw new RangeError(
      `resolveWallTime: time must be HH:MM (00:00..23:59), got ${JSON.stringify(time)}`,
    );
  const r = resolveDayMinute(zone, day, minute);
  return {
    at: r.at,
    local: localTimeAt(zone, r.at, r.kind),
    requested: { date, time },
    transition: r.transition,
  };
}

/** Local date and time (day number, minute of day) of an instant in a zone, plus the offset. */
function wallOf(zone: string, at: EpochMs): { day: number; minute: number; offset: number } {
  const offset = getZoneRules(zone).offsetAt(at);
  const local = at + offset;
  const day = Math.floor(local / MS_PER_DAY);
  return { day, minute: Math.floor((local - day * MS_PER_DAY) / 60_000), offset };
}

/**
 * The {@link LocalTime} of an instant in a zone.
 * @param kind - the wall-time kind to report (`normal` unless the instant came from a resolution).
 */
export function localTimeAt(zone: string, at: EpochMs, kind: WallTimeKind = 'normal'): LocalTime {
  const w = wallOf(zone, at);
  return {
    date: formatDate(w.day),
    time: formatTime(w.minute),
    timezone: zone,
    utcOffset: formatOffset(w.offset),
    abbreviation: getZoneRules(zone).labelAt(at).abbreviation,
    wallTimeKind: kind,
  };
}

/** The {@link HomeTime} of an instant: the same instant on the home zone's clock. */
export function homeTimeAt(homeZone: string, at: EpochMs): HomeTime {
  const w = wallOf(homeZone, at);
  return {
    date: formatDate(w.day),
    time: formatTime(w.minute),
    timezone: homeZone,
    utcOffset: formatOffset(w.offset),
  };
}

/**
 * `in_home_timezone` of an occurrence: the home clock's reading, or null (the field is
 * omitted) when there is no home zone or it is the call's own zone.
 */
export function inHomeTimezone(
  callZone: string,
  homeZone: string | null | undefined,
  at: EpochMs,
): HomeTime | null {
  if (homeZone === null || homeZone === undefined || homeZone === callZone) return null;
  return homeTimeAt(homeZone, at);
}

/** Local date of an instant in a zone, as a day number since 1970-01-01. @internal */
export function localDayAt(zone: string, at: EpochMs): number {
  return wallOf(zone, at).day;
}

/** Local date `YYYY-MM-DD` of an instant in a zone (today's date there when `at` is now). */
export function localDateAt(zone: string, at: EpochMs): string {
  return formatDate(wallOf(zone, at).day);
}
