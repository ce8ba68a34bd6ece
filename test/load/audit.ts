/**
 * The end-of-run checks of the load tests, on the database file (read after the servers
 * stopped) and the fake provider's record of accepted calls:
 * - every attempt the provider accepted a call for has exactly one call (no attempt key was
 *   dialled twice), every accepted call belongs to an attempt, and the attempt recorded that
 *   very call; no attempt is left in `requested` (the recovery path resolved each one);
 * - every attempt whose phone pressed 1 ended confirmed;
 * - no seeded occurrence is lost: each is finished, or still due (an instant in next_due_at);
 * - `PRAGMA integrity_check` answers ok.
 * @module
 */
import Sqlite from 'better-sqlite3';
import { FINISHED_OCCURRENCE_STATUSES, isFinishedOccurrence } from '../../engine/internals.js';
import type { OccurrenceStatus } from '../../engine/index.js';
import { createSqliteStore } from '../../engine/sqlite/index.js';

/** Folds what the engine's journal holds into the tables of a database no server has open. */
async function foldJournal(dbFile: string): Promise<void> {
  const db = new Sqlite(dbFile);
  try {
    db.pragma('foreign_keys = ON');
    const store = createSqliteStore(db, { fold: false });
    await store.settle();
    await store.close();
  } finally {
    db.close();
  }
}

/** What {@link audit} found. */
export interface Audit {
  attempts: number;
  /** Attempts by status. */
  attemptStatuses: Record<string, number>;
  /** Calls the fake accepted. */
  accepted: number;
  /** Accepted calls beyond the first of their attempt key. */
  duplicates: number;
  /** Attempt keys dialled more than once (first 20). */
  duplicateKeys: string[];
  /** Accepted calls whose key is no attempt's. */
  unknownCalls: number;
  /** Attempts whose recorded provider call is not the one call the fake holds for them. */
  mismatched: number;
  /** Attempts still `requested` (intent stored, outcome never resolved). */
  unresolved: number;
  /** Attempts the fake accepted a call for but that never recorded it (ended without it). */
  unrecorded: number;
  /** Attempts whose phone pressed 1 (the fake's `pressed`), told to the service or not. */
  pressedOne: number;
  /** Of those, the presses the service never heard (every retry of the Gather action failed). */
  unheard: number;
  /** Of those, attempts that did not end confirmed (first 20 keys in notConfirmedKeys). */
  notConfirmed: number;
  notConfirmedKeys: string[];
  occurrences: number;
  /** Seeded occurrences by status. */
  occurrenceStatuses: Record<string, number>;
  /** Seeded occurrences not finished (still due, or lost). */
  unfinished: number;
  /** Seeded occurrences missing, or unfinished with no next instant (nothing will ever move them; first 20 ids in lostIds). */
  lost: number;
  lostIds: string[];
  integrity: string;
}

/**
 * Audits `dbFile` against the fake's calls by attempt key, once no server has it open: the
 * engine's journal (docs/decisions/0016) is folded into the tables first.
 */
export async function audit(
  dbFile: string,
  occurrenceIds: readonly string[],
  fakeKeys: Record<string, string[]>,
  pressed: Record<string, { digit: string; heard: boolean }> = {},
): Promise<Audit> {
  await foldJournal(dbFile);
  const db = new Sqlite(dbFile, { readonly: true });
  try {
    const integrity = (db.pragma('integrity_check') as Array<{ integrity_check: string }>)
      .map((r) => r.integrity_check)
      .join('; ');
    const attempts = db
      .prepare('SELECT id, idempotency_key AS key, status, provider_call_id AS sid FROM attempts')
      .all() as Array<{
      id: string;
      key: string;
      status: string;
      sid: string | null;
    }>;
    const attemptStatuses: Record<string, number> = {};
    const byKey = new Set<string>();
    let mismatched = 0;
    let unresolved = 0;
    let unrecorded = 0;
    let pressedOne = 0;
    let unheard = 0;
    let notConfirmed = 0;
    const notConfirmedKeys: string[] = [];
    for (const a of attempts) {
      if (pressed[a.key]?.digit === '1') {
        pressedOne++;
        if (!pressed[a.key]!.heard) unheard++;
        if (a.status !== 'confirmed') {
          notConfirmed++;
          if (notConfirmedKeys.length < 20) notConfirmedKeys.push(`${a.key} (${a.status})`);
        }
      }
      attemptStatuses[a.status] = (attemptStatuses[a.status] ?? 0) + 1;
      byKey.add(a.key);
      const calls = fakeKeys[a.key] ?? [];
      if (a.status === 'requested') unresolved++;
      if (a.sid !== null && (calls.length === 0 || !calls.includes(a.sid))) mismatched++;
      if (a.sid === null && calls.length > 0) unrecorded++;
    }
    let accepted = 0;
    let duplicates = 0;
    let unknownCalls = 0;
    const duplicateKeys: string[] = [];
    for (const [key, sids] of Object.entries(fakeKeys)) {
      accepted += sids.length;
      if (sids.length > 1) {
        duplicates += sids.length - 1;
        if (duplicateKeys.length < 20) duplicateKeys.push(key);
      }
      if (!byKey.has(key)) unknownCalls += sids.length;
    }
    const status = db.prepare('SELECT status, next_due_at AS due FROM occurrences WHERE id = ?');
    const occurrenceStatuses: Record<string, number> = {};
    const lostIds: string[] = [];
    let lost = 0;
    let unfinished = 0;
    for (const id of occurrenceIds) {
      const o = status.get(id) as { status: OccurrenceStatus; due: number | null } | undefined;
      const s = o?.status ?? 'missing';
      occurrenceStatuses[s] = (occurrenceStatuses[s] ?? 0) + 1;
      if (o !== undefined && isFinishedOccurrence(o.status)) continue;
      unfinished++;
      // Still due: an unfinished occurrence keeps its next instant (its call, retry or the
      // live attempt's watchdog) in next_due_at, which the runtime loads at every start.
      if (o === undefined || o.due === null) {
        lost++;
        if (lostIds.length < 20) lostIds.push(id);
      }
    }
    return {
      attempts: attempts.length,
      attemptStatuses,
      accepted,
      duplicates,
      duplicateKeys,
      unknownCalls,
      mismatched,
      unresolved,
      unrecorded,
      pressedOne,
      unheard,
      notConfirmed,
      notConfirmedKeys,
      occurrences: occurrenceIds.length,
      occurrenceStatuses,
      unfinished,
      lost,
      lostIds,
      integrity,
    };
  } finally {
    db.close();
  }
}

/** Seeded occurrences not finished yet (a cheap progress probe while a server runs). */
export function unfinishedCount(db: Sqlite.Database, idLike: string): number {
  const finished = [...FINISHED_OCCURRENCE_STATUSES];
  const sql = `SELECT COUNT(*) AS n FROM occurrences WHERE id LIKE ? AND status NOT IN (${finished.map(() => '?').join(', ')})`;
  return (db.prepare(sql).get(idLike, ...finished) as { n: number }).n;
}

/** Seeded occurrences still waiting for their first dispatch. */
export function pendingCount(db: Sqlite.Database, idLike: string): number {
  return (
    db
      .prepare(`SELECT COUNT(*) AS n FROM occurrences WHERE id LIKE ? AND status = 'pending'`)
      .get(idLike) as { n: number }
  ).n;
}

/** Attempts whose intent is stored but whose acceptance is not: what a restart must resolve without dialling twice. */
export function unacknowledgedCount(db: Sqlite.Database): number {
  return (
    db
      .prepare(
        `SELECT COUNT(*) AS n FROM attempts WHERE status = 'requested' AND provider_call_id IS NULL`,
      )
      .get() as { n: number }
  ).n;
}
