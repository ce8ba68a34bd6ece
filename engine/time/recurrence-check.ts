/**
 * Checking a rule an embedder wrote: {@link compileRecurrence} turns a {@link RecurrenceInput}
 * (a {@link Recurrence} whose optional fields may be left out) into a complete rule, or throws
 * an `EngineError` whose `field` names the offending input field in camelCase. Pure: the
 * reference instant is an argument.
 * @module
 */
import type { EpochMs } from './epoch.js';
import { EngineError } from '../runtime/errors.js';
import { WEEKDAYS, formatDate, parseDate, parseTime } from './civil.js';
import {
  pruneSkipDates,
  type Recurrence,
  type RecurrenceInput,
  type WeeklyRecurrence,
  type WeeklyRecurrenceInput,
} from './recurrence.js';
import { localDayAt } from './wall-time.js';
import { checkTimeZone } from './zone-policy.js';

/** The code of every rule refused for its shape (a zone has its own codes). */
const INVALID = 'invalid_rule';

function refuse(field: string, message: string, code = INVALID): never {
  throw new EngineError(code, `${field}: ${message}`, field);
}

/**
 * Checks a rule and fills in its defaults: `startDate` today's local date in the rule's zone at
 * `now` (for a weekly rule), `endDate` and `pausedUntil` null, `skipDates` [] (sorted, without
 * duplicates and without dates before today). The zone comes back in its canonical spelling.
 *
 * @param now - the reference instant (epoch ms), usually `clock.now()`.
 * @param path - prefix of the `field` of an error (`rule.` when the rule is a field of an input).
 * @throws EngineError `invalid_rule` (a field missing or malformed: `field` names it, e.g.
 *   `daysOfWeek.1`, `skipDates`), `invalid_timezone` or `timezone_not_allowed` (field
 *   `timezone`), `invalid_argument` (field `now`).
 * @example
 * const rule = compileRecurrence({ kind: 'weekly', timezone: 'Europe/Paris', localTime: '06:30', daysOfWeek: ['mon'] }, clock.now());
 * rule.startDate; // today in Paris
 */
export function compileRecurrence(input: RecurrenceInput, now: EpochMs, path = ''): Recurrence {
  if (typeof now !== 'number' || !Number.isFinite(now))
    throw new EngineError('invalid_argument', 'now: must be an instant (epoch ms)', 'now');
  if (typeof input !== 'object' || input === null)
    refuse(path.replace(/\.$/, '') || 'rule', 'must be a rule object');
  const timezone = checkZone(input.timezone, path);
  switch (input.kind) {
    case 'in_minutes':
      if (typeof input.at !== 'number' || !Number.isFinite(input.at))
        refuse(`${path}at`, 'must be an instant (epoch ms)');
      return { kind: 'in_minutes', timezone, at: input.at };
    case 'one_off':
      return {
        kind: 'one_off',
        timezone,
        localDate: date(input.localDate, `${path}localDate`),
        localTime: time(input.localTime, `${path}localTime`),
      };
    case 'weekly':
      return compileWeekly(input, timezone, now, path);
    default:
      return refuse(`${path}kind`, "must be 'one_off', 'in_minutes' or 'weekly'");
  }
}

function compileWeekly(
  input: WeeklyRecurrenceInput,
  timezone: string,
  now: EpochMs,
  path: string,
): WeeklyRecurrence {
  const days = input.daysOfWeek as unknown;
  if (!Array.isArray(days) || days.length === 0)
    refuse(`${path}daysOfWeek`, 'needs at least one day, mon to sun');
  days.forEach((d: unknown, i) => {
    if (!(WEEKDAYS as readonly unknown[]).includes(d))
      refuse(`${path}daysOfWeek.${i}`, 'days are mon, tue, wed, thu, fri, sat, sun');
  });
  const given = optionalDate(input.startDate, `${path}startDate`);
  const startDate = given ?? formatDate(localDayAt(timezone, now));
  const endDate = optionalDate(input.endDate, `${path}endDate`);
  // Only against a start date given: a series that ended before today keeps its end date.
  if (given !== null && endDate !== null && endDate < given)
    refuse(`${path}endDate`, 'must not be before startDate');
  const skips = (input.skipDates ?? []) as unknown;
  if (!Array.isArray(skips)) refuse(`${path}skipDates`, 'must be an array of YYYY-MM-DD dates');
  const rule: WeeklyRecurrence = {
    kind: 'weekly',
    timezone,
    localTime: time(input.localTime, `${path}localTime`),
    daysOfWeek: WEEKDAYS.filter((d) => (days as unknown[]).includes(d)),
    startDate,
    endDate,
    pausedUntil: optionalDate(input.pausedUntil, `${path}pausedUntil`),
    skipDates: skips.map((d: unknown, i) => date(d, `${path}skipDates.${i}`)),
  };
  return pruneSkipDates(rule, now);
}

function checkZone(zone: unknown, path: string): string {
  const check = checkTimeZone(zone as string);
  if (check.ok) return check.timezone;
  return refuse(
    `${path}timezone`,
    check.code === 'timezone_not_allowed'
      ? 'a fixed offset rather than a place; pick a city zone or UTC'
      : `${JSON.stringify(zone)} is not an IANA zone known to this runtime`,
    check.code,
  );
}

function date(value: unknown, field: string): string {
  if (typeof value !== 'string' || parseDate(value) === null)
    refuse(field, 'must be a real date, YYYY-MM-DD');
  return value;
}

function optionalDate(value: unknown, field: string): string | null {
  return value === undefined || value === null ? null : date(value, field);
}

function time(value: unknown, field: string): string {
  if (typeof value !== 'string' || parseTime(value) === null)
    refuse(field, 'must be a 24-hour time, HH:MM');
  return value;
}
