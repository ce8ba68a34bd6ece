/**
 * Turning a schedule's timing fields (as a client sends them: `once` or `recurring`, the
 * request's snake_case field names) into the engine's {@link Recurrence}, with the catalogue's
 * specific error codes. Pure: the reference instant is an argument.
 *
 * Decided values (the coordinator's, also in the API schema):
 * - `in_minutes`: an integer from 1 to 1440 ({@link IN_MINUTES_MIN}..{@link IN_MINUTES_MAX});
 *   the call rings exactly that many minutes after the request.
 * - Furthest date: {@link MAX_DAYS_AHEAD} (400) days after today's local date in the call's
 *   zone, for `local_date`, `start_date` and `paused_until` (`date_too_far`).
 * - `skip_dates`: at most {@link MAX_SKIP_DATES} entries; past dates are dropped on save.
 * - An edit (PATCH) recompiles the merged fields with the edit instant as `now`, and the
 *   stored next occurrence is replaced by the new rule's first occurrence strictly after
 *   that instant (kept, with its id, when it is the same instant).
 * @module
 */
import {
  WEEKDAYS,
  checkTimeZone,
  nextOccurrenceAfter,
  type EpochMs,
  type OccurrenceTime,
  type Recurrence,
  type Weekday,
} from '../../engine/index.js';
import {
  formatDate,
  localDateAt,
  parseDate,
  parseTime,
  pruneSkipDates,
} from '../../engine/internals.js';

/** Smallest accepted `in_minutes`. */
export const IN_MINUTES_MIN = 1;
/** Largest accepted `in_minutes` (24 hours). */
export const IN_MINUTES_MAX = 1440;
/** How many days after today (in the call's zone) a call may be scheduled. */
export const MAX_DAYS_AHEAD = 400;
/** Most entries `skip_dates` may hold. */
export const MAX_SKIP_DATES = 100;

/** The timing fields of ScheduleIn / SchedulePatchIn (after a PATCH is merged onto the stored schedule). */
export interface RequestTiming {
  /** `once` or `recurring`. */
  kind: 'once' | 'recurring';
  /** IANA zone of the dates and the wall time (checked by {@link checkTimeZone}). */
  timezone: string;
  /** For `once` at a wall time: the local date, `YYYY-MM-DD`, at most 400 days ahead. */
  localDate?: string | null;
  /** `HH:MM` (24-hour): the wall time of a `once` call or of every `recurring` call. */
  localTime?: string | null;
  /** For `once`: ring this many minutes (1 to 1440) after `now`, instead of `localDate` and `localTime`. */
  inMinutes?: number | null;
  /** For `recurring`: `mon` to `sun`, at least one. */
  daysOfWeek?: readonly string[] | null;
  /** For `recurring`: the first local date that may ring; null or '' means today's local date. */
  startDate?: string | null;
  /** null or '' means no end date. */
  endDate?: string | null;
  /** For `recurring`: no call on this local date or before; null or '' when not paused. */
  pausedUntil?: string | null;
  /** For `recurring`: local dates with no call (at most 100); dates already past are dropped. */
  skipDates?: readonly string[] | null;
}

/** A refusal, with the catalogue code and the request field at fault. */
export interface RequestTimingError {
  /** Always false: the input was refused. */
  ok: false;
  /** invalid_timezone, timezone_not_allowed, invalid_time, local_date_required, in_minutes_out_of_range, days_of_week_empty, time_in_past, date_too_far, or validation_error. */
  code: string;
  /** snake_case request field, e.g. `local_time`, `skip_dates.2`. */
  field: string;
  /** For validation_error: the item code (`required`, `format`, `enum`, `max_items`, `invalid`). */
  reason?: string;
  /** A human sentence. */
  message: string;
}

/** The compiled rule and its first occurrence after `now` (null when already completed). */
export interface CompiledTiming {
  /** Always true: the input compiled. */
  ok: true;
  /** The rule, to store as a series' `rule` (`Runtime.saveSeries`). */
  recurrence: Recurrence;
  /** Its first occurrence strictly after `now`, or null when none remains. */
  first: OccurrenceTime | null;
}

function fail(code: string, field: string, message: string, reason?: string): RequestTimingError {
  return reason === undefined
    ? { ok: false, code, field, message }
    : { ok: false, code, field, message, reason };
}

/**
 * Validates timing fields and compiles them into a {@link Recurrence}.
 *
 * Checks, in order: zone (invalid_timezone / timezone_not_allowed); then for `once`:
 * `in_minutes` (in_minutes_out_of_range) or `local_time` (invalid_time) and `local_date`
 * (local_date_required), not in the past (time_in_past), at most 400 days ahead
 * (date_too_far); for `recurring`: `days_of_week` (days_of_week_empty), `local_time`
 * (invalid_time), dates well formed (validation_error), `start_date` and `paused_until` at
 * most 400 days ahead (date_too_far), `end_date` not before `start_date` (validation_error).
 * A missing `start_date` becomes today's local date in the zone.
 *
 * @param now - the request instant (epoch ms), from the Clock port.
 * @example
 * const r = compileRequestTiming({ kind: 'recurring', timezone: 'Europe/Paris', localTime: '06:30', daysOfWeek: ['mon', 'fri'] }, clock.now());
 * if (!r.ok) throw new Error(`${r.field}: ${r.message}`); // r.code: 'invalid_time', 'days_of_week_empty', ...
 * await runtime.saveSeries({ accountId, to, rule: r.recurrence });
 */
export function compileRequestTiming(
  input: RequestTiming,
  now: EpochMs,
): CompiledTiming | RequestTimingError {
  const zoneCheck = checkTimeZone(input.timezone);
  if (!zoneCheck.ok)
    return fail(
      zoneCheck.code,
      'timezone',
      zoneCheck.code === 'timezone_not_allowed'
        ? 'Fixed-offset zone rather than a place; pick a city zone or UTC.'
        : 'Not an IANA city zone known.',
    );
  const timezone = zoneCheck.timezone;
  const today = parseDate(localDateAt(timezone, now))!;
  const furthest = today + MAX_DAYS_AHEAD;

  if (input.kind === 'once') {
    if (input.inMinutes !== null && input.inMinutes !== undefined) {
      const n = input.inMinutes;
      if (!Number.isInteger(n) || n < IN_MINUTES_MIN || n > IN_MINUTES_MAX) {
        return fail(
          'in_minutes_out_of_range',
          'in_minutes',
          `in_minutes must be an integer from ${IN_MINUTES_MIN} to ${IN_MINUTES_MAX}.`,
        );
      }
      if (nonEmpty(input.localDate) || nonEmpty(input.localTime)) {
        return fail(
          'validation_error',
          'in_minutes',
          'Send either in_minutes or local_date and local_time, not both.',
          'invalid',
        );
      }
      const recurrence: Recurrence = { kind: 'in_minutes', timezone, at: now + n * 60_000 };
      return { ok: true, recurrence, first: nextOccurrenceAfter(recurrence, now) };
    }
    if (!nonEmpty(input.localTime))
      return fail(
        'validation_error',
        'local_time',
        'local_time is required (or send in_minutes).',
        'required',
      );
    if (parseTime(input.localTime) === null)
      return fail('invalid_time', 'local_time', 'local_time must be 24-hour HH:MM.');
    if (!nonEmpty(input.localDate))
      return fail(
        'local_date_required',
        'local_date',
        'A one-off at a wall time needs local_date as well as local_time (or send in_minutes).',
      );
    const day = parseDate(input.localDate);
    if (day === null)
      return fail(
        'validation_error',
        'local_date',
        'local_date must be a real date YYYY-MM-DD.',
        'format',
      );
    if (day > furthest)
      return fail(
        'date_too_far',
        'local_date',
        `local_date may be at most ${MAX_DAYS_AHEAD} days ahead (${formatDate(furthest)}).`,
      );
    const recurrence: Recurrence = {
      kind: 'one_off',
      timezone,
      localDate: input.localDate,
      localTime: input.localTime,
    };
    const first = nextOccurrenceAfter(recurrence, now);
    if (first === null)
      return fail(
        'time_in_past',
        'local_time',
        'The requested wall time already passed in that zone.',
      );
    return { ok: true, recurrence, first };
  }

  const days = input.daysOfWeek ?? [];
  if (days.length === 0)
    return fail(
      'days_of_week_empty',
      'days_of_week',
      'A recurring call needs at least one day, mon to sun.',
    );
  for (let i = 0; i < days.length; i++) {
    if (!(WEEKDAYS as readonly string[]).includes(days[i]!))
      return fail(
        'validation_error',
        `days_of_week.${i}`,
        'Days are mon, tue, wed, thu, fri, sat, sun.',
        'enum',
      );
  }
  const daysOfWeek: Weekday[] = WEEKDAYS.filter((d) => days.includes(d));
  if (!nonEmpty(input.localTime))
    return fail('validation_error', 'local_time', 'local_time is required.', 'required');
  if (parseTime(input.localTime) === null)
    return fail('invalid_time', 'local_time', 'local_time must be 24-hour HH:MM.');

  let startDay = today;
  if (nonEmpty(input.startDate)) {
    const d = parseDate(input.startDate);
    if (d === null)
      return fail(
        'validation_error',
        'start_date',
        'start_date must be a real date YYYY-MM-DD.',
        'format',
      );
    if (d > furthest)
      return fail(
        'date_too_far',
        'start_date',
        `start_date may be at most ${MAX_DAYS_AHEAD} days ahead (${formatDate(furthest)}).`,
      );
    startDay = d;
  }
  let endDate: string | null = null;
  if (nonEmpty(input.endDate)) {
    const d = parseDate(input.endDate);
    if (d === null)
      return fail(
        'validation_error',
        'end_date',
        'end_date must be a real date YYYY-MM-DD.',
        'format',
      );
    if (d < startDay)
      return fail(
        'validation_error',
        'end_date',
        'end_date must not be before start_date.',
        'invalid',
      );
    endDate = input.endDate;
  }
  let pausedUntil: string | null = null;
  if (nonEmpty(input.pausedUntil)) {
    const d = parseDate(input.pausedUntil);
    if (d === null)
      return fail(
        'validation_error',
        'paused_until',
        'paused_until must be a real date YYYY-MM-DD.',
        'format',
      );
    if (d > furthest)
      return fail(
        'date_too_far',
        'paused_until',
        `paused_until may be at most ${MAX_DAYS_AHEAD} days ahead (${formatDate(furthest)}).`,
      );
    pausedUntil = input.pausedUntil;
  }
  const skips = input.skipDates ?? [];
  if (skips.length > MAX_SKIP_DATES)
    return fail(
      'validation_error',
      'skip_dates',
      `skip_dates holds at most ${MAX_SKIP_DATES} dates.`,
      'max_items',
    );
  for (let i = 0; i < skips.length; i++) {
    if (parseDate(skips[i]!) === null)
      return fail(
        'validation_error',
        `skip_dates.${i}`,
        'Each skip date must be a real date YYYY-MM-DD.',
        'format',
      );
  }
  const recurrence = pruneSkipDates(
    {
      kind: 'weekly',
      timezone,
      localTime: input.localTime,
      daysOfWeek,
      startDate: formatDate(startDay),
      endDate,
      pausedUntil,
      skipDates: skips,
    },
    now,
  );
  return { ok: true, recurrence, first: nextOccurrenceAfter(recurrence, now) };
}

function nonEmpty(v: string | null | undefined): v is string {
  return v !== null && v !== undefined && v !== '';
}
