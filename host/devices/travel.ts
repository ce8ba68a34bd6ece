/**
 * The travel context of an account: the pending calls ringing in the next 36 hours, checked
 * against a device's zone by the engine's `findTravelMismatches`, presented as the spec's
 * TimezoneContext, plus the traveller's notice (beyond the spec): every call of the window
 * whose wall time falls in a clock change of its own zone (`clock_changes`), and on each
 * mismatch and suggestion the clock-change sentence (`notice`). Read-only.
 * @module
 */
import type { Db } from '../db/sql.js';
import { resolveWallTime, type EpochMs } from '../../engine/index.js';
import {
  TRAVEL_WINDOW_MS,
  findTravelMismatches,
  type TravelMismatch,
  type TravelOccurrence,
} from './travel-match.js';
import { clockChangeNotice } from '../reference/clock-change.js';
import { listOccurrenceViews, type OccurrenceView } from '../db/calls.js';
import type { Device } from '../db/devices.js';
import type { Mismatch, TimezoneContext } from '../generated/openapi.js';
import { isoInstant, isoInstantOrNull } from '../instant.js';
import { presentOccurrenceRecordTime } from '../schedules/index.js';

/** More pending calls than this in 36 hours is not a real account (20 calls a day cap); a bound, not a rule. */
const MAX_WINDOW_ROWS = 1000;

/** The account's pending calls ringing from `now` to `now + 36 h` (inclusive), soonest first. */
export async function pendingInWindow(
  db: Db,
  accountId: string,
  now: EpochMs,
): Promise<OccurrenceView[]> {
  return (
    await listOccurrenceViews(db, accountId, {
      status: 'pending',
      from: now,
      to: now + TRAVEL_WINDOW_MS + 1,
      after: null,
      limit: MAX_WINDOW_ROWS,
    })
  ).filter((v) => v.record.scheduleId !== null);
}

function travelOccurrence(v: OccurrenceView): TravelOccurrence {
  return {
    occurrenceId: v.record.id,
    scheduleId: v.record.scheduleId!,
    at: v.record.scheduledAt,
    timezone: v.record.timezone ?? 'UTC',
    localTime: v.record.derivationSource === 'in_minutes' ? null : v.wallTime,
  };
}

/** The mismatches of the window against `deviceZone` (engine semantics), in window order. */
export function mismatchesFor(
  views: readonly OccurrenceView[],
  deviceZone: string,
  now: EpochMs,
): TravelMismatch[] {
  return findTravelMismatches(deviceZone, views.map(travelOccurrence), now);
}

/** The clock-change sentence of a stored occurrence's own wall time, or null. */
function occurrenceNotice(
  v: OccurrenceView,
  now: EpochMs,
): { notice: string | null; kind: string } {
  const t = presentOccurrenceRecordTime(v.record, {
    wallTime: v.wallTime,
    homeTimezone: null,
    now,
  });
  return { notice: t.notice, kind: t.local.wall_time_kind };
}

function mismatchOut(m: TravelMismatch, view: OccurrenceView | undefined, now: EpochMs): Mismatch {
  const s = m.suggested;
  return {
    occurrence_id: m.occurrenceId,
    schedule_id: m.scheduleId,
    scheduled_at: isoInstant(m.scheduledAt),
    scheduled_local: m.scheduledLocal,
    scheduled_local_date: m.scheduledLocalDate,
    scheduled_zone: m.scheduledZone,
    scheduled_utc_offset: m.scheduledUtcOffset,
    in_device_zone: m.inDeviceZone,
    in_device_zone_date: m.inDeviceZoneDate,
    device_zone: m.deviceZone,
    device_utc_offset: m.deviceUtcOffset,
    suggested:
      s === null
        ? null
        : {
            local_date: s.localDate,
            local_time: s.localTime,
            timezone: s.timezone,
            scheduled_at: isoInstant(s.scheduledAt),
            utc_offset: s.utcOffset,
            wall_time_kind: s.wallTimeKind,
            notice: clockChangeNotice(resolveWallTime(s.timezone, s.localDate, s.localTime)),
          },
    notice: view ? occurrenceNotice(view, now).notice : null,
  };
}

/**
 * TimezoneContext of an account against `device` (null: no device reported a zone; then
 * every device field is null and there are no mismatches).
 */
export async function timezoneContext(
  db: Db,
  accountId: string,
  homeTimezone: string | null,
  device: Device | null,
  now: EpochMs,
): Promise<TimezoneContext> {
  const views = await pendingInWindow(db, accountId, now);
  const byId = new Map(views.map((v) => [v.record.id, v]));
  const zone = device?.timezone ?? null;
  const mismatches =
    zone === null
      ? []
      : mismatchesFor(views, zone, now).map((m) => mismatchOut(m, byId.get(m.occurrenceId), now));
  const clockChanges: TimezoneContext['clock_changes'] = [];
  for (const v of views) {
    const { notice, kind } = occurrenceNotice(v, now);
    if (notice === null || (kind !== 'ambiguous_first' && kind !== 'nonexistent_shifted')) continue;
    clockChanges.push({
      occurrence_id: v.record.id,
      schedule_id: v.record.scheduleId!,
      scheduled_at: isoInstant(v.record.scheduledAt),
      scheduled_zone: v.record.timezone ?? 'UTC',
      wall_time_kind: kind,
      notice,
    });
  }
  return {
    device_id: zone === null ? null : device!.id,
    device_timezone: zone,
    device_timezone_reported_at:
      zone === null ? null : isoInstantOrNull(device!.timezoneReportedAt),
    home_timezone: homeTimezone,
    mismatches,
    clock_changes: clockChanges,
  };
}
