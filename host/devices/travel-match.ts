/**
 * Travel matching: calls in the next 36 hours whose clock differs from the clock of the device the
 * person carries, and for each a suggestion to ring at the same wall time on the device's
 * clock instead (contract §4: `suggested.timezone` is the device's zone and
 * `suggested.local_time` the schedule's wall time).
 *
 * The local_date rule: `suggested.local_date` is the occurrence's own local date (the day
 * the person meant, e.g. "Tuesday's 07:00"), unless that wall time on that date in the
 * device's zone has already passed at the reference instant; then the first later date on
 * which it has not. A person who flew east and whose Tuesday morning is already over gets
 * Wednesday 07:00, never a time in the past.
 *
 * "Differs" compares the UTC offsets of the two zones at the occurrence's instant, so
 * Europe/Paris and Europe/Berlin never mismatch. A call made "in N minutes" has no wall
 * time to carry over: it is listed with `suggested: null`.
 * @module
 */
import {
  checkTimeZone,
  resolveWallTime,
  type EpochMs,
  type WallTimeKind,
} from '../../engine/index.js';
import {
  formatDate,
  localDateAt,
  localTimeAt,
  parseDate,
  parseTime,
} from '../../engine/internals.js';

/** The timezone-context window: 36 hours. */
export const TRAVEL_WINDOW_MS = 36 * 3_600_000;

/** A pending occurrence as the travel check needs it. */
export interface TravelOccurrence {
  occurrenceId: string;
  scheduleId: string;
  /** scheduled_at (epoch ms). */
  at: EpochMs;
  /** The occurrence's (schedule's) zone. */
  timezone: string;
  /** The schedule's wall time `HH:MM`; null for a call made "in N minutes". */
  localTime: string | null;
}

/** The suggested move (the spec's Suggestion). */
export interface TravelSuggestion {
  localDate: string;
  localTime: string;
  timezone: string;
  /** Where the moved call would ring (epoch ms). */
  scheduledAt: EpochMs;
  utcOffset: string;
  wallTimeKind: WallTimeKind;
}

/** One call whose clock differs from the device's (the spec's Mismatch). */
export interface TravelMismatch {
  occurrenceId: string;
  scheduleId: string;
  scheduledAt: EpochMs;
  /** `HH:MM` on the call's clock. */
  scheduledLocal: string;
  scheduledLocalDate: string;
  scheduledZone: string;
  scheduledUtcOffset: string;
  /** `HH:MM` on the device's clock at the same instant. */
  inDeviceZone: string;
  inDeviceZoneDate: string;
  deviceZone: string;
  deviceUtcOffset: string;
  suggested: TravelSuggestion | null;
}

/**
 * The suggestion for one occurrence, by the local_date rule of the module header, or null
 * when it has no wall time.
 */
export function suggestMove(
  occ: TravelOccurrence,
  deviceZone: string,
  now: EpochMs,
): TravelSuggestion | null {
  if (occ.localTime === null || parseTime(occ.localTime) === null) return null;
  const day = parseDate(localDateAt(occ.timezone, occ.at))!;
  for (let i = 0; i < 4; i++) {
    const r = resolveWallTime(deviceZone, formatDate(day + i), occ.localTime);
    if (r.at > now) {
      return {
        localDate: r.requested.date,
        localTime: occ.localTime,
        timezone: deviceZone,
        scheduledAt: r.at,
        utcOffset: r.local.utcOffset,
        wallTimeKind: r.local.wallTimeKind,
      };
    }
  }
  return null;
}

/**
 * The mismatches between a device's zone and the occurrences ringing from `now` to
 * `now + 36 h` (inclusive), in the order given.
 *
 * @param deviceZone - the zone the device reported; passed through `checkTimeZone`.
 * @param occurrences - pending occurrences (others in the list are filtered by the window).
 * @param now - the reference instant (epoch ms).
 * @throws RangeError when `deviceZone` is refused by the zone policy.
 */
export function findTravelMismatches(
  deviceZone: string,
  occurrences: readonly TravelOccurrence[],
  now: EpochMs,
): TravelMismatch[] {
  const check = checkTimeZone(deviceZone);
  if (!check.ok) throw new RangeError(`findTravelMismatches: ${check.code}: ${deviceZone}`);
  const device = check.timezone;
  const out: TravelMismatch[] = [];
  for (const occ of occurrences) {
    if (occ.at < now || occ.at > now + TRAVEL_WINDOW_MS) continue;
    const scheduled = localTimeAt(occ.timezone, occ.at);
    const there = localTimeAt(device, occ.at);
    if (scheduled.utcOffset === there.utcOffset) continue;
    out.push({
      occurrenceId: occ.occurrenceId,
      scheduleId: occ.scheduleId,
      scheduledAt: occ.at,
      scheduledLocal: scheduled.time,
      scheduledLocalDate: scheduled.date,
      scheduledZone: occ.timezone,
      scheduledUtcOffset: scheduled.utcOffset,
      inDeviceZone: there.time,
      inDeviceZoneDate: there.date,
      deviceZone: device,
      deviceUtcOffset: there.utcOffset,
      suggested: suggestMove(occ, device, now),
    });
  }
  return out;
}
