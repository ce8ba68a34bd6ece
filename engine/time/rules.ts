/**
 * Rule builders: the three kinds of {@link Recurrence} written in one call, with the optional
 * fields left to their defaults. They only assemble the object; `Runtime.saveSeries` (or
 * {@link compileRecurrence}) checks it and fills the defaults in.
 * @module
 */
import type { EpochMs } from './epoch.js';
import type { Weekday } from './civil.js';
import type { InMinutesRecurrence, OneOffRecurrence, WeeklyRecurrenceInput } from './recurrence.js';

/** What {@link weekly} takes: the rule's fields, `days` for `daysOfWeek`. */
export interface WeeklyOptions {
  /** IANA zone of the dates and the wall time. */
  timezone: string;
  /** `HH:MM` (24-hour). */
  localTime: string;
  /** At least one of mon..sun. */
  days: readonly Weekday[];
  /** First local date that may ring. @defaultValue today's local date in the zone when saved */
  startDate?: string | null;
  /** Last local date that may ring. @defaultValue null (no end) */
  endDate?: string | null;
  /** No call on this local date or before. @defaultValue null */
  pausedUntil?: string | null;
  /** Local dates with no call. @defaultValue [] */
  skipDates?: readonly string[];
}

/**
 * A weekly rule: every chosen day of the week at a wall time in a zone.
 *
 * @example
 * await runtime.saveSeries({ accountId, to, rule: weekly({ timezone: 'America/New_York', localTime: '07:00', days: ['mon', 'wed', 'fri'] }) });
 */
export function weekly(options: WeeklyOptions): WeeklyRecurrenceInput {
  const { days, ...rest } = options;
  return { kind: 'weekly', ...rest, daysOfWeek: days };
}

/**
 * A one-off call at a wall time on a local date in a zone.
 *
 * @example
 * once({ timezone: 'Europe/Paris', localDate: '2027-07-01', localTime: '06:30' });
 */
export function once(options: Omit<OneOffRecurrence, 'kind'>): OneOffRecurrence {
  return { kind: 'one_off', ...options };
}

/**
 * A one-off call `minutes` after `now`: a fixed instant, shown in `timezone`.
 *
 * @example
 * inMinutes({ timezone: 'UTC', minutes: 20, now: clock.now() });
 */
export function inMinutes(options: {
  timezone: string;
  minutes: number;
  now: EpochMs;
}): InMinutesRecurrence {
  return {
    kind: 'in_minutes',
    timezone: options.timezone,
    at: options.now + options.minutes * 60_000,
  };
}
