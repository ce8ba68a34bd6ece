/**
 * Rows of the PostgreSQL store's tables ({@link POSTGRES_ENGINE_SCHEMA_SQL}) and the engine's
 * records. A row is an object keyed by column name, as node-postgres returns it and as
 * `jsonb_populate_record` reads it: records are written as one JSON array per table and
 * read either as plain rows or as `json_agg` of rows, so `bigint` columns arrive as strings
 * (plain rows) or numbers (JSON) and both are accepted.
 * @module
 */
import type { QueryConfig, QueryResult } from 'pg';
import type { AttemptRecord, CallScript, OccurrenceRecord, RetryPolicy, SeriesRecord } from '../ports.js';
import type { Recurrence } from '../time/recurrence.js';

/** A row keyed by column name. */
export type Row = Record<string, unknown>;

/** What the store needs of a node-postgres `Pool` (or a `Client`): `query`. */
export interface Queryable {
  query(config: QueryConfig<unknown[]>): Promise<QueryResult<Row>>;
}

const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : num(v));
const str = (v: unknown): string => v as string;
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : (v as string));

/** Columns of `occurrences` written from a record (the lease columns are the store's own). */
export const OCCURRENCE_COLUMNS = [
  'id',
  'schedule_id',
  'account_id',
  'phone_number_id',
  'to_e164',
  'label',
  'message',
  'greeting_name',
  'voice',
  'timezone',
  'derivation_source',
  'scheduled_at',
  'max_snoozes',
  'offsets_minutes',
  'ring_timeout_seconds',
  'snooze_minutes',
  'sms_fallback',
  'backup_alarm',
  'status',
  'outcome_reason',
  'attempt_count',
  'snooze_count',
  'series_base',
  'retry_index',
  'next_due_at',
  'live_attempt_id',
  'backup_alarm_at',
  'reached_person',
  'reached_voicemail',
  'miss_reason',
  'fallback_state',
  'dispatched_at',
  'confirmed_at',
  'finished_at',
  'created_at',
  'updated_at',
  'version',
  'local_date',
  'tzdata_version',
] as const;

/** Columns of `attempts` written from a record. */
export const ATTEMPT_COLUMNS = [
  'id',
  'occurrence_id',
  'account_id',
  'phone_number_id',
  'kind',
  'n',
  'status',
  'to_e164',
  'due_at',
  'created_at',
  'requested_at',
  'ringing_at',
  'answered_at',
  'ended_at',
  'answered_by',
  'digits',
  'duration_seconds',
  'error_code',
  'provider_call_id',
  'idempotency_key',
  'ring_timeout_seconds',
  'deadline_at',
  'script',
  'updated_at',
  'version',
] as const;

/** Columns of `series` written from a record. */
export const SERIES_COLUMNS = [
  'id',
  'account_id',
  'phone_number_id',
  'to_e164',
  'label',
  'message',
  'greeting_name',
  'voice',
  'rule',
  'policy',
  'sms_fallback',
  'backup_alarm',
  'enabled',
  'status',
  'next_occurrence_id',
  'created_at',
  'updated_at',
  'version',
] as const;

/** The row for an occurrence (JSON-ready: `jsonb` columns hold values, not strings). */
export function occurrenceToRow(r: OccurrenceRecord): Row {
  return {
    id: r.id,
    schedule_id: r.scheduleId,
    account_id: r.accountId,
    phone_number_id: r.phoneNumberId,
    to_e164: r.to,
    label: r.label,
    message: r.message,
    greeting_name: r.greetingName,
    voice: r.voice,
    timezone: r.timezone,
    derivation_source: r.derivationSource,
    scheduled_at: r.scheduledAt,
    max_snoozes: r.policy.maxSnoozes,
    offsets_minutes: r.policy.offsetsMinutes,
    ring_timeout_seconds: r.policy.ringTimeoutSeconds,
    snooze_minutes: r.policy.snoozeMinutes,
    sms_fallback: r.smsFallback,
    backup_alarm: r.backupAlarm,
    status: r.status,
    outcome_reason: r.outcomeReason,
    attempt_count: r.attemptCount,
    snooze_count: r.snoozeCount,
    series_base: r.seriesBase,
    retry_index: r.retryIndex,
    next_due_at: r.nextDueAt,
    live_attempt_id: r.liveAttemptId,
    backup_alarm_at: r.backupAlarmAt,
    reached_person: r.reachedPerson,
    reached_voicemail: r.reachedVoicemail,
    miss_reason: r.missReason,
    fallback_state: r.fallbackState,
    dispatched_at: r.dispatchedAt,
    confirmed_at: r.confirmedAt,
    finished_at: r.finishedAt,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    version: r.version,
    local_date: r.localDate,
    tzdata_version: r.tzdataVersion,
  };
}

/** The record for an `occurrences` row. */
export function rowToOccurrence(v: Row): OccurrenceRecord {
  const policy: RetryPolicy = {
    maxSnoozes: num(v.max_snoozes),
    offsetsMinutes: (v.offsets_minutes as number[]).slice(),
    ringTimeoutSeconds: num(v.ring_timeout_seconds),
    snoozeMinutes: num(v.snooze_minutes),
  };
  return {
    id: str(v.id),
    scheduleId: strOrNull(v.schedule_id),
    accountId: str(v.account_id),
    phoneNumberId: strOrNull(v.phone_number_id),
    to: str(v.to_e164),
    label: strOrNull(v.label),
    message: strOrNull(v.message),
    greetingName: strOrNull(v.greeting_name),
    voice: strOrNull(v.voice),
    timezone: strOrNull(v.timezone),
    derivationSource: v.derivation_source as OccurrenceRecord['derivationSource'],
    scheduledAt: num(v.scheduled_at),
    policy,
    smsFallback: v.sms_fallback === true,
    backupAlarm: v.backup_alarm === true,
    status: v.status as OccurrenceRecord['status'],
    outcomeReason: (v.outcome_reason ?? null) as OccurrenceRecord['outcomeReason'],
    attemptCount: num(v.attempt_count),
    snoozeCount: num(v.snooze_count),
    seriesBase: num(v.series_base),
    retryIndex: num(v.retry_index),
    nextDueAt: numOrNull(v.next_due_at),
    liveAttemptId: strOrNull(v.live_attempt_id),
    backupAlarmAt: numOrNull(v.backup_alarm_at),
    reachedPerson: v.reached_person === true,
    reachedVoicemail: v.reached_voicemail === true,
    missReason: (v.miss_reason ?? null) as OccurrenceRecord['missReason'],
    fallbackState: v.fallback_state as OccurrenceRecord['fallbackState'],
    dispatchedAt: numOrNull(v.dispatched_at),
    confirmedAt: numOrNull(v.confirmed_at),
    finishedAt: numOrNull(v.finished_at),
    createdAt: num(v.created_at),
    updatedAt: num(v.updated_at),
    version: num(v.version),
    localDate: strOrNull(v.local_date),
    tzdataVersion: strOrNull(v.tzdata_version),
  };
}

/** The row for an attempt. */
export function attemptToRow(r: AttemptRecord): Row {
  return {
    id: r.id,
    occurrence_id: r.occurrenceId,
    account_id: r.accountId,
    phone_number_id: r.phoneNumberId,
    kind: r.kind,
    n: r.n,
    status: r.status,
    to_e164: r.to,
    due_at: r.dueAt,
    created_at: r.createdAt,
    requested_at: r.requestedAt,
    ringing_at: r.ringingAt,
    answered_at: r.answeredAt,
    ended_at: r.endedAt,
    answered_by: r.answeredBy,
    digits: r.digits,
    duration_seconds: r.durationSeconds,
    error_code: r.errorCode,
    provider_call_id: r.providerCallId,
    idempotency_key: r.idempotencyKey,
    ring_timeout_seconds: r.ringTimeoutSeconds,
    deadline_at: r.deadlineAt,
    script: r.script,
    updated_at: r.updatedAt,
    version: r.version,
  };
}

/** The record for an `attempts` row. */
export function rowToAttempt(v: Row): AttemptRecord {
  return {
    id: str(v.id),
    occurrenceId: strOrNull(v.occurrence_id),
    accountId: strOrNull(v.account_id),
    phoneNumberId: strOrNull(v.phone_number_id),
    kind: v.kind as AttemptRecord['kind'],
    n: num(v.n),
    status: v.status as AttemptRecord['status'],
    to: str(v.to_e164),
    dueAt: num(v.due_at),
    createdAt: num(v.created_at),
    requestedAt: numOrNull(v.requested_at),
    ringingAt: numOrNull(v.ringing_at),
    answeredAt: numOrNull(v.answered_at),
    endedAt: numOrNull(v.ended_at),
    answeredBy: (v.answered_by ?? null) as AttemptRecord['answeredBy'],
    digits: strOrNull(v.digits),
    durationSeconds: numOrNull(v.duration_seconds),
    errorCode: strOrNull(v.error_code),
    providerCallId: strOrNull(v.provider_call_id),
    idempotencyKey: str(v.idempotency_key),
    ringTimeoutSeconds: num(v.ring_timeout_seconds),
    deadlineAt: numOrNull(v.deadline_at),
    script: (v.script ?? null) as CallScript | null,
    updatedAt: num(v.updated_at),
    version: num(v.version),
  };
}

/** The row for a series. */
export function seriesToRow(r: SeriesRecord): Row {
  return {
    id: r.id,
    account_id: r.accountId,
    phone_number_id: r.phoneNumberId,
    to_e164: r.to,
    label: r.label,
    message: r.message,
    greeting_name: r.greetingName,
    voice: r.voice,
    rule: r.rule,
    policy: r.policy,
    sms_fallback: r.smsFallback,
    backup_alarm: r.backupAlarm,
    enabled: r.enabled,
    status: r.status,
    next_occurrence_id: r.nextOccurrenceId,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    version: r.version,
  };
}

/** The record for a `series` row. */
export function rowToSeries(v: Row): SeriesRecord {
  return {
    id: str(v.id),
    accountId: str(v.account_id),
    phoneNumberId: strOrNull(v.phone_number_id),
    to: str(v.to_e164),
    label: strOrNull(v.label),
    message: strOrNull(v.message),
    greetingName: strOrNull(v.greeting_name),
    voice: strOrNull(v.voice),
    rule: v.rule as Recurrence,
    policy: v.policy as RetryPolicy,
    smsFallback: v.sms_fallback === true,
    backupAlarm: v.backup_alarm === true,
    enabled: v.enabled === true,
    status: v.status as SeriesRecord['status'],
    nextOccurrenceId: strOrNull(v.next_occurrence_id),
    createdAt: num(v.created_at),
    updatedAt: num(v.updated_at),
    version: num(v.version),
  };
}
