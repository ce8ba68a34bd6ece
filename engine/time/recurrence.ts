/**
 * Recurrence: when a schedule rings. A one-off at a wall time, a one-off in N minutes, or
 * weekly on chosen days between a start and an end date, honouring a pause and skipped
 * dates.
 *
 * Every occurrence is derived afresh from (its local date, the wall time, the zone) by
 * {@link resolveWallTime}'s policy; never by adding 24 hours to the previous one, and never
 * from a previous occurrence that was shifted by a gap. So 07:00 stays 07:00 across every
 * clock change, and 02:30 shifted to 03:00 on the spring-forward day is 02:30 again the
 * next day.
 *
 * Rules of the calendar (documented in the API schema):
 * - Dates are local dates in the schedule's zone. `start_date` and `end_date` are inclusive.
 * - `paused_until` is inclusive: no call on that date or before; calls resume the day after.
 * - `skip_dates` lists local dates with no call. Skip-next adds the local date of the
 *   occurrence it skips (the date the rule produced it for), keeps the list sorted and
 *   without duplicates, and drops dates already past in the zone.
 * - A local date the zone skips entirely (Pacific/Apia had no 2011-12-30) has no
 *   occurrence: a recurring call does not ring twice the next day.
 * - The next occurrence is always the first one strictly after a given instant.
 * - A schedule is completed when it has no next occurrence.
 * @module
 */
import type { EpochMs } from './epoch.js';
import { WEEKDAYS, formatDate, formatTime, parseDate, parseTime, weekdayIndex } from './civil.js';
import {
  localDateAt,
  localDayAt,
  localTimeAt,
  resolveDayMinute,
  type LocalTime,
} from './wall-time.js';
import type { Transition } from './zone-rules.js';
import { isZoneKnown } from './zone-policy.js';
import { EngineError } from '../runtime/errors.js';
import type {
  OneOffRecurrence,
  Recurrence,
  RecurrenceInput,
  WeeklyRecurrence,
  WeeklyRecurrenceInput,
} from './rule-types.js';

export type {
  InMinutesRecurrence,
  OneOffRecurrence,
  Recurrence,
  RecurrenceInput,
  WeeklyRecurrence,
  WeeklyRecurrenceInput,
} from './rule-types.js';

/** One computed occurrence of a {@link Recurrence}. */
export interface OccurrenceTime {
  /** The instant the phone rings (epoch ms). */
  at: EpochMs;
  /**
   * The local date the rule produced this occurrence for (`YYYY-MM-DD`). Equals
   * `local.date` except when a gap pushed the call past midnight. Skip-next records this.
   */
  date: string;
  /** The local reading of `at`, with the wall-time kind. */
  local: LocalTime;
  /** The wall time the rule asked for (its local date and `HH:MM`); null for a call in N minutes. */
  requested: { date: string; time: string } | null;
  /** The clock change that made the wall time ambiguous or nonexistent; null when it was normal. */
  transition: Transition | null;
  /** derivation_source: `one_off`, `in_minutes` or `weekly`. */
  source: Recurrence['kind'];
}

/**
 * The first occurrence strictly after `after`, or null when none remains (the schedule is
 * completed). Pure; `after` is usually the current instant.
 * @example nextOccurrenceAfter(weekly, clock.now())
 */
export function nextOccurrenceAfter(rule: RecurrenceInput, after: EpochMs): OccurrenceTime | null {
  checkArguments(rule, after, 'after');
  switch (rule.kind) {
    case 'in_minutes':
      return rule.at > after
        ? {
            at: rule.at,
            date: localTimeAt(rule.timezone, rule.at).date,
            local: localTimeAt(rule.timezone, rule.at),
            requested: null,
            transition: null,
            source: 'in_minutes',
          }
        : null;
    case 'one_off': {
      const day = parseDate(rule.localDate);
      const minute = parseTime(rule.localTime);
      if (day === null) throw invalid('localDate', 'must be a real date, YYYY-MM-DD');
      if (minute === null) throw invalid('localTime', 'must be a 24-hour time, HH:MM');
      const occ = occurrenceOn(rule.timezone, day, minute, rule.localTime, 'one_off');
      return occ.at > after ? occ : null;
    }
    case 'weekly':
      return new WeeklyCursor(rule).next(after);
  }
}

/**
 * The occurrence a wall-time rule (one-off or weekly) produces for local date `date`, resolved
 * with the zone rules in use now; null when the date is malformed or does not exist in the
 * zone. It does not check that the rule selects the date (the caller has one it produced).
 */
export function occurrenceOnDate(
  rule: OneOffRecurrence | WeeklyRecurrence,
  date: string,
): OccurrenceTime | null {
  const day = parseDate(date);
  const minute = parseTime(rule.localTime);
  if (day === null || minute === null) return null;
  const occ = occurrenceOn(rule.timezone, day, minute, rule.localTime, rule.kind);
  return occ.date === date ? occ : null;
}

/**
 * The call that follows an occurrence at `at`: the first one strictly after it on another
 * local date (a series rings at most once per local date, so moving a recurring call from
 * 07:00 to 08:30 while today's 07:00 call is still retrying does not ring again at 08:30
 * today), and none at or before `notBefore` (after downtime, calls more than the late grace
 * in the past are not rung). Pure.
 */
export function nextAfterOccurrence(
  rule: Recurrence,
  at: EpochMs,
  notBefore: EpochMs = -Infinity,
): OccurrenceTime | null {
  const day = localDateAt(rule.timezone, at);
  let next = nextOccurrenceAfter(rule, Math.max(at, notBefore));
  while (next !== null && next.date === day) next = nextOccurrenceAfter(rule, next.at);
  return next;
}

/**
 * The next `count` occurrences strictly after `after`, in order (fewer when the schedule
 * ends). Equal to `count` successive calls of {@link nextOccurrenceAfter}, each after the
 * previous occurrence.
 * @param count - 1..100.
 * @throws EngineError `invalid_argument` when count is outside 1..100 (field `count`) or
 *   `after` is not an instant; `invalid_rule` or `invalid_timezone` for a malformed rule.
 * @example
 * upcomingOccurrences(weekly, clock.now(), 5).map((o) => o.date); // the next five local dates
 */
export function upcomingOccurrences(
  rule: RecurrenceInput,
  after: EpochMs,
  count: number,
): OccurrenceTime[] {
  checkArguments(rule, after, 'after');
  if (!Number.isInteger(count) || count < 1 || count > 100)
    throw new EngineError('invalid_argument', 'count: must be an integer from 1 to 100', 'count');
  if (rule.kind !== 'weekly') {
    const one = nextOccurrenceAfter(rule, after);
    return one === null ? [] : [one];
  }
  const cursor = new WeeklyCursor(rule);
  const out: OccurrenceTime[] = [];
  let t = after;
  while (out.length < count) {
    const occ = cursor.next(t);
    if (occ === null) break;
    out.push(occ);
    t = occ.at;
  }
  return out;
}

/** Whether the schedule has no occurrence left after `after` (status `completed`). */
export function isRecurrenceComplete(rule: Recurrence, after: EpochMs): boolean {
  return nextOccurrenceAfter(rule, after) === null;
}

/**
 * Skip-next: the rule with the local date of its next occurrence after `now` added to
 * `skipDates` (sorted, no duplicates, dates before today in the zone dropped), and the
 * occurrence skipped. When nothing remains to skip, the rule comes back unchanged with
 * `skipped: null`.
 */
export function skipNextOccurrence(
  rule: WeeklyRecurrence,
  now: EpochMs,
): { rule: WeeklyRecurrence; skipped: OccurrenceTime | null } {
  const skipped = nextOccurrenceAfter(rule, now);
  if (skipped === null) return { rule, skipped: null };
  const pruned = pruneSkipDates({ ...rule, skipDates: [...rule.skipDates, skipped.date] }, now);
  return { rule: pruned, skipped };
}

/**
 * The rule with `skipDates` sorted, deduplicated and without dates before today's local
 * date in its zone (the stored list never grows with dates that cannot matter).
 */
export function pruneSkipDates(rule: WeeklyRecurrence, now: EpochMs): WeeklyRecurrence {
  const today = formatDate(localDayAt(rule.timezone, now));
  const skipDates = [...new Set(rule.skipDates)].filter((d) => d >= today).sort();
  return { ...rule, skipDates };
}

function occurrenceOn(
  zone: string,
  day: number,
  minute: number,
  time: string,
  source: Recurrence['kind'],
): OccurrenceTime {
  const r = resolveDayMinute(zone, day, minute);
  const local = localTimeAt(zone, r.at, r.kind);
  const date = formatDate(day);
  return { at: r.at, date, local, requested: { date, time }, transition: r.transition, source };
}

/** A weekly rule parsed once into numbers, for repeated `next` calls. */
class WeeklyCursor {
  private readonly zone: string;
  private readonly minute: number;
  private readonly time: string;
  private readonly days: boolean[];
  private readonly first: number;
  private readonly last: number;
  private readonly skip: Set<number>;

  constructor(rule: WeeklyRecurrenceInput) {
    const minute = parseTime(rule.localTime);
    if (minute === null) throw invalid('localTime', 'must be a 24-hour time, HH:MM');
    this.zone = rule.timezone;
    this.minute = minute;
    this.time = formatTime(minute);
    if (!Array.isArray(rule.daysOfWeek)) throw invalid('daysOfWeek', 'must be an array of days');
    this.days = WEEKDAYS.map((d) => rule.daysOfWeek.includes(d));
    const start = dateOr(rule.startDate, -Infinity, 'startDate');
    const pausedThrough = dateOr(rule.pausedUntil, -Infinity, 'pausedUntil');
    this.first = Math.max(start, pausedThrough + 1);
    this.last = dateOr(rule.endDate, Infinity, 'endDate');
    const skips: unknown = rule.skipDates ?? [];
    if (!Array.isArray(skips)) throw invalid('skipDates', 'must be an array of YYYY-MM-DD dates');
    this.skip = new Set((skips as unknown[]).map((d, i) => dateOr(d, NaN, `skipDates.${i}`)));
  }

  next(after: EpochMs): OccurrenceTime | null {
    if (!this.days.includes(true)) return null;
    // The occurrence of the day before `after`'s local date can still lie after `after`
    // when a gap pushed it past midnight; start there.
    let day = Math.max(localDayAt(this.zone, after) - 1, this.first);
    // Every 7 days hold a chosen weekday; only skipped and nonexistent dates can add more.
    const limit = day + 7 * (this.skip.size + 8);
    for (; day <= this.last && day <= limit; day++) {
      if (!this.days[weekdayIndex(day)] || this.skip.has(day)) continue;
      const r = resolveDayMinute(this.zone, day, this.minute);
      if (r.at <= after) continue;
      if (
        r.kind === 'nonexistent_shifted' &&
        localDayAt(this.zone, r.at) !== day &&
        !dayExists(this.zone, day)
      )
        continue;
      const local = localTimeAt(this.zone, r.at, r.kind);
      const date = formatDate(day);
      const requested = { date, time: this.time };
      return { at: r.at, date, local, requested, transition: r.transition, source: 'weekly' };
    }
    return null;
  }
}

/** Whether any instant has local date `day` in the zone (false for Apia's 2011-12-30). */
function dayExists(zone: string, day: number): boolean {
  return localDayAt(zone, resolveDayMinute(zone, day, 0).at) === day;
}

/** The day number of an optional date field, `absent` when it is null or left out. */
function dateOr(text: unknown, absent: number, field: string): number {
  if (text === null || text === undefined) return absent;
  const d = typeof text === 'string' ? parseDate(text) : null;
  if (d === null) throw invalid(field, 'must be a real date, YYYY-MM-DD');
  return d;
}

function invalid(field: string, message: string): EngineError {
  return new EngineError('invalid_rule', `${field}: ${message}`, field);
}

/** What every public function checks first: a known zone, a known kind, an instant. */
function checkArguments(rule: RecurrenceInput, at: EpochMs, name: string): void {
  if (typeof at !== 'number' || !Number.isFinite(at))
    throw new EngineError('invalid_argument', `${name}: must be an instant (epoch ms)`, name);
  if (typeof rule !== 'object' || rule === null) throw invalid('rule', 'must be a rule object');
  if (!isZoneKnown(rule.timezone))
    throw new EngineError(
      'invalid_timezone',
      `timezone: ${JSON.stringify(rule.timezone)} is not an IANA zone known to this runtime`,
      'timezone',
    );
  if (rule.kind !== 'weekly' && rule.kind !== 'one_off' && rule.kind !== 'in_minutes')
    throw invalid('kind', "must be 'one_off', 'in_minutes' or 'weekly'");
}
