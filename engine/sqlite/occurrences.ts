/**
 * Occurrences: rows of the `occurrences` table (migrations 0002 and 0010) and the engine's
 * {@link OccurrenceRecord}. The SQLite Store uses these; the host's HTTP layer reads with them too.
 * @module
 */
import type { Database, Statement } from 'better-sqlite3';
import type { EpochMs, OccurrenceRecord } from '../ports.js';

/** Columns in the order used by {@link occurrenceToRow} and the prepared statements. */
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

/** A raw `occurrences` row (as better-sqlite3 returns it in raw mode, column order above). */
export type OccurrenceRow = unknown[];

/** Positional parameters for an insert of `r` (column order of {@link OCCURRENCE_COLUMNS}). */
export function occurrenceToRow(r: OccurrenceRecord): unknown[] {
  return [
    r.id,
    r.scheduleId,
    r.accountId,
    r.phoneNumberId,
    r.to,
    r.label,
    r.message,
    r.greetingName,
    r.voice,
    r.timezone,
    r.derivationSource,
    r.scheduledAt,
    r.policy.maxSnoozes,
    JSON.stringify(r.policy.offsetsMinutes),
    r.policy.ringTimeoutSeconds,
    r.policy.snoozeMinutes,
    r.smsFallback ? 1 : 0,
    r.backupAlarm ? 1 : 0,
    r.status,
    r.outcomeReason,
    r.attemptCount,
    r.snoozeCount,
    r.seriesBase,
    r.retryIndex,
    r.nextDueAt,
    r.liveAttemptId,
    r.backupAlarmAt,
    r.reachedPerson ? 1 : 0,
    r.reachedVoicemail ? 1 : 0,
    r.missReason,
    r.fallbackState,
    r.dispatchedAt,
    r.confirmedAt,
    r.finishedAt,
    r.createdAt,
    r.updatedAt,
    r.version,
    r.localDate,
    r.tzdataVersion,
  ];
}

/** The record for a raw row. */
export function rowToOccurrence(v: OccurrenceRow): OccurrenceRecord {
  return {
    id: v[0] as string,
    scheduleId: v[1] as string | null,
    accountId: v[2] as string,
    phoneNumberId: v[3] as string | null,
    to: v[4] as string,
    label: v[5] as string | null,
    message: v[6] as string | null,
    greetingName: v[7] as string | null,
    voice: v[8] as string | null,
    timezone: v[9] as string | null,
    derivationSource: v[10] as OccurrenceRecord['derivationSource'],
    scheduledAt: v[11] as EpochMs,
    policy: {
      maxSnoozes: v[12] as number,
      offsetsMinutes: JSON.parse(v[13] as string) as number[],
      ringTimeoutSeconds: v[14] as number,
      snoozeMinutes: v[15] as number,
    },
    smsFallback: v[16] === 1,
    backupAlarm: v[17] === 1,
    status: v[18] as OccurrenceRecord['status'],
    outcomeReason: v[19] as OccurrenceRecord['outcomeReason'],
    attemptCount: v[20] as number,
    snoozeCount: v[21] as number,
    seriesBase: v[22] as EpochMs,
    retryIndex: v[23] as number,
    nextDueAt: v[24] as EpochMs | null,
    liveAttemptId: v[25] as string | null,
    backupAlarmAt: v[26] as EpochMs | null,
    reachedPerson: v[27] === 1,
    reachedVoicemail: v[28] === 1,
    missReason: v[29] as OccurrenceRecord['missReason'],
    fallbackState: v[30] as OccurrenceRecord['fallbackState'],
    dispatchedAt: v[31] as EpochMs | null,
    confirmedAt: v[32] as EpochMs | null,
    finishedAt: v[33] as EpochMs | null,
    createdAt: v[34] as EpochMs,
    updatedAt: v[35] as EpochMs,
    version: v[36] as number,
    localDate: v[37] as string | null,
    tzdataVersion: v[38] as string | null,
  };
}

const COLS = OCCURRENCE_COLUMNS.join(', ');

/** Prepared statements on `occurrences`, compiled once per database handle. */
export interface OccurrenceStatements {
  pendingFallbacks: Statement<[string, number]>;
}

/** Compiles the statements the SQLite Store needs on `occurrences`. */
export function prepareOccurrenceStatements(db: Database): OccurrenceStatements {
  return {
    pendingFallbacks: db
      .prepare<[string, number]>(`SELECT ${COLS} FROM occurrences WHERE fallback_state = 'pending' AND id > ? ORDER BY id LIMIT ?`)
      .raw(true),
  };
}
