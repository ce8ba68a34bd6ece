/**
 * Time zones, wall times and recurrence: the zone policy, wall-time resolution across clock
 * changes, recurrence rules, zone information and search, and travel mismatches.
 *
 * Every function here is pure: the reference instant is always an argument, as epoch
 * milliseconds (`EpochMs`, the unit of the ports), and nothing reads the clock. Zone rules
 * come from the runtime's ICU data (`tzdataVersion()` names the release) and are cached per
 * zone, so repeated calls on the dispatch path cost little.
 * @module
 */
export { checkTimeZone, listAcceptedZones, CLDR_SPELLINGS } from './zone-policy.js';
export type { TimeZoneCheck } from './zone-policy.js';
export { WEEKDAYS } from './civil.js';
export type { Weekday } from './civil.js';
export { getZoneRules, ZoneRules, useZoneRulesSource, zoneRulesVersion } from './zone-rules.js';
export type { Transition, ZoneRulesSource } from './zone-rules.js';
export { resolveWallTime, localTimeAt, homeTimeAt, inHomeTimezone, localDateAt, clockChangeNotice, WALL_TIME_POLICY } from './wall-time.js';
export type { WallTimeKind, LocalTime, HomeTime, WallTimeResolution } from './wall-time.js';
export {
  nextOccurrenceAfter,
  nextAfterOccurrence,
  upcomingOccurrences,
  isRecurrenceComplete,
  skipNextOccurrence,
  pruneSkipDates,
} from './recurrence.js';
export type { Recurrence, OneOffRecurrence, InMinutesRecurrence, WeeklyRecurrence, OccurrenceTime } from './recurrence.js';
export { compileRecurrence, IN_MINUTES_MIN, IN_MINUTES_MAX, MAX_DAYS_AHEAD, MAX_SKIP_DATES } from './recurrence-input.js';
export type { RecurrenceInput, RecurrenceInputError, CompiledRecurrence } from './recurrence-input.js';
export { zoneInfo, tzdataVersion, zoneDisplayName, NEXT_TRANSITION_HORIZON_MS } from './zone-info.js';
export type { ZoneInfo, NextTransition } from './zone-info.js';
export { searchZones, SEARCH_LIMIT_MAX, POPULAR_ZONES } from './zone-search.js';
export type { ZoneMatch, ZoneMatchKind } from './zone-search.js';
export { findTravelMismatches, suggestMove, TRAVEL_WINDOW_MS } from './travel.js';
export type { TravelOccurrence, TravelMismatch, TravelSuggestion } from './travel.js';
export {
  localDateFrom,
  localTimeFrom,
  epochMsFrom,
  zonedDateTimeAt,
  resolveWallTimeTemporal,
  occurrenceTimeToTemporal,
} from './temporal.js';
export type {
  PlainDateLike,
  PlainTimeLike,
  InstantLike,
  ZonedDateTimeLike,
  TemporalNamespace,
  TemporalOptions,
  TemporalWallTime,
  TemporalOccurrenceTime,
} from './temporal.js';
