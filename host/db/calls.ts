/**
 * Reads of occurrences and attempts for the API (GET /occurrences, GET /calls, test calls).
 * The engine writes these tables through the Store port; this module never writes.
 *
 * Occurrence views carry what OccurrenceOut needs beyond the engine's record: the
 * schedule's wall time (to tell a clock-change shift from a plain instant) and the phone
 * number's PhoneRef fields (null once the number was deleted).
 * @module
 */
import type { AttemptRecord, EpochMs, OccurrenceRecord, OccurrenceStatus } from '../../engine/index.js';
import { attemptOf, attemptSelect, occurrenceOf, occurrenceSelect } from './engine-rows.js';
import type { Db, Dialect } from './sql.js';
import { settleEngine } from './engine-store.js';

/** An occurrence with the fields its API form needs from other tables. */
export interface OccurrenceView {
  record: OccurrenceRecord;
  /** The schedule's `local_time` (HH:MM), or null when the schedule is gone. */
  wallTime: string | null;
  /** The phone number, or null when it was deleted. */
  phone: { id: string; e164: string; label: string } | null;
}

type Row = Record<string, unknown>;

const view = (
  d: Dialect,
) => `SELECT ${occurrenceSelect(d, 'o')}, s.local_time AS v_wall_time, p.id AS v_phone_id, p.e164 AS v_e164, p.label AS v_label
  FROM occurrences o
  LEFT JOIN schedules s ON s.id = o.schedule_id
  LEFT JOIN phone_numbers p ON p.id = o.phone_number_id AND p.deleted_at IS NULL`;
const VIEW = { sqlite: view('sqlite'), postgres: view('postgres') };
const A_COLS = { sqlite: attemptSelect('sqlite', 'a'), postgres: attemptSelect('postgres', 'a') };

function toView(d: Dialect, row: Row): OccurrenceView {
  const [wallTime, phoneId, e164, label] = [row.v_wall_time, row.v_phone_id, row.v_e164, row.v_label] as Array<string | null>;
  return {
    record: occurrenceOf(d, row),
    wallTime: wallTime ?? null,
    phone: phoneId && e164 && label !== null && label !== undefined ? { id: phoneId, e164, label } : null,
  };
}

/** The account's occurrence, or undefined (also for another account's). */
export async function getOccurrenceView(db: Db, accountId: string, id: string): Promise<OccurrenceView | undefined> {
  await settleEngine(db, { accounts: [accountId] });
  const row = await db.get<Row>(`${VIEW[db.dialect]} WHERE o.id = ? AND o.account_id = ?`, [id, accountId]);
  return row && toView(db.dialect, row);
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
export async function listOccurrenceViews(db: Db, accountId: string, q: OccurrenceQuery): Promise<OccurrenceView[]> {
  await settleEngine(db, { accounts: [accountId] });
  const rows = await db.all<Row>(
    `${VIEW[db.dialect]} WHERE o.account_id = @account
       AND (CAST(@status AS TEXT) IS NULL OR o.status = @status)
       AND (CAST(@from AS BIGINT) IS NULL OR o.scheduled_at >= @from)
       AND (CAST(@to AS BIGINT) IS NULL OR o.scheduled_at < @to)
       AND (CAST(@afterAt AS BIGINT) IS NULL OR o.scheduled_at > @afterAt OR (o.scheduled_at = @afterAt AND o.id > @afterId))
     ORDER BY o.scheduled_at, o.id LIMIT @limit`,
    {
      account: accountId,
      status: q.status,
      from: q.from,
      to: q.to,
      afterAt: q.after?.scheduledAt ?? null,
      afterId: q.after?.id ?? '',
      limit: q.limit,
    },
  );
  return rows.map((r) => toView(db.dialect, r));
}

/** The attempts of an occurrence, oldest first. */
export async function listOccurrenceAttempts(db: Db, occurrenceId: string): Promise<AttemptRecord[]> {
  await settleEngine(db, { occurrences: [occurrenceId] });
  const rows = await db.all<Row>(`SELECT ${A_COLS[db.dialect]} FROM attempts a WHERE a.occurrence_id = ? ORDER BY a.n`, [occurrenceId]);
  return rows.map((r) => attemptOf(db.dialect, r));
}

/** An attempt with its insertion order (GET /calls pages by created_at, then insertion). */
export interface CallRow {
  attempt: AttemptRecord;
  seq: number;
}

/** One attempt by id, whoever it belongs to (the route checks access). */
export async function getAttemptById(db: Db, id: string): Promise<AttemptRecord | undefined> {
  await settleEngine(db, { attempts: [id] });
  const row = await db.get<Row>(`SELECT ${A_COLS[db.dialect]} FROM attempts a WHERE a.id = ?`, [id]);
  return row && attemptOf(db.dialect, row);
}

/**
 * The account's calls, newest first: every attempt of its wake-up calls and its test calls
 * (created_at descending, then insertion order descending, which the virtual clock needs
 * when several calls share an instant). On PostgreSQL `rowid` is an identity column.
 */
export async function listCallRows(
  db: Db,
  accountId: string,
  q: { after: { createdAt: EpochMs; seq: number } | null; limit: number },
): Promise<CallRow[]> {
  await settleEngine(db, { accounts: [accountId] });
  const rows = await db.all<Row>(
    `SELECT ${A_COLS[db.dialect]}, a.rowid AS seq FROM attempts a
     WHERE a.account_id = @account AND a.kind IN ('first', 'retry', 'snooze', 'test')
       AND (CAST(@afterAt AS BIGINT) IS NULL OR a.created_at < @afterAt OR (a.created_at = @afterAt AND a.rowid < @afterSeq))
     ORDER BY a.created_at DESC, a.rowid DESC LIMIT @limit`,
    { account: accountId, afterAt: q.after?.createdAt ?? null, afterSeq: q.after?.seq ?? 0, limit: q.limit },
  );
  return rows.map((r) => ({ attempt: attemptOf(db.dialect, r), seq: r.seq as number }));
}

/** The account's live standalone test call to that number (requested, ringing or answered), if any. */
export async function findLiveTestCall(db: Db, accountId: string, phoneNumberId: string): Promise<AttemptRecord | undefined> {
  await settleEngine(db, { accounts: [accountId] });
  const row = await db.get<Row>(
    `SELECT ${A_COLS[db.dialect]} FROM attempts a
     WHERE a.phone_number_id = ? AND a.account_id = ? AND a.occurrence_id IS NULL AND a.kind = 'test'
       AND a.status IN ('requested', 'ringing', 'answered')
     ORDER BY a.created_at DESC, a.rowid DESC LIMIT 1`,
    [phoneNumberId, accountId],
  );
  return row && attemptOf(db.dialect, row);
}
