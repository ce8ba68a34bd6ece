/**
 * The engine's {@link Store} port on better-sqlite3: one database transaction per unit of
 * work (`db.transaction`, synchronous; a nested unit is a savepoint), prepared statements
 * compiled once, rows in raw (array) mode. The runtime batches every transition of a due
 * spike into few units of work, so commits are amortised over hundreds of rows.
 * @module
 */
import type { Database, Statement } from 'better-sqlite3';
import type { DueRef, Store, StoreTx } from '../../engine/index.js';
import {
  attemptToRow,
  attemptUpdateParams,
  prepareAttemptStatements,
  rowToAttempt,
} from './attempts.js';
import {
  occurrenceToRow,
  occurrenceUpdateParams,
  prepareOccurrenceStatements,
  rowToOccurrence,
} from './occurrences.js';

/** Options of {@link createSqliteStore}. */
export interface SqliteStoreOptions {
  /**
   * SQLite page cache for this connection, in KiB (PRAGMA cache_size = -N). A spike touches
   * many pages of the occurrence and attempt indexes; a larger cache keeps them in memory.
   * @defaultValue 65536 (64 MiB)
   */
  cacheKiB?: number;
}

// A due cursor's `at` when there is none: below every epoch-ms instant.
const NO_CURSOR_AT = -Number.MAX_SAFE_INTEGER;

/**
 * A {@link Store} on an open database (use `openDatabase` from `host/db/open.ts`, which has
 * applied migration 0002). The database stays the caller's: close it yourself.
 *
 * @example
 * const store = createSqliteStore(openDatabase('./data/wakeup.sqlite'));
 */
export function createSqliteStore(db: Database, options: SqliteStoreOptions = {}): Store {
  db.pragma(`cache_size = -${Math.max(2048, Math.floor(options.cacheKiB ?? 65536))}`);
  const o = prepareOccurrenceStatements(db);
  const a = prepareAttemptStatements(db);
  // Each side is limited on its own, then merged, so a page never scans a whole spike.
  const due: Statement<unknown[]> = db
    .prepare(
      `SELECT kind, id, at FROM (
         SELECT * FROM (
           SELECT 'attempt' AS kind, id, deadline_at AS at FROM attempts
           WHERE occurrence_id IS NULL AND deadline_at IS NOT NULL AND deadline_at BETWEEN @at AND @until
             AND (deadline_at > @at OR (@kind = 'attempt' AND id > @id))
           ORDER BY deadline_at, id LIMIT @limit)
         UNION ALL
         SELECT * FROM (
           SELECT 'occurrence' AS kind, id, next_due_at AS at FROM occurrences
           WHERE next_due_at IS NOT NULL AND next_due_at BETWEEN @at AND @until
             AND (next_due_at > @at OR @kind = 'attempt' OR id > @id)
           ORDER BY next_due_at, id LIMIT @limit)
       ) ORDER BY at, kind, id LIMIT @limit`,
    )
    .raw(true);

  const changed = (info: { changes: number }, what: string, id: string) => {
    if (info.changes !== 1) throw new Error(`SqliteStore: no ${what} ${id}`);
  };

  const tx: StoreTx = {
    getOccurrence: (id) => {
      const row = o.get.get(id) as unknown[] | undefined;
      return row && rowToOccurrence(row);
    },
    insertOccurrence: (r) => {
      o.insert.run(occurrenceToRow(r));
    },
    updateOccurrence: (r) => changed(o.update.run(occurrenceUpdateParams(r)), 'occurrence', r.id),
    getAttempt: (id) => {
      const row = a.get.get(id) as unknown[] | undefined;
      return row && rowToAttempt(row);
    },
    insertAttempt: (r) => {
      a.insert.run(attemptToRow(r));
    },
    updateAttempt: (r) => changed(a.update.run(attemptUpdateParams(r)), 'attempt', r.id),
    listAttempts: (occurrenceId) => (a.byOccurrence.all(occurrenceId) as unknown[][]).map(rowToAttempt),
    listDue: (until, limit, after) => {
      const rows = due.all({
        at: after ? after.at : NO_CURSOR_AT,
        until,
        kind: after ? after.kind : 'occurrence',
        id: after ? after.id : '',
        limit,
      }) as [DueRef['kind'], string, number][];
      return rows.map(([kind, id, at]) => ({ kind, id, at }));
    },
    listUnacknowledgedAttempts: (limit, afterId) =>
      (a.unacknowledged.all(afterId ?? '', limit) as unknown[][]).map(rowToAttempt),
    listPendingFallbacks: (limit, afterId) =>
      (o.pendingFallbacks.all(afterId ?? '', limit) as unknown[][]).map(rowToOccurrence),
  };

  const run = db.transaction((fn: (t: StoreTx) => unknown) => fn(tx));
  return {
    transact<T>(fn: (t: StoreTx) => T): T {
      return run(fn) as T;
    },
  };
}
