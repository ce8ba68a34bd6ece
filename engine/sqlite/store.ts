/**
 * The engine's {@link Store} port on better-sqlite3 (the `./sqlite` entry of the engine
 * package), with a dispatch journal (docs/decisions/0016): the options, the store's interface,
 * and {@link createSqliteStore}, which puts the parts together. Each port call does its work
 * synchronously in one database transaction and answers with a settled promise, except a
 * commit with writes of the caller's, whose transaction stays open across their awaits (the
 * store's other calls wait for it at its gate).
 * - ./statements.ts: the prepared statements;
 * - ./unit-of-work.ts: `load` and `commit`; the overlay notes a unit's rows once its
 *   transaction has committed, and is rebuilt from the journal only at open (docs/decisions/0025);
 * - ./fold-scheduler.ts: when the journal is folded into the tables (./fold.ts: how);
 * - ./lists.ts: `listDue` and the recovery lists;
 * - ./reads.ts: the read model and maintenance writes the store also serves.
 * @module
 */
import type { Database } from 'better-sqlite3';
import type { CommitResult, SettleScope, Snapshot, Store } from '../ports.js';
import type { StoreMaintenance, StoreReads } from '../reads.js';
import { startCheckpointer } from './checkpointer.js';
import { Fold } from './fold.js';
import { FoldScheduler } from './fold-scheduler.js';
import { Journal } from './journal.js';
import { Overlay } from './overlay.js';
import { createStoreLists } from './lists.js';
import { createSqliteMaintenance, createSqliteReads } from './reads.js';
import { ensureEngineSchema } from './schema.js';
import { prepareStoreStatements } from './statements.js';
import { TableVersions } from './table-versions.js';
import { Conflict, createUnitOfWork, type Staged } from './unit-of-work.js';

/** Options of {@link createSqliteStore}. */
export interface SqliteStoreOptions {
  /**
   * Run WAL checkpoints on a second connection in a worker thread (PASSIVE, every
   * `checkpointIntervalMs`) and turn automatic checkpoints off on this connection. An
   * automatic checkpoint runs inside whichever commit or fold slice crosses the threshold,
   * copying and syncing thousands of pages on the event loop. Off by default (a worker per
   * store is heavy for tests).
   * @defaultValue false
   */
  checkpointInWorker?: boolean;
  /** Ms between two checkpoints of the worker (with `checkpointInWorker`). @defaultValue 250 */
  checkpointIntervalMs?: number;
  /**
   * SQLite page cache for this connection, in KiB (PRAGMA cache_size = -N).
   * @defaultValue 65536 (64 MiB)
   */
  cacheKiB?: number;
  /**
   * Create the store's tables when absent ({@link ensureEngineSchema}): for an embedder's own
   * database. The service applies its migrations instead (the journal table is the store's
   * own and is always created when absent). @defaultValue false
   */
  createTables?: boolean;
  /**
   * The background fold (docs/decisions/0016); `false` leaves the journal unfolded until a
   * {@link SqliteStore.settle} (tests of reads of unfolded rows).
   */
  fold?:
    | false
    | {
        /** Longest slice of folding between two yields to the event loop. @defaultValue 8 */
        sliceMs?: number;
        /** Fold once no commit came for this long. @defaultValue 50 */
        idleMs?: number;
        /** Fold between commits, busy or not, once the journal holds this many rows. @defaultValue 2,000,000 */
        maxRows?: number;
      };
  /**
   * How many of the most recent row images the overlay keeps in memory (older ones are read
   * from the journal). A spike's next load of a row is most often its acceptance, right after
   * the intent: 4,000 left no read of the journal in a 300k spike. An image costs about 1 KB.
   * @defaultValue 20,000
   */
  imageCacheRows?: number;
  /** Monotonic milliseconds, to time the fold's slices. @defaultValue performance.now */
  now?: () => number;
}

/** The engine's Store on SQLite, with its read model and maintenance writes (docs/decisions/0021). */
export interface SqliteStore extends Store<Database>, StoreReads, StoreMaintenance {
  /** Folds what a read needs (see {@link Store.settle}). */
  settle(scope?: SettleScope): Promise<void>;
  /** Journal rows not folded yet. */
  readonly unfolded: number;
  /**
   * How often the overlay was rebuilt from the whole journal since open (open's own rebuild not
   * counted): only after a read's fold inside a transaction of the caller's. Commits never cause
   * one; a test asserts it stays 0 through a spike.
   */
  readonly restores: number;
  /**
   * Folds the oldest journal rows for one slice of `fold.sliceMs` and answers how many are
   * left: for a caller that must not hold its connection through a whole `settle()` (the host
   * takes its connection's lock for each slice, so requests are served in between).
   */
  foldSome(): Promise<number>;
  /** Why the last background fold failed (the journal keeps its rows and the fold tries again), or null. */
  foldError: unknown;
  /** Stops the background fold and the checkpoint worker (the database stays open; the journal keeps what is not folded). */
  close(): Promise<void>;
}

/** Table versions a store's loads keep per kind for the commits that follow (a few batches' worth). */
const LOADED_VERSIONS = 16_384;

const IN_TRANSACTION =
  "the engine's SQLite store commits in a transaction of its own: pass what must commit with the unit as commit's `writes`, not a transaction around it";

/**
 * A {@link Store} on an open database. The service opens it with its migrations applied; an
 * embedder passes `createTables: true`. The database stays the caller's: close it yourself,
 * after `close()`.
 *
 * @example
 * const store = createSqliteStore(new Database('./wakeup.sqlite'), { createTables: true });
 */
export function createSqliteStore(db: Database, options: SqliteStoreOptions = {}): SqliteStore {
  if (options.createTables) ensureEngineSchema(db);
  db.pragma(`cache_size = -${Math.max(2048, Math.floor(options.cacheKiB ?? 65536))}`);
  const checkpointer =
    options.checkpointInWorker && !db.memory
      ? startCheckpointer(db, options.checkpointIntervalMs ?? 250)
      : null;
  const now = options.now ?? (() => performance.now());
  const overlay = new Overlay(options.imageCacheRows ?? 20_000);
  const journal = new Journal(db);
  journal.restore(overlay);
  const q = prepareStoreStatements(db);
  const versions = {
    occurrences: new TableVersions(LOADED_VERSIONS),
    attempts: new TableVersions(LOADED_VERSIONS),
  };
  const forgetVersions = () => {
    versions.occurrences.clear();
    versions.attempts.clear();
  };
  const { load, commitRows, commitWithWrites } = createUnitOfWork(
    db,
    q,
    journal,
    overlay,
    versions,
  );
  const lists = createStoreLists(q, overlay);
  const timing =
    options.fold === false ? null : { sliceMs: 8, idleMs: 50, maxRows: 2_000_000, ...options.fold };
  const folds = new FoldScheduler(db, overlay, journal, new Fold(db, overlay), q, timing, now);
  folds.onRestore = forgetVersions;

  /** Settles while a commit with writes holds the connection's transaction; null when none does. */
  let gate: Promise<unknown> | null = null;
  const waitGate = async () => {
    while (gate) await gate.catch(() => undefined);
  };
  const settleScope = (scope: SettleScope) => folds.settleScope(scope);

  const store: SqliteStore = {
    ...createSqliteReads(db, settleScope),
    // The maintenance writes the tables directly once this settle has run (./table-versions.ts).
    ...createSqliteMaintenance(db, (scope) => {
      forgetVersions();
      settleScope(scope);
    }),
    get foldError() {
      return folds.error;
    },
    set foldError(error: unknown) {
      folds.error = error;
    },
    get unfolded() {
      return overlay.rows;
    },
    get restores() {
      return folds.restores;
    },
    close: async () => {
      folds.close();
      await checkpointer?.close();
    },
    foldSome: async () => {
      if (gate) await waitGate();
      folds.slice();
      return overlay.rows;
    },
    settle: async (scope) => {
      if (gate) await waitGate();
      if (!scope) return folds.settleAll();
      folds.settleScope(scope);
    },
    load: async (keys): Promise<Snapshot> => {
      if (gate) await waitGate();
      folds.check();
      return load(keys);
    },
    commit: async (changes, options): Promise<CommitResult> => {
      if (gate) await waitGate();
      folds.check();
      if (db.inTransaction) throw new Error(IN_TRANSACTION);
      const writes = options?.writes ?? [];
      let staged: Staged;
      try {
        if (writes.length === 0) staged = commitRows(changes);
        else {
          const running = commitWithWrites(changes, writes);
          gate = running;
          try {
            staged = await running;
          } finally {
            gate = null;
          }
        }
      } catch (err) {
        if (err instanceof Conflict) return { ok: false, conflicts: err.conflicts };
        throw err;
      }
      Journal.note(staged.entries, staged.seqs, overlay);
      folds.committed();
      return { ok: true };
    },
    listDue: async (query) => {
      if (gate) await waitGate();
      folds.check();
      return lists.listDue(query);
    },
    listAttempts: async (occurrenceId) => {
      await folds.settleAll();
      return lists.listAttempts(occurrenceId);
    },
    listUnacknowledgedAttempts: async (limit, afterId) => {
      await folds.settleAll();
      return lists.listUnacknowledgedAttempts(limit, afterId);
    },
    listPendingFallbacks: async (limit, afterId) => {
      await folds.settleAll();
      return lists.listPendingFallbacks(limit, afterId);
    },
    listStaleZoneOccurrences: async (version, limit, afterId) => {
      await folds.settleAll();
      return lists.listStaleZoneOccurrences(version, limit, afterId);
    },
    listSeriesWithoutNext: async (limit, afterId) => {
      await folds.settleAll();
      return lists.listSeriesWithoutNext(limit, afterId);
    },
  };
  return store;
}
