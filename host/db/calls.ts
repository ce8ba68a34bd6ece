/**
 * Reads of occurrences and attempts for the API (GET /occurrences, GET /calls, test calls),
 * through the engine's store (its read model and its records by id: docs/decisions/0021); the
 * host never reads the engine's tables itself, and never writes them.
 *
 * Occurrence views carry what OccurrenceOut needs beyond the engine's record: the
 * schedule's wall time (to tell a clock-change shift from a plain instant) and the phone
 * number's PhoneRef fields (null once the number was deleted), read from the host's table.
 * @module
 */
import type {
  AttemptRecord,
  EpochMs,
  OccurrenceRecord,
  OccurrenceStatus,
  Recurrence,
  SeriesRecord,
} from '../../engine/index.js';
import { localTimeAt } from '../../engine/internals.js';
import { engineReads, engineStore } from './engine-store.js';
import { idsIn, type Db } from './sql.js';

/** An occurrence with the fields its API form needs from other tables. */
export interface OccurrenceView {
  record: OccurrenceRecord;
  /** The schedule's `local_time` (HH:MM), or null when the schedule is gone. */
  wallTime: string | null;
  /** The phone number, or null when it was deleted. */
  phone: { id: string; e164: string; label: string } | null;
}

/** The wall time a schedule shows (an in-N-minutes call: the local time of its instant). */
function wallTimeOf(rule: Recurrence): string {
  return rule.kind === 'in_minutes' ? localTimeAt(rule.timezone, rule.at).time : rule.localTime;
}

/** The views of `occurrences`, with their series' wall times and their (live) numbers, read in one statement. */
async function views(
  db: Db,
  occurrences: OccurrenceRecord[],
  series: SeriesRecord[],
): Promise<OccurrenceView[]> {
  const wall = new Map(series.map((s) => [s.id, wallTimeOf(s.rule)]));
  const ids = [
    ...new Set(occurrences.flatMap((o) => (o.phoneNumberId === null ? [] : [o.phoneNumberId]))),
  ];
  const phones =
    ids.length === 0
      ? []
      : await db.all<{ id: string; e164: string; label: string }>(
          `SELECT id, e164, label FROM phone_numbers WHERE id IN ${idsIn(db)} AND deleted_at IS NULL`,
          [JSON.stringify(ids)],
        );
  const phone = new Map(phones.filter((p) => p.e164 !== '').map((p) => [p.id, p]));
  return occurrences.map((record) => ({
    record,
    wallTime: record.scheduleId === null ? null : (wall.get(record.scheduleId) ?? null),
    phone: record.phoneNumberId === null ? null : (phone.get(record.phoneNumberId) ?? null),
  }));
}

/** The account's occurrence, or undefined (also for another account's). */
export async function getOccurrenceView(
  db: Db,
  accountId: string,
  id: string,
): Promise<OccurrenceView | undefined> {
  const snapshot = await engineStore(db).load({ occurrences: [id] });
  const o = snapshot.occurrences.find((x) => x.id === id);
  if (!o || o.accountId !== accountId) return undefined;
  return (await views(db, [o], snapshot.series))[0];
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
export async function listOccurrenceViews(
  db: Db,
  accountId: string,
  q: OccurrenceQuery,
): Promise<OccurrenceView[]> {
  const page = await engineReads(db).listOccurrences({ accountId, ...q });
  return views(db, page.occurrences, page.series);
}

/** The attempts of one of the account's occurrences, oldest first. */
export async function listOccurrenceAttempts(
  db: Db,
  accountId: string,
  occurrenceId: string,
): Promise<AttemptRecord[]> {
  return await engineReads(db).listOccurrenceAttempts(accountId, occurrenceId);
}

/** An attempt with its insertion order (GET /calls pages by created_at, then insertion). */
export interface CallRow {
  attempt: AttemptRecord;
  seq: number;
}

/** One attempt by id, whoever it belongs to (the route checks access). */
export async function getAttemptById(db: Db, id: string): Promise<AttemptRecord | undefined> {
  const { attempts } = await engineStore(db).load({ attempts: [id] });
  return attempts.find((a) => a.id === id);
}

/**
 * The account's calls, newest first: every attempt of its wake-up calls and its test calls
 * (created_at descending, then insertion order descending, which the virtual clock needs
 * when several calls share an instant).
 */
export async function listCallRows(
  db: Db,
  accountId: string,
  q: { after: { createdAt: EpochMs; seq: number } | null; limit: number },
): Promise<CallRow[]> {
  const rows = await engineReads(db).listAccountAttempts({
    accountId,
    kinds: ['first', 'retry', 'snooze', 'test'],
    before: q.after,
    limit: q.limit,
  });
  return rows.map((r) => ({ attempt: r.record, seq: r.seq }));
}

/** The account's live standalone test call to that number (requested, ringing or answered), if any. */
export async function findLiveTestCall(
  db: Db,
  accountId: string,
  phoneNumberId: string,
): Promise<AttemptRecord | undefined> {
  return (
    (await engineReads(db).findLiveStandaloneAttempt(accountId, phoneNumberId, 'test')) ?? undefined
  );
}
