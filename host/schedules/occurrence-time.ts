/**
 * The time fields shared by NextOccurrence, Upcoming items, SchedulePreview.first and
 * OccurrenceOut: `scheduled_at`, `in_seconds`, `local`, `in_home_timezone`, `notice` and
 * `backup_alarm_at`, computed from an occurrence's instant, its zone, the wall time it was
 * asked for, the account's home zone and now. Pure.
 *
 * Why the wall time is an input: the instant alone cannot say whether 03:00 was asked for
 * or 02:30 shifted out of a spring-forward gap (`nonexistent_shifted`), so the presenter
 * resolves the requested wall time again and keeps the result only when it lands on the
 * same instant. In-N-minutes occurrences (`wallTime` null) are always `normal` with no
 * notice: nobody asked for a wall time, so a clock change has nothing to explain.
 * @module
 */
import {
  resolveWallTime,
  type EpochMs,
  type OccurrenceRecord,
  type WallTimeResolution,
} from '../../engine/index.js';
import { inHomeTimezone, localTimeAt } from '../../engine/internals.js';
import { clockChangeNotice } from '../reference/clock-change.js';
import type { HomeTime, LocalTime } from '../generated/openapi.js';
import { isoInstant, isoInstantOrNull } from '../instant.js';

/** What {@link presentOccurrenceTime} needs. */
export interface OccurrenceTimeInput {
  /** The instant the phone rings. */
  at: EpochMs;
  /** The call's IANA zone (UTC when the occurrence has none). */
  timezone: string;
  /**
   * The wall time `HH:MM` the instant was derived from (the schedule's `local_time`), or
   * null for an in-N-minutes call.
   */
  wallTime: string | null;
  /** The account's home zone, or null when none is set. */
  homeTimezone: string | null;
  /** The current instant (for `in_seconds`). */
  now: EpochMs;
  /** When the app backup alarm rings (moves on snooze), or null without backup alarm. */
  backupAlarmAt: EpochMs | null;
}

/** The shared time fields, in the API's shape. `in_home_timezone` is absent (not null) when omitted. */
export interface OccurrenceTimeOut {
  scheduled_at: string;
  in_seconds: number;
  local: LocalTime;
  in_home_timezone?: HomeTime;
  notice: string | null;
  backup_alarm_at: string | null;
}

/**
 * The shared time fields of one occurrence.
 * @example presentOccurrenceTime({ at, timezone: 'Europe/Paris', wallTime: '07:00', homeTimezone: 'America/New_York', now, backupAlarmAt: null })
 */
export function presentOccurrenceTime(input: OccurrenceTimeInput): OccurrenceTimeOut {
  const { at, timezone, now } = input;
  const resolved = input.wallTime === null ? null : resolutionOf(timezone, at, input.wallTime);
  const lt = resolved?.local ?? localTimeAt(timezone, at);
  const out: OccurrenceTimeOut = {
    scheduled_at: isoInstant(at),
    // Whole seconds towards zero of the signed distance: 89.9 s ahead is 89, 0.5 s past is 0.
    in_seconds: Math.trunc((at - now) / 1000),
    local: {
      date: lt.date,
      time: lt.time,
      timezone: lt.timezone,
      utc_offset: lt.utcOffset,
      abbreviation: lt.abbreviation,
      wall_time_kind: lt.wallTimeKind,
    },
    notice: resolved === null ? null : clockChangeNotice(resolved),
    backup_alarm_at: isoInstantOrNull(input.backupAlarmAt),
  };
  const home = inHomeTimezone(timezone, input.homeTimezone, at);
  if (home !== null) {
    out.in_home_timezone = {
      date: home.date,
      time: home.time,
      timezone: home.timezone,
      utc_offset: home.utcOffset,
    };
  }
  return out;
}

/**
 * The same fields for a stored occurrence. `wallTime` is the schedule's `local_time`
 * (ignored for an in-N-minutes occurrence; pass null when the schedule is unknown).
 */
export function presentOccurrenceRecordTime(
  record: Pick<OccurrenceRecord, 'scheduledAt' | 'timezone' | 'derivationSource' | 'backupAlarmAt'>,
  options: { wallTime: string | null; homeTimezone: string | null; now: EpochMs },
): OccurrenceTimeOut {
  return presentOccurrenceTime({
    at: record.scheduledAt,
    timezone: record.timezone ?? 'UTC',
    wallTime: record.derivationSource === 'in_minutes' ? null : options.wallTime,
    homeTimezone: options.homeTimezone,
    now: options.now,
    backupAlarmAt: record.backupAlarmAt,
  });
}

/**
 * The resolution of `wallTime` on the local date of `at` (or the day before, when a gap
 * pushed the call past midnight) that lands exactly on `at`; null when none does (the
 * instant did not come from that wall time, e.g. it was amended by hand).
 */
function resolutionOf(zone: string, at: EpochMs, wallTime: string): WallTimeResolution | null {
  const date = localTimeAt(zone, at).date;
  for (const d of [date, previousDate(date)]) {
    try {
      const r = resolveWallTime(zone, d, wallTime);
      if (r.at === at) return r;
    } catch {
      return null; // malformed wall time: present the instant as it is
    }
  }
  return null;
}

function previousDate(date: string): string {
  const t = Date.parse(`${date}T00:00:00Z`) - 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}
