/**
 * Schedules: queries on the `schedules` table (migration 0004). Every function takes the
 * database handle; callers wrap multi-statement changes in one transaction.
 * @module
 */
import type { Database } from 'better-sqlite3';
import type { EpochMs, OccurrenceRecord } from '../../engine/index.js';
import type { StoredRetryPolicy } from './accounts.js';
import { OCCURRENCE_COLUMNS, rowToOccurrence, type OccurrenceRow } from './occurrences.js';
import { sql } from './statements.js';

/** How a schedule's instants are derived. */
export type ScheduleMode = 'one_off' | 'in_minutes' | 'weekly';
/** ScheduleOut.status. */
export type ScheduleStatus = 'active' | 'completed' | 'disabled';
/** ScheduleOut.source: the credential that created it. */
export type ScheduleSource = 'app' | 'web' | 'api';

/** One schedule as stored, instants as epoch ms. */
export interface Schedule {
  id: string;
  /** Insertion order (rowid): breaks ties between equal created_at. */
  seq: number;
  accountId: string;
  kind: 'once' | 'recurring';
  mode: ScheduleMode;
  label: string;
  message: string | null;
  greetingName: string | null;
  localDate: string | null;
  localTime: string;
  /** in_minutes only: the instant it rings. */
  fixedAt: EpochMs | null;
  timezone: string;
  createdInTimezone: string | null;
  daysOfWeek: string[];
  startDate: string | null;
  endDate: string | null;
  pausedUntil: string | null;
  skipDates: string[];
  enabled: boolean;
  status: ScheduleStatus;
  backupAlarm: boolean;
  smsFallback: boolean;
  /** The schedule's own policy, or null for the account's default. */
  retryPolicy: StoredRetryPolicy | null;
  phoneNumberId: string | null;
  nextOccurrenceId: string | null;
  source: ScheduleSource;
  createdAt: EpochMs;
  updatedAt: EpochMs;
}

/** A schedule to write: everything but `seq`. */
export type ScheduleWrite = Omit<Schedule, 'seq'>;

interface Row {
  id: string;
  seq: number;
  account_id: string;
  kind: 'once' | 'recurring';
  mode: ScheduleMode;
  label: string;
  message: string | null;
  greeting_name: string | null;
  local_date: string | null;
  local_time: string;
  fixed_at: number | null;
  timezone: string;
  created_in_timezone: string | null;
  days_of_week: string;
  start_date: string | null;
  end_date: string | null;
  paused_until: string | null;
  skip_dates: string;
  enabled: number;
  status: ScheduleStatus;
  backup_alarm: number;
  sms_fallback: number;
  retry_policy: string | null;
  phone_number_id: string | null;
  next_occurrence_id: string | null;
  source: ScheduleSource;
  created_at: number;
  updated_at: number;
  /** The engine's series of the same id (status and next occurrence are the engine's), or nulls. */
  series_id: string | null;
  series_status: ScheduleStatus | null;
  series_next: string | null;
}

const fromRow = (r: Row): Schedule => ({
  id: r.id,
  seq: r.seq,
  accountId: r.account_id,
  kind: r.kind,
  mode: r.mode,
  label: r.label,
  message: r.message,
  greetingName: r.greeting_name,
  localDate: r.local_date,
  localTime: r.local_time,
  fixedAt: r.fixed_at,
  timezone: r.timezone,
  createdInTimezone: r.created_in_timezone,
  daysOfWeek: JSON.parse(r.days_of_week) as string[],
  startDate: r.start_date,
  endDate: r.end_date,
  pausedUntil: r.paused_until,
  skipDates: JSON.parse(r.skip_dates) as string[],
  enabled: r.enabled === 1,
  status: r.series_id !== null ? r.series_status! : r.status,
  backupAlarm: r.backup_alarm === 1,
  smsFallback: r.sms_fallback === 1,
  retryPolicy: r.retry_policy === null ? null : (JSON.parse(r.retry_policy) as StoredRetryPolicy),
  phoneNumberId: r.phone_number_id,
  nextOccurrenceId: r.series_id !== null ? r.series_next : r.next_occurrence_id,
  source: r.source,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toParams = (s: ScheduleWrite) => ({
  id: s.id,
  account_id: s.accountId,
  kind: s.kind,
  mode: s.mode,
  label: s.label,
  message: s.message,
  greeting_name: s.greetingName,
  local_date: s.localDate,
  local_time: s.localTime,
  fixed_at: s.fixedAt,
  timezone: s.timezone,
  created_in_timezone: s.createdInTimezone,
  days_of_week: JSON.stringify(s.daysOfWeek),
  start_date: s.startDate,
  end_date: s.endDate,
  paused_until: s.pausedUntil,
  skip_dates: JSON.stringify(s.skipDates),
  enabled: s.enabled ? 1 : 0,
  status: s.status,
  backup_alarm: s.backupAlarm ? 1 : 0,
  sms_fallback: s.smsFallback ? 1 : 0,
  retry_policy: s.retryPolicy === null ? null : JSON.stringify(s.retryPolicy),
  phone_number_id: s.phoneNumberId,
  next_occurrence_id: s.nextOccurrenceId,
  source: s.source,
  created_at: s.createdAt,
  updated_at: s.updatedAt,
});

const COLUMNS = Object.keys(toParams({} as ScheduleWrite));
/**
 * A schedule's `status` and `next_occurrence_id` are the engine's (its series of the same id
 * makes each next occurrence); the row's own copies are what the host last wrote.
 */
const SELECT = `SELECT s.*, s.rowid AS seq, se.id AS series_id, se.status AS series_status, se.next_occurrence_id AS series_next
  FROM schedules s LEFT JOIN series se ON se.id = s.id`;
/** The status in effect, in SQL. */
const STATUS = 'COALESCE(se.status, s.status)';

/** The schedule with this id when it belongs to `accountId`. */
export function getSchedule(db: Database, accountId: string, id: string): Schedule | undefined {
  const row = sql<Row>(db, `${SELECT} WHERE s.id = ? AND s.account_id = ?`).get(id, accountId);
  return row && fromRow(row);
}

/** The schedule with this id, whatever its account. */
export function getScheduleById(db: Database, id: string): Schedule | undefined {
  const row = sql<Row>(db, `${SELECT} WHERE s.id = ?`).get(id);
  return row && fromRow(row);
}

/** Inserts a new schedule. */
export function insertSchedule(db: Database, s: ScheduleWrite): void {
  sql(db, `INSERT INTO schedules (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => '@' + c).join(', ')})`).run(toParams(s));
}

/** Replaces every field of an existing schedule (id and account unchanged). */
export function updateSchedule(db: Database, s: ScheduleWrite): void {
  const sets = COLUMNS.filter((c) => c !== 'id' && c !== 'account_id' && c !== 'created_at').map((c) => `${c} = @${c}`);
  sql(db, `UPDATE schedules SET ${sets.join(', ')} WHERE id = @id AND account_id = @account_id`).run(toParams(s));
}

/** Removes a schedule row and its series (a schedule that never rang: nothing to keep). */
export function deleteScheduleRow(db: Database, id: string): void {
  sql(db, 'DELETE FROM schedules WHERE id = ?').run(id);
  sql(db, 'DELETE FROM series WHERE id = ?').run(id);
}

/** Sort key of GET /schedules (newest first): created_at, then insertion order. */
export interface ScheduleCursor {
  createdAt: EpochMs;
  seq: number;
}

/** A page of an account's schedules, newest first, optionally with one status. */
export function listSchedules(
  db: Database,
  accountId: string,
  options: { status: ScheduleStatus | null; limit: number; before: ScheduleCursor | null },
): Schedule[] {
  const b = options.before;
  const rows = sql<Row>(
    db,
    `${SELECT} WHERE s.account_id = @account AND (@status IS NULL OR ${STATUS} = @status)
       AND (@createdAt IS NULL OR s.created_at < @createdAt OR (s.created_at = @createdAt AND s.rowid < @seq))
     ORDER BY s.created_at DESC, s.rowid DESC LIMIT @limit`,
  ).all({ account: accountId, status: options.status, createdAt: b?.createdAt ?? null, seq: b?.seq ?? null, limit: options.limit });
  return rows.map(fromRow);
}

/** Whether any call of this schedule has been placed (its first attempt's intent stored). */
export function scheduleHasRung(db: Database, scheduleId: string): boolean {
  return sql(db, 'SELECT 1 FROM occurrences WHERE schedule_id = ? AND dispatched_at IS NOT NULL LIMIT 1').get(scheduleId) !== undefined;
}

/** Deletes the occurrences of a schedule that never rang (their attempts follow by cascade). */
export function deleteScheduleOccurrences(db: Database, scheduleId: string): void {
  sql(db, 'DELETE FROM occurrences WHERE schedule_id = ?').run(scheduleId);
}

/**
 * Onboarding facts: whether the account has any schedule, and any that will ring (enabled
 * and active: a completed one-off no longer counts for readiness).
 */
export function scheduleFacts(db: Database, accountId: string): { hasSchedule: boolean; hasEnabledSchedule: boolean } {
  const r = sql<{ any: number; enabled: number }>(
    db,
    `SELECT COUNT(*) > 0 AS any, COALESCE(MAX(s.enabled = 1 AND ${STATUS} = 'active'), 0) AS enabled
     FROM schedules s LEFT JOIN series se ON se.id = s.id WHERE s.account_id = ?`,
  ).get(accountId)!;
  return { hasSchedule: r.any === 1, hasEnabledSchedule: r.enabled === 1 };
}

/** The id of the account's primary (not deleted) phone number, if any. */
export function primaryPhoneNumberId(db: Database, accountId: string): string | undefined {
  const r = sql<{ id: string }>(db, 'SELECT id FROM phone_numbers WHERE account_id = ? AND is_primary = 1 AND deleted_at IS NULL').get(
    accountId,
  );
  return r?.id;
}

/** One stored occurrence as the engine's record (read-only use: the runtime owns writes). */
export function getOccurrenceRecord(db: Database, id: string): OccurrenceRecord | undefined {
  const stmt = sql(db, `SELECT ${OCCURRENCE_COLUMNS.join(', ')} FROM occurrences WHERE id = ?`);
  const row = stmt.raw(true).get(id) as OccurrenceRow | undefined;
  return row && rowToOccurrence(row);
}
