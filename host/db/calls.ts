/**
 * Reads of occurrences and attempts for the API (GET /occurrences, GET /calls, test calls).
 * The engine writes these tables through the Store port; this module never writes.
 *
 * Occurrence views carry what OccurrenceOut needs beyond the engine's record: the
 * schedule's wall time (to tell a clock-change shift from a plain instant) and the phone
 * number's PhoneRef fields (null once the number was deleted).
 * @module
 */
import type { Database, Statement } from 'better-sqlite3';
import type { AttemptRecord, EpochMs, OccurrenceRecord, OccurrenceStatus } from '../../engine/index.js';
import { ATTEMPT_COLUMNS, rowToAttempt } from './attempts.js';
import { OCCURRENCE_COLUMNS, rowToOccurrence } from './occurrences.js';

/** An occurrence with the fields its API form needs from other tables. */
export interface OccurrenceView {
  record: OccurrenceRecord;
  /** The schedule's `local_time` (HH:MM), or null when the schedule is gone. */
  wallTime: string | null;
  /** The phone number, or null when it was deleted. */
  phone: { id: string; e164: string; label: string } | null;
}

const O_COLS = OCCURRENCE_COLUMNS.map((c) => `o.${c}`).join(', ');
const A_COLS = ATTEMPT_COLUMNS.join(', ');
const VIEW = `SELECT ${O_COLS}, s.local_time, p.id, p.e164, p.label
  FROM occurrences o
  LEFT JOIN schedules s ON s.id = o.schedule_id
  LEFT JOIN phone_numbers p ON p.id = o.phone_number_id AND p.deleted_at IS NULL`;

const statements = new WeakMap<Database, Map<string, Statement<unknown[]>>>();

/** A raw-mode prepared statement, compiled once per handle. */
function raw(db: Database, text: string): Statement<unknown[]> {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map<string, Statement<unknown[]>>()));
  let s = cache.get(text);
  if (!s) cache.set(text, (s = db.prepare<unknown[]>(text).raw(true)));
  return s;
}

function toView(row: unknown[]): OccurrenceView {
  const n = OCCURRENCE_COLUMNS.length;
  const [wallTime, phoneId, e164, label] = row.slice(n) as [string | null, string | null, string | null, string | null];
  return {
    record: rowToOccurrence(row.slice(0, n)),
    wallTime,
    phone: phoneId !== null && e164 !== null && label !== null ? { id: phoneId, e164, label } : null,
  };
}

/** The account's occurrence, or undefined (also for another account's). */
export function getOccurrenceView(db: Database, accountId: string, id: string): OccurrenceView | undefined {
  const row = raw(db, `${VIEW} WHERE o.id = ? AND o.account_id = ?`).get(id, accountId) as unknown[] | undefined;
  return row && toView(row);
}

/** Filter and position of an occurrence page. */
export interface OccurrenceQuery {
  status: OccurrenceStatus | null;
  /** Inclusive lower bound of scheduled_at, or null for none. */
  from: EpochMs | null;
  /** Exclusive upper bound, or null for none. */
  to: EpochMs | null;
  /** (scheduled_at, id) of the last item of the previous page. */
  after: { scheduledAt: EpochMs; id: string } | null;
  /** Rows to read (the caller asks one more than it shows). */
  limit: number;
}

/** Occurrences of the account, soonest first (scheduled_at, then id). */
export function listOccurrenceViews(db: Database, accountId: string, q: OccurrenceQuery): OccurrenceView[] {
  const rows = raw(
    db,
    `${VIEW} WHERE o.account_id = @account
       AND (@status IS NULL OR o.status = @status)
       AND (@from IS NULL OR o.scheduled_at >= @from)
       AND (@to IS NULL OR o.scheduled_at < @to)
       AND (@afterAt IS NULL OR o.scheduled_at > @afterAt OR (o.scheduled_at = @afterAt AND o.id > @afterId))
     ORDER BY o.scheduled_at, o.id LIMIT @limit`,
  ).all({
    account: accountId,
    status: q.status,
    from: q.from,
    to: q.to,
    afterAt: q.after?.scheduledAt ?? null,
    afterId: q.after?.id ?? '',
    limit: q.limit,
  }) as unknown[][];
  return rows.map(toView);
}

/** The attempts of an occurrence, oldest first. */
export function listOccurrenceAttempts(db: Database, occurrenceId: string): AttemptRecord[] {
  return (raw(db, `SELECT ${A_COLS} FROM attempts WHERE occurrence_id = ? ORDER BY n`).all(occurrenceId) as unknown[][]).map(rowToAttempt);
}

/** An attempt with its insertion order (GET /calls pages by created_at, then insertion). */
export interface CallRow {
  attempt: AttemptRecord;
  seq: number;
}

/** One attempt by id, whoever it belongs to (the route checks access). */
export function getAttemptById(db: Database, id: string): AttemptRecord | undefined {
  const row = raw(db, `SELECT ${A_COLS} FROM attempts WHERE id = ?`).get(id) as unknown[] | undefined;
  return row && rowToAttempt(row);
}

/**
 * The account's calls, newest first: every attempt of its wake-up calls and its test calls
 * (created_at descending, then insertion order descending, which the virtual clock needs
 * when several calls share an instant).
 */
export function listCallRows(
  db: Database,
  accountId: string,
  q: { after: { createdAt: EpochMs; seq: number } | null; limit: number },
): CallRow[] {
  const rows = raw(
    db,
    `SELECT ${A_COLS}, rowid FROM attempts
     WHERE account_id = @account AND kind IN ('first', 'retry', 'snooze', 'test')
       AND (@afterAt IS NULL OR created_at < @afterAt OR (created_at = @afterAt AND rowid < @afterSeq))
     ORDER BY created_at DESC, rowid DESC LIMIT @limit`,
  ).all({ account: accountId, afterAt: q.after?.createdAt ?? null, afterSeq: q.after?.seq ?? 0, limit: q.limit }) as unknown[][];
  return rows.map((r) => ({ attempt: rowToAttempt(r.slice(0, ATTEMPT_COLUMNS.length)), seq: r[ATTEMPT_COLUMNS.length] as number }));
}

/** The account's live standalone test call to that number (requested, ringing or answered), if any. */
export function findLiveTestCall(db: Database, accountId: string, phoneNumberId: string): AttemptRecord | undefined {
  const row = raw(
    db,
    `SELECT ${A_COLS} FROM attempts
     WHERE phone_number_id = ? AND account_id = ? AND occurrence_id IS NULL AND kind = 'test'
       AND status IN ('requested', 'ringing', 'answered')
     ORDER BY created_at DESC, rowid DESC LIMIT 1`,
  ).get(phoneNumberId, accountId) as unknown[] | undefined;
  return row && rowToAttempt(row);
}
