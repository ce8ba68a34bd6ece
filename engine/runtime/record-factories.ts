/**
 * The records a unit of work creates, each built in one place with every field set: an
 * attempt's intent (`requested`), a pending occurrence, the occurrence of a series at a given
 * time; and what an occurrence asks of the providers: its call script and its fallback text.
 * Pure functions of their arguments.
 * @module
 */
import type { EpochMs } from '../ports.js';
import type { AttemptRecord, CallScript, OccurrenceRecord, SeriesRecord } from '../model.js';
import type { Effect } from '../machines/effects.js';
import { localDateAt } from '../time/wall-time.js';
import { zoneRulesVersion } from '../time/zone-rules.js';
import { EngineError } from './errors.js';
import type { ResolvedRuntimeOptions } from './options.js';

/**
 * A new attempt row in status `requested` (its intent, stored before the provider is asked),
 * with the attempt id as idempotency key and every progress field still empty.
 */
export function requestedAttempt(
  a: Pick<
    AttemptRecord,
    | 'id'
    | 'occurrenceId'
    | 'accountId'
    | 'phoneNumberId'
    | 'kind'
    | 'n'
    | 'to'
    | 'dueAt'
    | 'ringTimeoutSeconds'
  > & {
    now: EpochMs;
  },
): AttemptRecord {
  // One literal (no rest/spread): a spike builds one per dispatch.
  const now = a.now;
  return {
    id: a.id,
    occurrenceId: a.occurrenceId,
    accountId: a.accountId,
    phoneNumberId: a.phoneNumberId,
    kind: a.kind,
    n: a.n,
    status: 'requested',
    to: a.to,
    dueAt: a.dueAt,
    createdAt: now,
    requestedAt: now,
    ringingAt: null,
    answeredAt: null,
    endedAt: null,
    answeredBy: null,
    digits: null,
    durationSeconds: null,
    errorCode: null,
    providerCallId: null,
    idempotencyKey: a.id,
    ringTimeoutSeconds: a.ringTimeoutSeconds,
    deadlineAt: null,
    script: null,
    updatedAt: now,
    version: 1,
  };
}

/** The kind of the attempt an occurrence places next: its first, a snooze's or a retry. */
export function nextAttemptKind(o: OccurrenceRecord): AttemptRecord['kind'] {
  if (o.attemptCount === 0) return 'first';
  return o.retryIndex === 0 && o.snoozeCount > 0 ? 'snooze' : 'retry';
}

/** When a series' occurrence rings: the instant, how it was derived, and the local date the rule produced it for. */
export interface SeriesTime {
  at: EpochMs;
  source: OccurrenceRecord['derivationSource'];
  /** Defaults to the local date of `at` in the series' zone. */
  date?: string;
}

/** A new pending occurrence with every field set (what `Runtime.schedule` and series store). */
export function pendingOccurrence(
  f: Pick<
    OccurrenceRecord,
    | 'id'
    | 'scheduleId'
    | 'accountId'
    | 'phoneNumberId'
    | 'to'
    | 'label'
    | 'message'
    | 'greetingName'
    | 'voice'
    | 'timezone'
    | 'derivationSource'
    | 'scheduledAt'
    | 'policy'
    | 'smsFallback'
    | 'backupAlarm'
  > &
    Partial<Pick<OccurrenceRecord, 'localDate' | 'tzdataVersion'>>,
  now: EpochMs,
  opt: ResolvedRuntimeOptions,
): OccurrenceRecord {
  return {
    localDate: null,
    tzdataVersion: null,
    ...f,
    policy: { ...f.policy, offsetsMinutes: [...f.policy.offsetsMinutes] },
    status: 'pending',
    outcomeReason: null,
    attemptCount: 0,
    snoozeCount: 0,
    seriesBase: f.scheduledAt,
    retryIndex: 0,
    nextDueAt: f.scheduledAt,
    liveAttemptId: null,
    backupAlarmAt: f.backupAlarm ? f.scheduledAt + opt.backupAlarmDelaySeconds * 1000 : null,
    reachedPerson: false,
    reachedVoicemail: false,
    missReason: null,
    fallbackState: 'none',
    dispatchedAt: null,
    confirmedAt: null,
    finishedAt: null,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
}

/** The occurrence of series `s` at `time`: everything copied from the series. */
export function occurrenceOfSeries(
  s: SeriesRecord,
  time: SeriesTime,
  id: string,
  now: EpochMs,
  opt: ResolvedRuntimeOptions,
): OccurrenceRecord {
  if (s.to.length === 0)
    throw new EngineError('invalid_series', `series ${s.id} has no number to call`, 'to');
  const wall = s.rule.kind !== 'in_minutes';
  return pendingOccurrence(
    {
      localDate: wall ? (time.date ?? localDateAt(s.rule.timezone, time.at)) : null,
      tzdataVersion: wall ? zoneRulesVersion() : null,
      id,
      scheduleId: s.id,
      accountId: s.accountId,
      phoneNumberId: s.phoneNumberId,
      to: s.to,
      label: s.label,
      message: s.message,
      greetingName: s.greetingName,
      voice: s.voice,
      timezone: s.rule.timezone,
      derivationSource: time.source,
      scheduledAt: time.at,
      policy: s.policy,
      smsFallback: s.smsFallback,
      backupAlarm: s.backupAlarm,
    },
    now,
    opt,
  );
}

/** The script of a wake-up attempt of `o` (key 2 offered while snoozes remain). */
export function wakeUpScript(o: OccurrenceRecord): CallScript {
  return {
    kind: 'wake_up',
    greetingName: o.greetingName,
    message: o.message,
    snoozeAllowed: o.snoozeCount < o.policy.maxSnoozes,
    ...(o.voice ? { voice: o.voice } : {}),
  };
}

/** The fallback text effect of `o` (idempotency key `fallback:<occurrence id>`). */
export function fallbackEffect(o: OccurrenceRecord, opt: ResolvedRuntimeOptions): Effect {
  return {
    type: 'SendText',
    occurrenceId: o.id,
    to: o.to,
    body: opt.fallbackText(o),
    idempotencyKey: `fallback:${o.id}`,
  };
}
