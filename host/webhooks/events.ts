/**
 * The events an engine commit reports, read from its change set alone (no database read, so
 * the commit that writes them stays one transaction of writes):
 *
 * - `occurrence.<status>` for every occurrence written in a final status (confirmed, missed,
 *   unconfirmed, failed, cancelled). A final status never changes again, so the key
 *   `occurrence:<id>:<status>` names one event: a later rewrite of the row (its fallback
 *   text's state) records nothing new.
 * - `schedule.completed` for a series written `completed` in the same commit as the final
 *   status of one of its occurrences (the rule had no call left after it, or a change ended
 *   it): keyed by that occurrence, so a schedule completed, turned on again and completed
 *   again reports each time, and an edit of a completed schedule reports nothing.
 * @module
 */
import type { OccurrenceRecord, SeriesRecord } from '../../engine/index.js';
import { isFinishedOccurrence, localTimeAt, type ChangeSet } from '../../engine/internals.js';
import type { NewWebhookEvent, WebhookEventType } from '../db/webhook-outbox.js';
import { isoInstant, isoInstantOrNull } from '../instant.js';

/** The label an occurrence stored without one shows (host/calls/present.ts's DEFAULT_LABEL). */
const DEFAULT_LABEL = 'Wake-up call';

/** Schema WebhookOccurrence: the occurrence as the event reports it. */
export function webhookOccurrence(o: OccurrenceRecord): Record<string, unknown> {
  const local = localTimeAt(o.timezone ?? 'UTC', o.scheduledAt);
  return {
    id: o.id,
    schedule_id: o.scheduleId,
    label: o.label ?? DEFAULT_LABEL,
    status: o.status,
    outcome_reason: o.outcomeReason,
    scheduled_at: isoInstant(o.scheduledAt),
    local: {
      date: local.date,
      time: local.time,
      timezone: local.timezone,
      utc_offset: local.utcOffset,
    },
    attempt_count: o.attemptCount,
    snooze_count: o.snoozeCount,
    // The engine's flag means "a person answered without confirming" (its unconfirmed-or-missed
    // rule); a receiver asks whether anyone answered, which a confirmation also says.
    reached_person: o.reachedPerson || o.status === 'confirmed',
    reached_voicemail: o.reachedVoicemail,
    confirmed_at: isoInstantOrNull(o.confirmedAt),
    finished_at: isoInstantOrNull(o.finishedAt),
  };
}

/** The event of an occurrence in a final status (null while it is not finished). */
export function occurrenceEvent(o: OccurrenceRecord): NewWebhookEvent | null {
  if (!isFinishedOccurrence(o.status)) return null;
  return {
    accountId: o.accountId,
    type: `occurrence.${o.status}` as WebhookEventType,
    key: `occurrence:${o.id}:${o.status}`,
    at: o.finishedAt ?? o.updatedAt,
    data: { occurrence: webhookOccurrence(o) },
  };
}

/** `schedule.completed` for a series completed with its occurrence `last`. */
export function scheduleCompletedEvent(s: SeriesRecord, last: OccurrenceRecord): NewWebhookEvent {
  return {
    accountId: s.accountId,
    type: 'schedule.completed',
    key: `schedule:${s.id}:completed:${last.id}`,
    at: s.updatedAt,
    data: {
      schedule: {
        id: s.id,
        label: s.label ?? DEFAULT_LABEL,
        status: s.status,
        completed_at: isoInstant(s.updatedAt),
      },
      last_occurrence: webhookOccurrence(last),
    },
  };
}

/** Every event a commit's change set reports (see the module header), occurrences first. */
export function changeSetEvents(changes: ChangeSet): NewWebhookEvent[] {
  const out: NewWebhookEvent[] = [];
  const finishedBySeries = new Map<string, OccurrenceRecord>();
  for (const { record } of changes.occurrences) {
    const e = occurrenceEvent(record);
    if (!e) continue;
    out.push(e);
    if (record.scheduleId !== null) finishedBySeries.set(record.scheduleId, record);
  }
  for (const { record } of changes.series) {
    const last = record.status === 'completed' ? finishedBySeries.get(record.id) : undefined;
    if (last) out.push(scheduleCompletedEvent(record, last));
  }
  return out;
}
