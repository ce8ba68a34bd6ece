/**
 * Time zones, wall times and recurrence: the zone policy, wall-time resolution across clock
 * changes, recurrence rules, zone information and search, and travel mismatches. Every
 * function is pure; the reference instant is always an argument, as epoch milliseconds.
 * @module
 */
export { checkTimeZone, listAcceptedZones, CLDR_SPELLINGS } from './zone-policy.js';
export type { TimeZoneCheck } from './zone-policy.js';
