/**
 * Schedules at the HTTP edge: ScheduleOut (with its next_occurrence), Upcoming items and
 * SchedulePreview. The time fields come from `occurrence-time.ts`, shared with OccurrenceOut.
 * @module
 */
import type { Db } from '../db/sql.js';
import {
  upcomingOccurrences,
  type EpochMs,
  type OccurrenceRecord,
  type OccurrenceTime,
} from '../../engine/index.js';
import { zoneDisplayName } from '../reference/zone-info.js';
import type { Account } from '../db/accounts.js';
import { getPhoneNumber, type PhoneNumber } from '../db/phone-numbers.js';
import type { Schedule, ScheduleWithNext, ScheduleWrite } from './records.js';
import type {
  NextOccurrence,
  PhoneRef,
  ScheduleOut,
  SchedulePreview,
  UpcomingItem,
} from '../generated/openapi.js';
import { isoInstant } from '../instant.js';
import { maskE164 } from '../phone/index.js';
import type { SchedulePlan } from './plan.js';
import { presentOccurrenceRecordTime, presentOccurrenceTime } from './occurrence-time.js';
import { policyInEffect, ruleOf } from './rule.js';
import { describeRepeat, previewSentence } from './sentence.js';
import { tellContactsOut } from '../contacts/schedule-rule.js';

/** PhoneRef of a number. */
export function phoneRef(n: PhoneNumber): PhoneRef {
  return { id: n.id, e164_masked: maskE164(n.e164), label: n.label };
}

/** ScheduleOut of a stored schedule (with its stored unfinished occurrence) at `now`. */
export async function scheduleOut(
  db: Db,
  { schedule: s, stored }: ScheduleWithNext,
  account: Account,
  now: EpochMs,
): Promise<ScheduleOut> {
  const phone =
    s.phoneNumberId === null ? undefined : await getPhoneNumber(db, s.accountId, s.phoneNumberId);
  return {
    id: s.id,
    kind: s.kind,
    label: s.label,
    message: s.message,
    greeting_name: s.greetingName,
    local_date: s.localDate,
    local_time: s.localTime,
    timezone: s.timezone,
    timezone_display: zoneDisplayName(s.timezone, now),
    created_in_timezone: s.createdInTimezone,
    days_of_week: s.daysOfWeek as ScheduleOut['days_of_week'],
    start_date: s.startDate,
    end_date: s.endDate,
    paused_until: s.pausedUntil,
    skip_dates: s.skipDates,
    enabled: s.enabled,
    status: s.status,
    backup_alarm: s.backupAlarm,
    sms_fallback: s.smsFallback,
    retry_policy: policyInEffect(s, account),
    phone_number: phone ? phoneRef(phone) : null,
    next_occurrence: stored ? nextOccurrenceOut(stored, s, account, now) : null,
    source: s.source,
    created_at: isoInstant(s.createdAt),
    updated_at: isoInstant(s.updatedAt),
    // Issue 31: the contacts to tell, stored beside the schedule (host/contacts/schedule-rule.ts).
    tell_contacts: await tellContactsOut(db, s.id, now),
  };
}

/** NextOccurrence of the stored unfinished occurrence. */
export function nextOccurrenceOut(
  o: OccurrenceRecord,
  s: Pick<Schedule, 'localTime'>,
  account: Account,
  now: EpochMs,
): NextOccurrence {
  return {
    id: o.id,
    status: o.status,
    ...presentOccurrenceRecordTime(o, {
      wallTime: s.localTime,
      homeTimezone: account.homeTimezone,
      now,
    }),
  };
}

/** An Upcoming item of a computed (unstored) occurrence; `id` when it is the stored one. */
export function upcomingItem(
  at: OccurrenceTime,
  s: Pick<ScheduleWrite, 'timezone' | 'localTime'>,
  account: Account,
  now: EpochMs,
  id: string | null,
): UpcomingItem {
  const t = presentOccurrenceTime({
    at: at.at,
    timezone: s.timezone,
    wallTime: at.source === 'in_minutes' ? null : s.localTime,
    homeTimezone: account.homeTimezone,
    now,
    backupAlarmAt: null,
  });
  const item: UpcomingItem = {
    occurrence_id: id,
    scheduled_at: t.scheduled_at,
    in_seconds: t.in_seconds,
    local: t.local,
    notice: t.notice,
  };
  if (t.in_home_timezone) item.in_home_timezone = t.in_home_timezone;
  return item;
}

/**
 * GET /schedules/{id}/upcoming: the stored next call first, then computed ones after it,
 * `count` in all. A disabled or completed schedule has none (nothing will ring).
 */
export function upcomingOut(
  { schedule: s, stored }: ScheduleWithNext,
  account: Account,
  now: EpochMs,
  count: number,
): UpcomingItem[] {
  const items: UpcomingItem[] = [];
  if (stored) {
    const t = presentOccurrenceRecordTime(stored, {
      wallTime: s.localTime,
      homeTimezone: account.homeTimezone,
      now,
    });
    const item: UpcomingItem = {
      occurrence_id: stored.id,
      scheduled_at: t.scheduled_at,
      in_seconds: t.in_seconds,
      local: t.local,
      notice: t.notice,
    };
    if (t.in_home_timezone) item.in_home_timezone = t.in_home_timezone;
    items.push(item);
  }
  if (s.status !== 'active' || !s.enabled || items.length >= count) return items;
  const after = stored ? stored.scheduledAt : now;
  for (const at of upcomingOccurrences(ruleOf(s), after, count - items.length))
    items.push(upcomingItem(at, s, account, now, null));
  return items;
}

/** SchedulePreview of a plan: the first call the saved schedule would ring, in words. */
export function previewOut(plan: SchedulePlan, now: EpochMs): SchedulePreview {
  const { after, account } = plan;
  // The pending call is amended in place, so it keeps its id; anything else is not stored yet.
  const id = plan.action.kind === 'amend' ? (plan.stored?.id ?? null) : null;
  const first = plan.first ? upcomingItem(plan.first, after, account, now, id) : null;
  const phone = plan.phone ? phoneRef(plan.phone) : null;
  return {
    first,
    notice: first?.notice ?? null,
    phone_number: phone,
    repeat: describeRepeat(after),
    sentence: previewSentence({
      schedule: after,
      first: plan.first,
      phone,
      now,
      timeFormat: account.timeFormat,
    }),
  };
}
