/**
 * Occurrences and attempts at the HTTP edge: AttemptOut, OccurrenceOut and
 * OccurrenceDetailOut from the engine's records (instants as ISO strings ending in Z).
 * @module
 */
import type { AttemptRecord, EpochMs } from '../../engine/index.js';
import { isLiveAttempt, isTerminalAttempt } from '../../engine/internals.js';
import type { OccurrenceView } from '../db/calls.js';
import type { ToldContact } from '../db/contacts.js';
import { toContactRef } from '../contacts/present.js';
import type { AttemptOut, OccurrenceDetailOut, OccurrenceOut } from '../generated/openapi.js';
import { isoInstant, isoInstantOrNull } from '../instant.js';
import { maskE164, toPhoneRef } from '../phone/index.js';
import { presentOccurrenceRecordTime } from '../schedules/index.js';

/** Label shown for an occurrence stored without one (the schedules' default label). */
export const DEFAULT_LABEL = 'Wake-up call';

/** Schema AttemptOut. `error_code` is '' when there was no error. */
export function attemptOut(a: AttemptRecord): AttemptOut {
  return {
    id: a.id,
    occurrence_id: a.occurrenceId,
    kind: a.kind,
    n: a.n,
    status: a.status,
    live: isLiveAttempt(a.status),
    to_masked: maskE164(a.to),
    due_at: isoInstant(a.dueAt),
    created_at: isoInstant(a.createdAt),
    requested_at: isoInstantOrNull(a.requestedAt),
    ringing_at: isoInstantOrNull(a.ringingAt),
    answered_at: isoInstantOrNull(a.answeredAt),
    ended_at: isoInstantOrNull(endedAt(a)),
    answered_by: a.answeredBy,
    digits: a.digits,
    duration_seconds: a.durationSeconds,
    error_code: a.errorCode ?? '',
  };
}

/**
 * When the attempt ended: the provider's `call.ended` instant; for a final attempt the
 * provider never reported ending (it refused the call, or the watchdog gave up on it after a
 * crash), the instant the service recorded its final status (`updatedAt`, which no later
 * event changes for those).
 */
function endedAt(a: AttemptRecord): EpochMs | null {
  if (a.endedAt !== null) return a.endedAt;
  return isTerminalAttempt(a.status) ? a.updatedAt : null;
}

/** What an occurrence's API form needs besides the occurrence. */
export interface OccurrenceContext {
  /** The account's home zone (for in_home_timezone), or null. */
  homeTimezone: string | null;
  now: EpochMs;
}

/** Schema OccurrenceOut. */
export function occurrenceOut(v: OccurrenceView, ctx: OccurrenceContext): OccurrenceOut {
  const o = v.record;
  const time = presentOccurrenceRecordTime(o, {
    wallTime: v.wallTime,
    homeTimezone: ctx.homeTimezone,
    now: ctx.now,
  });
  return {
    id: o.id,
    // Every occurrence the API creates belongs to a schedule; an engine embedder's may not.
    schedule_id: o.scheduleId ?? '',
    label: o.label ?? DEFAULT_LABEL,
    status: o.status,
    derivation_source: o.derivationSource,
    outcome_reason: o.outcomeReason,
    ...time,
    phone_number: v.phone === null ? null : toPhoneRef(v.phone),
    attempt_count: o.attemptCount,
    snooze_count: o.snoozeCount,
    dispatched_at: isoInstantOrNull(o.dispatchedAt),
    confirmed_at: isoInstantOrNull(o.confirmedAt),
    finished_at: isoInstantOrNull(o.finishedAt),
    reached_voicemail: o.reachedVoicemail,
  };
}

/** Schema OccurrenceDetailOut: the occurrence with its attempts, oldest first, and the contacts told of it. */
export function occurrenceDetailOut(
  v: OccurrenceView,
  attempts: AttemptRecord[],
  told: readonly ToldContact[],
  ctx: OccurrenceContext,
): OccurrenceDetailOut {
  return {
    ...occurrenceOut(v, ctx),
    attempts: attempts.map(attemptOut),
    told_contacts: told.map((t) => ({
      contact: toContactRef(t.contact, ctx.now),
      status: t.status,
      reason: t.reason,
      sent_at: isoInstantOrNull(t.sentAt),
    })),
  };
}
