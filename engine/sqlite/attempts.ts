/**
 * Attempts: rows of the `attempts` table (migrations 0002 and 0010) and the engine's
 * {@link AttemptRecord}. The SQLite Store uses these; the host's HTTP layer reads with them too.
 * @module
 */
import type { Database, Statement } from 'better-sqlite3';
import type { AttemptRecord, CallScript, EpochMs } from '../ports.js';

/** Columns in the order used by {@link attemptToRow} and the prepared statements. */
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

/** Positional parameters for an insert of `r` (column order of {@link ATTEMPT_COLUMNS}). */
export function attemptToRow(r: AttemptRecord): unknown[] {
  return [
    r.id,
    r.occurrenceId,
    r.accountId,
    r.phoneNumberId,
    r.kind,
    r.n,
    r.status,
    r.to,
    r.dueAt,
    r.createdAt,
    r.requestedAt,
    r.ringingAt,
    r.answeredAt,
    r.endedAt,
    r.answeredBy,
    r.digits,
    r.durationSeconds,
    r.errorCode,
    r.providerCallId,
    r.idempotencyKey,
    r.ringTimeoutSeconds,
    r.deadlineAt,
    r.script === null ? null : JSON.stringify(r.script),
    r.updatedAt,
    r.version,
  ];
}

/** The record for a raw row (column order of {@link ATTEMPT_COLUMNS}). */
export function rowToAttempt(v: unknown[]): AttemptRecord {
  return {
    id: v[0] as string,
    occurrenceId: v[1] as string | null,
    accountId: v[2] as string | null,
    phoneNumberId: v[3] as string | null,
    kind: v[4] as AttemptRecord['kind'],
    n: v[5] as number,
    status: v[6] as AttemptRecord['status'],
    to: v[7] as string,
    dueAt: v[8] as EpochMs,
    createdAt: v[9] as EpochMs,
    requestedAt: v[10] as EpochMs | null,
    ringingAt: v[11] as EpochMs | null,
    answeredAt: v[12] as EpochMs | null,
    endedAt: v[13] as EpochMs | null,
    answeredBy: v[14] as AttemptRecord['answeredBy'],
    digits: v[15] as string | null,
    durationSeconds: v[16] as number | null,
    errorCode: v[17] as string | null,
    providerCallId: v[18] as string | null,
    idempotencyKey: v[19] as string,
    ringTimeoutSeconds: v[20] as number,
    deadlineAt: v[21] as EpochMs | null,
    script: v[22] === null ? null : (JSON.parse(v[22] as string) as CallScript),
    updatedAt: v[23] as EpochMs,
    version: v[24] as number,
  };
}

const COLS = ATTEMPT_COLUMNS.join(', ');

/** Prepared statements on `attempts`, compiled once per database handle. */
export interface AttemptStatements {
  byOccurrence: Statement<[string]>;
  unacknowledged: Statement<[string, number]>;
}

/** Compiles the statements the SQLite Store needs on `attempts`. */
export function prepareAttemptStatements(db: Database): AttemptStatements {
  return {
    byOccurrence: db.prepare<[string]>(`SELECT ${COLS} FROM attempts WHERE occurrence_id = ? ORDER BY n`).raw(true),
    unacknowledged: db
      .prepare<[string, number]>(
        `SELECT ${COLS} FROM attempts WHERE status = 'requested' AND provider_call_id IS NULL AND id > ? ORDER BY id LIMIT ?`,
      )
      .raw(true),
  };
}
