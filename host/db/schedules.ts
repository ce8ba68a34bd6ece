/**
 * Schedules: queries on the `schedules` table (migration 0004). Every function takes the
 * database handle; callers wrap multi-statement changes in one transaction.
 * @module
 */
import type { Db } from './sql.js';
import type { EpochMs, OccurrenceRecord } from '../../engine/index.js';
import type { StoredRetryPolicy } from './accounts.js';
import { occurrenceOf, occurrenceSelect } from './engine-rows.js';
import { settleEngine } from './engine-store.js';

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
export async function getSchedule(db: Db, accountId: string, id: string): Promise<Schedule | undefined> {
  const row = await db.get<Row>(`${SELECT} WHERE s.id = ? AND s.account_id = ?`, [id, accountId]);
  return row && fromRow(row);
}

/** The schedule with this id, whatever its account. */
export async function getScheduleById(db: Db, id: string): Promise<Schedule | undefined> {
  const row = await db.get<Row>(`${SELECT} WHERE s.id = ?`, [id]);
  return row && fromRow(row);
}

/** Inserts a new schedule. */
export async function insertSchedule(db: Db, s: ScheduleWrite): Promise<void> {
  await db.run(`INSERT INTO schedules (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => '@' + c).join(', ')})`, toParams(s));
}

/** Replaces every field of an existing schedule (id and account unchanged). */
export async function updateSchedule(db: Db, s: ScheduleWrite): Promise<void> {
  const sets = COLUMNS.filter((c) => c !== 'id' && c !== 'account_id' && c !== 'created_at').map((c) => `${c} = @${c}`);
  await db.run(`UPDATE schedules SET ${sets.join(', ')} WHERE id = @id AND account_id = @account_id`, toParams(s));
}

/** Removes a schedule row and its series (a schedule that never rang: nothing to keep). */
export async function deleteScheduleRow(db: Db, id: string): Promise<void> {
  await db.run('DELETE FROM schedules WHERE id = ?', [id]);
  await db.run('DELETE FROM series WHERE id = ?', [id]);
}

/** Sort key of GET /schedules (newest first): created_at, then insertion order. */
export interface ScheduleCursor {
  createdAt: EpochMs;
  seq: number;
}

/** A page of an account's schedules, newest first, optionally with one status. */
export async function listSchedules(
  db: Db,
  accountId: string,
  options: { status: ScheduleStatus | null; limit: number; before: ScheduleCursor | null },
): Promise<Schedule[]> {
  const b = options.before;
  const rows = await db.all<Row>(
    `${SELECT} WHERE s.account_id = @account AND (CAST(@status AS TEXT) IS NULL OR ${STATUS} = @status)
       AND (CAST(@createdAt AS BIGINT) IS NULL OR s.created_at < @createdAt OR (s.created_at = @createdAt AND s.rowid < @seq))
     ORDER BY s.created_at DESC, s.rowid DESC LIMIT @limit`,
    { account: accountId, status: options.status, createdAt: b?.createdAt ?? null, seq: b?.seq ?? null, limit: options.limit },
  );
  return rows.map(fromRow);
}

/** Whether any call of this schedule has been placed (its first attempt's intent stored; settle the account's engine rows first). */
export async function scheduleHasRung(db: Db, scheduleId: string): Promise<boolean> {
  return (
    (await db.get('SELECT 1 FROM occurrences WHERE schedule_id = ? AND dispatched_at IS NOT NULL LIMIT 1', [scheduleId])) !== undefined
  );
}

/** Deletes the occurrences of a schedule that never rang (their attempts follow by cascade; settle the account's engine rows first). */
export async function deleteScheduleOccurrences(db: Db, scheduleId: string): Promise<void> {
  await db.run('DELETE FROM occurrences WHERE schedule_id = ?', [scheduleId]);
}

/**
 * Onboarding facts: whether the account has any schedule, and any that will ring (enabled
 * and active: a completed one-off no longer counts for readiness).
 */
export async function scheduleFacts(db: Db, accountId: string): Promise<{ hasSchedule: boolean; hasEnabledSchedule: boolean }> {
  const r = (await db.get<{ n: number; enabled: number }>(
    `SELECT COUNT(*) AS n, COALESCE(MAX(CASE WHEN s.enabled = 1 AND ${STATUS} = 'active' THEN 1 ELSE 0 END), 0) AS enabled
     FROM schedules s LEFT JOIN series se ON se.id = s.id WHERE s.account_id = ?`,
    [accountId],
  ))!;
  return { hasSchedule: r.n > 0, hasEnabledSchedule: r.enabled === 1 };
}

/** The id of the account's primary (not deleted) phone number, if any. */
export async function primaryPhoneNumberId(db: Db, accountId: string): Promise<string | undefined> {
  const r = await db.get<{ id: string }>('SELECT id FROM phone_numbers WHERE account_id = ? AND is_primary = 1 AND deleted_at IS NULL', [
    accountId,
  ]);
  return r?.id;
}

/** One stored occurrence as the engine's record (read-only use: the runtime owns writes). */
export async function getOccurrenceRecord(db: Db, id: string): Promise<OccurrenceRecord | undefined> {
  await settleEngine(db, { occurrences: [id] });
  const row = await db.get<Record<string, unknown>>(`SELECT ${occurrenceSelect(db.dialect, 'o')} FROM occurrences o WHERE o.id = ?`, [id]);
  return row && occurrenceOf(db.dialect, row);
}
