/**
 * A stored schedule's rule as the engine's {@link Recurrence}, and the occurrence fields it
 * implies (what `runtime.schedule` stores and `runtime.amend` updates). Pure.
 * @module
 */
import {
  DEFAULT_RETRY_POLICY,
  nextOccurrenceAfter,
  type EpochMs,
  type NewOccurrence,
  type OccurrenceRecord,
  type OccurrenceTime,
  type Recurrence,
  type RetryPolicy,
  type Weekday,
} from '../../engine/index.js';
import {
  UNFINISHED_OCCURRENCE_STATUSES,
  IN_PROGRESS_OCCURRENCE_STATUSES,
  nextAfterOccurrence as engineNextAfter,
} from '../../engine/internals.js';
import type { Account, StoredRetryPolicy } from '../db/accounts.js';
import type { PhoneNumber } from '../db/phone-numbers.js';
import type { ScheduleWrite } from './records.js';

/** Occurrence statuses that are not finished (derived from the engine's machine). */
export const UNFINISHED: ReadonlySet<OccurrenceRecord['status']> = UNFINISHED_OCCURRENCE_STATUSES;
/** Statuses in which a call is being placed or rings: edits answer 409 occurrence_in_progress (the machine's `inProgress` tag). */
export const IN_PROGRESS: ReadonlySet<OccurrenceRecord['status']> = IN_PROGRESS_OCCURRENCE_STATUSES;

/** The rule of a stored (or planned) schedule. */
export function ruleOf(
  s: Pick<
    ScheduleWrite,
    | 'mode'
    | 'timezone'
    | 'localDate'
    | 'localTime'
    | 'fixedAt'
    | 'daysOfWeek'
    | 'startDate'
    | 'endDate'
    | 'pausedUntil'
    | 'skipDates'
  >,
): Recurrence {
  switch (s.mode) {
    case 'in_minutes':
      return { kind: 'in_minutes', timezone: s.timezone, at: s.fixedAt ?? 0 };
    case 'one_off':
      return {
        kind: 'one_off',
        timezone: s.timezone,
        localDate: s.localDate ?? '1970-01-01',
        localTime: s.localTime,
      };
    case 'weekly':
      return {
        kind: 'weekly',
        timezone: s.timezone,
        localTime: s.localTime,
        daysOfWeek: s.daysOfWeek as Weekday[],
        startDate: s.startDate,
        endDate: s.endDate,
        pausedUntil: s.pausedUntil,
        skipDates: s.skipDates,
      };
  }
}

/** The first occurrence of the schedule's rule strictly after `after`, or null. */
export function nextOf(s: ScheduleWrite, after: EpochMs): OccurrenceTime | null {
  return nextOccurrenceAfter(ruleOf(s), after);
}

/**
 * The call that follows an occurrence at `at` (the engine's rule: the first one strictly
 * after it on another local date; the engine makes that occurrence itself when one finishes).
 */
export function nextAfterOccurrence(
  s: ScheduleWrite,
  at: EpochMs,
  notBefore: EpochMs = -Infinity,
): OccurrenceTime | null {
  return engineNextAfter(ruleOf(s), at, notBefore);
}

/** The retry policy in effect: the schedule's own, else the account's default, else the built-in one. */
export function policyInEffect(
  s: Pick<ScheduleWrite, 'retryPolicy'>,
  account: Account,
): StoredRetryPolicy {
  const p = s.retryPolicy ?? account.defaultRetryPolicy;
  if (p) return p;
  const d = DEFAULT_RETRY_POLICY;
  return {
    max_snoozes: d.maxSnoozes,
    offsets_minutes: [...d.offsetsMinutes],
    ring_timeout_seconds: d.ringTimeoutSeconds,
    snooze_minutes: d.snoozeMinutes,
  };
}

/** The retry policy in effect, as the engine spells it. */
export function occurrencePolicy(
  s: Pick<ScheduleWrite, 'retryPolicy'>,
  account: Account,
): RetryPolicy {
  return enginePolicy(policyInEffect(s, account));
}

function enginePolicy(p: StoredRetryPolicy): RetryPolicy {
  return {
    maxSnoozes: p.max_snoozes,
    offsetsMinutes: [...p.offsets_minutes],
    ringTimeoutSeconds: p.ring_timeout_seconds,
    snoozeMinutes: p.snooze_minutes,
  };
}

/**
 * Everything an occurrence copies from its schedule, account and number (the runtime never
 * reads the host's tables at dispatch). Used for `runtime.schedule` and, without `id` and
 * `scheduleId`, for `runtime.amend`.
 */
export function occurrenceFields(
  s: ScheduleWrite,
  account: Account,
  phone: PhoneNumber,
  at: OccurrenceTime,
): Required<
  Pick<
    NewOccurrence,
    | 'scheduledAt'
    | 'derivationSource'
    | 'to'
    | 'phoneNumberId'
    | 'label'
    | 'message'
    | 'greetingName'
    | 'voice'
    | 'timezone'
    | 'policy'
    | 'smsFallback'
    | 'backupAlarm'
  >
> {
  return {
    scheduledAt: at.at,
    derivationSource: at.source,
    to: phone.e164,
    phoneNumberId: phone.id,
    label: s.label,
    message: s.message,
    greetingName: s.greetingName ?? account.greetingName,
    voice: account.voice,
    timezone: s.timezone,
    policy: enginePolicy(policyInEffect(s, account)),
    smsFallback: s.smsFallback,
    backupAlarm: s.backupAlarm,
  };
}
