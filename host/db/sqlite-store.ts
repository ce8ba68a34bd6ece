/**
 * The engine's {@link Store} port on better-sqlite3: one database transaction per unit of
 * work (`db.transaction`, synchronous; a nested unit is a savepoint), prepared statements
 * compiled once, rows in raw (array) mode. The runtime batches every transition of a due
 * spike into few units of work, so commits are amortised over hundreds of rows.
 * @module
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Database, Statement } from 'better-sqlite3';
import type { DueRef, Store, StoreTx } from '../../engine/index.js';
import { ATTEMPT_COLUMNS, attemptToRow, attemptUpdateParams, prepareAttemptStatements, rowToAttempt } from './attempts.js';
import {
  OCCURRENCE_COLUMNS,
  occurrenceToRow,
  occurrenceUpdateParams,
  prepareOccurrenceStatements,
  rowToOccurrence,
} from './occurrences.js';

/** Options of {@link createSqliteStore}. */
export interface SqliteStoreOptions {
  /**
   * Run WAL checkpoints on a second connection in a worker thread (PASSIVE, every
   * `checkpointIntervalMs`) and turn automatic checkpoints off on this connection. An
   * automatic checkpoint runs inside whichever commit crosses the threshold, copying and
   * syncing thousands of pages on the event loop; at a dispatch spike that is the largest
   * single stall and about a third of the write time. Off by default (a worker per store is
   * heavy for tests); the host should turn it on for its one production store.
   * @defaultValue false
   */
  checkpointInWorker?: boolean;
  /** @defaultValue 250 */
  checkpointIntervalMs?: number;
  /**
   * SQLite page cache for this connection, in KiB (PRAGMA cache_size = -N). A spike touches
   * many pages of the occurrence and attempt indexes; a larger cache keeps them in memory.
   * @defaultValue 65536 (64 MiB)
   */
  cacheKiB?: number;
}

/** The engine's Store on SQLite; `close()` stops the checkpoint worker (the database stays open). */
export interface SqliteStore extends Store {
  close(): Promise<void>;
}

// The checkpoint worker: plain CommonJS, so it needs no TypeScript loader.
const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy: next time */ }
}, workerData.intervalMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

/** Starts the checkpoint worker on `db`'s file and turns automatic checkpoints off on `db`. */
function startCheckpointer(db: Database, intervalMs: number): { close(): Promise<void> } {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(CHECKPOINTER, { eval: true, workerData: { driver, file: db.name, intervalMs } });
  worker.unref();
  db.pragma('wal_autocheckpoint = 0');
  return {
    close: () =>
      new Promise<void>((resolve) => {
        worker.ref(); // keep the process alive until the worker has closed its connection
        worker.once('exit', () => resolve());
        worker.postMessage('close');
        setTimeout(() => void worker.terminate(), 2000).unref();
      }).finally(() => {
        if (db.open) db.pragma('wal_autocheckpoint = 1000');
      }),
  };
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
export function createSqliteStore(db: Database, options: SqliteStoreOptions = {}): SqliteStore {
  db.pragma(`cache_size = -${Math.max(2048, Math.floor(options.cacheKiB ?? 65536))}`);
  const checkpointer = options.checkpointInWorker && !db.memory ? startCheckpointer(db, options.checkpointIntervalMs ?? 250) : null;
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

  // Rows read in the current unit of work, so that an update writes only the columns that
  // changed: SQLite rewrites every index whose columns appear in SET, changed or not.
  const seenOcc = new Map<string, unknown[]>();
  const seenAtt = new Map<string, unknown[]>();
  const partialOcc = new Map<number, Statement<unknown[]>>();
  const partialAtt = new Map<number, Statement<unknown[]>>();
  const partialUpdate = (
    table: string,
    columns: readonly string[],
    cache: Map<number, Statement<unknown[]>>,
    before: unknown[],
    after: unknown[],
  ): { changes: number } | null => {
    let mask = 0;
    const values: unknown[] = [];
    for (let i = 1; i < columns.length; i++) {
      if (before[i] !== after[i]) {
        mask += 2 ** i;
        values.push(after[i]);
      }
    }
    if (mask === 0) return { changes: 1 };
    let stmt = cache.get(mask);
    if (!stmt) {
      const set = columns.filter((_, i) => i > 0 && Math.floor(mask / 2 ** i) % 2 === 1).map((c) => `${c} = ?`);
      stmt = db.prepare(`UPDATE ${table} SET ${set.join(', ')} WHERE id = ?`);
      cache.set(mask, stmt);
    }
    values.push(after[0]);
    return stmt.run(values);
  };

  const tx: StoreTx = {
    getOccurrence: (id) => {
      const row = o.get.get(id) as unknown[] | undefined;
      if (!row) return undefined;
      seenOcc.set(id, row);
      return rowToOccurrence(row);
    },
    insertOccurrence: (r) => {
      const row = occurrenceToRow(r);
      o.insert.run(row);
      seenOcc.set(r.id, row);
    },
    updateOccurrence: (r) => {
      const row = occurrenceToRow(r);
      const before = seenOcc.get(r.id);
      const info = before
        ? partialUpdate('occurrences', OCCURRENCE_COLUMNS, partialOcc, before, row)
        : o.update.run(occurrenceUpdateParams(r));
      changed(info!, 'occurrence', r.id);
      seenOcc.set(r.id, row);
    },
    getAttempt: (id) => {
      const row = a.get.get(id) as unknown[] | undefined;
      if (!row) return undefined;
      seenAtt.set(id, row);
      return rowToAttempt(row);
    },
    insertAttempt: (r) => {
      const row = attemptToRow(r);
      a.insert.run(row);
      seenAtt.set(r.id, row);
    },
    updateAttempt: (r) => {
      const row = attemptToRow(r);
      const before = seenAtt.get(r.id);
      const info = before ? partialUpdate('attempts', ATTEMPT_COLUMNS, partialAtt, before, row) : a.update.run(attemptUpdateParams(r));
      changed(info!, 'attempt', r.id);
      seenAtt.set(r.id, row);
    },
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
    listUnacknowledgedAttempts: (limit, afterId) => (a.unacknowledged.all(afterId ?? '', limit) as unknown[][]).map(rowToAttempt),
    listPendingFallbacks: (limit, afterId) => (o.pendingFallbacks.all(afterId ?? '', limit) as unknown[][]).map(rowToOccurrence),
  };

  const run = db.transaction((fn: (t: StoreTx) => unknown) => fn(tx));
  let depth = 0;
  const forget = () => {
    seenOcc.clear();
    seenAtt.clear();
  };
  return {
    close: async () => {
      await checkpointer?.close();
    },
    transact<T>(fn: (t: StoreTx) => T): T {
      // The memory of rows read lives for one outermost call (the caller's own transaction,
      // if any, may roll back afterwards, and other writers may change rows between calls).
      if (depth === 0) forget();
      depth++;
      try {
        return run(fn) as T;
      } catch (err) {
        // A rolled-back savepoint may have undone rows we remember: forget them all.
        forget();
        throw err;
      } finally {
        depth--;
        if (depth === 0) forget();
      }
    },
  };
}
