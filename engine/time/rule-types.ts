/**
 * The rules (when a schedule rings), in one vocabulary: `one_off`, `in_minutes` and `weekly`,
 * the kinds a record's `derivationSource` names too. A {@link Recurrence} is complete, as a
 * series stores it; a {@link RecurrenceInput} is what an embedder writes, a weekly rule's
 * optional fields left to their defaults. Types only: the functions are in recurrence.ts.
 * @module
 */
import type { EpochMs } from './epoch.js';
import type { Weekday } from './civil.js';

/** A one-off call at a wall time (derivation_source `one_off`). */
export interface OneOffRecurrence {
  /** Always `one_off`. */
  kind: 'one_off';
  /** IANA zone of the date and the wall time. */
  timezone: string;
  /** `YYYY-MM-DD`. */
  localDate: string;
  /** `HH:MM`. */
  localTime: string;
}

/** A one-off call N minutes after it was made (derivation_source `in_minutes`): a fixed instant. */
export interface InMinutesRecurrence {
  /** Always `in_minutes`. */
  kind: 'in_minutes';
  /** IANA zone the call's local date and time are shown in (the instant does not depend on it). */
  timezone: string;
  /** The instant it rings: creation instant + N minutes. */
  at: EpochMs;
}

/**
 * A recurring call on days of the week (derivation_source `weekly`), every field given: what a
 * series stores. `compileRecurrence` makes one from a {@link WeeklyRecurrenceInput}, whose
 * optional fields may be left out (`weekly(...)` writes one).
 *
 * @example
 * const rule: WeeklyRecurrence = {
 *   kind: 'weekly', timezone: 'Europe/Paris', localTime: '06:30', daysOfWeek: ['mon', 'fri'],
 *   startDate: '2027-03-01', endDate: null, pausedUntil: null, skipDates: [],
 * };
 */
export interface WeeklyRecurrence {
  /** Always `weekly`. */
  kind: 'weekly';
  /** IANA zone of the dates and the wall time. */
  timezone: string;
  /** `HH:MM`, the wall time every occurrence is derived from. */
  localTime: string;
  /** At least one of mon..sun. */
  daysOfWeek: readonly Weekday[];
  /** First local date that may ring (inclusive), or null for no lower bound. */
  startDate: string | null;
  /** Last local date that may ring (inclusive), or null for no end. */
  endDate: string | null;
  /** No call on this local date or before; null when not paused. */
  pausedUntil: string | null;
  /** Local dates with no call, sorted. */
  skipDates: readonly string[];
}

/** When a schedule rings: one of the three creation modes. */
export type Recurrence = OneOffRecurrence | InMinutesRecurrence | WeeklyRecurrence;

/**
 * A weekly rule as an embedder writes it: `compileRecurrence` (and `Runtime.saveSeries`, which
 * compiles the rule it is given) fills in the optional fields. The time functions read a field
 * left out as its default too, except `startDate`, which there means no lower bound.
 */
export interface WeeklyRecurrenceInput {
  /** Always `weekly`. */
  kind: 'weekly';
  /** IANA zone of the dates and the wall time. */
  timezone: string;
  /** `HH:MM` (24-hour), the wall time every occurrence is derived from. */
  localTime: string;
  /** At least one of mon..sun. */
  daysOfWeek: readonly Weekday[];
  /** First local date that may ring (inclusive). @defaultValue today's local date in the zone, when compiled */
  startDate?: string | null;
  /** Last local date that may ring (inclusive), or null for no end. @defaultValue null */
  endDate?: string | null;
  /** No call on this local date or before; null when not paused. @defaultValue null */
  pausedUntil?: string | null;
  /** Local dates with no call; kept sorted, without duplicates or dates already past. @defaultValue [] */
  skipDates?: readonly string[];
}

/** A rule as an embedder writes it: a one-off, a one-off at an instant, or a weekly rule whose optional fields may be left out. */
export type RecurrenceInput = OneOffRecurrence | InMinutesRecurrence | WeeklyRecurrenceInput;
