/**
 * The engine's Store on the host's database, and the only way the host reaches the engine's
 * tables (series, occurrences, attempts: docs/decisions/0021): on SQLite the engine's SQLite
 * store on the same connection, each call holding the connection's lock
 * ({@link SqliteDb.exclusive}) so that it never runs inside, or interleaves with, a host
 * transaction awaiting something; on PostgreSQL the engine's PostgreSQL store on the same pool.
 * One store per database: the runtime's ({@link createEngineStore}), which the host's reads
 * ({@link engineReads}) and maintenance writes ({@link engineStore}) go through too.
 * @module
 */
import type { CommitOptions, Store, StoreWrite } from '../../engine/index.js';
import type { SettleScope, StoreMaintenance, StoreReads } from '../../engine/internals.js';
import {
  createPostgresReads,
  createPostgresStore,
  type PostgresStore,
  type Queryable,
} from '../../engine/postgres/index.js';
import {
  createSqliteReads,
  createSqliteStore,
  type SqliteStore,
} from '../../engine/sqlite/index.js';
import { inSingleFile } from '../assets.js';
import { pgClientDb, type Db, type PostgresDb, type SqliteDb } from './sql.js';

/**
 * The engine's Store with its read model and maintenance writes. A commit's `writes` are the
 * host's: each gets a {@link Db} whose statements are the commit's transaction
 * (docs/decisions/0025).
 */
export type EngineStore = Store<Db> & StoreReads & StoreMaintenance;

/** The engine's SQLite store, as the runtime and the guard test see it (its rebuild count). */
export type SqliteEngineStore = EngineStore & Pick<SqliteStore, 'restores' | 'unfolded'>;

/** One write of the host's made in a unit's commit transaction, on the handle `tx` of that transaction. */
export type UnitWrite = StoreWrite<Db>;

/** Each database's store (one per database and process). */
const stores = new WeakMap<Db, EngineStore>();
/** Readers of databases no store was made for in this process (an operator's tool). */
const readers = new WeakMap<Db, StoreReads>();
/** Each database's engine store's settle (docs/decisions/0016); absent where the tables are always up to date. */
const settlers = new WeakMap<Db, (scope?: SettleScope) => Promise<void>>();

/**
 * Applies what the engine's journal holds for the rows a read covers (by account, or the
 * accounts of some occurrences or attempts; everything when `scope` is absent), for a test
 * that reads the engine's tables itself. The host never needs it: the engine's reads do it.
 * Nothing to do on PostgreSQL.
 */
export async function settleEngine(db: Db, scope?: SettleScope): Promise<void> {
  await settlers.get(db)?.(scope);
}

/**
 * The Store for `db` (the Db that openDatabase returned, not a transaction's handle), made once.
 * It never joins a host transaction: never call it from inside one (on SQLite it would wait for
 * it); what must commit with a unit goes in its commit's `writes`.
 */
export function createEngineStore(db: Db): EngineStore {
  const known = stores.get(db);
  if (known) return known;
  let store: EngineStore;
  if (db.dialect === 'postgres')
    store = withHostWrites(createPostgresStore((db as PostgresDb).pool));
  else {
    const sqlite = sqliteOf(db);
    // WAL checkpoints on a worker thread rather than inside the spike's commits
    // (engine/sqlite/checkpointer.ts). The worker loads better-sqlite3 from node_modules,
    // which the single-file build has none of: it checkpoints inside commits.
    const engine = createSqliteStore(sqlite.raw, {
      checkpointInWorker: !sqlite.raw.memory && !inSingleFile(),
    });
    sqlite.beforeClose(() => engine.close());
    store = lockedStore(sqlite, engine);
    settlers.set(db, (scope) => store.settle!(scope));
  }
  stores.set(db, store);
  return store;
}

/** The engine store of `db`: its records by id (`load`), its maintenance writes. Made when there is none yet. */
export function engineStore(db: Db): EngineStore {
  return createEngineStore(db);
}

/**
 * The engine's read model for `db`: its store's; without one in this process (an operator's
 * tool beside the running service), a reader of the tables as they are, which never folds the
 * SQLite journal (the service's store does).
 */
export function engineReads(db: Db): StoreReads {
  const store = stores.get(db);
  if (store) return store;
  let reader = readers.get(db);
  if (!reader) {
    if (db.dialect === 'postgres') reader = createPostgresReads((db as PostgresDb).pool);
    else {
      const sqlite = sqliteOf(db);
      reader = locked(sqlite, createSqliteReads(sqlite.raw));
    }
    readers.set(db, reader);
  }
  return reader;
}

function sqliteOf(db: Db): SqliteDb {
  const sqlite = db as SqliteDb;
  if (!('raw' in sqlite))
    throw new Error('the engine store: a transaction handle, not the database');
  return sqlite;
}

/** Every method of `target` under the connection's lock. */
function locked<T extends object>(db: SqliteDb, target: T): T {
  const out = {} as Record<string, unknown>;
  for (const [name, fn] of Object.entries(target)) {
    out[name] =
      typeof fn === 'function'
        ? (...args: unknown[]) => db.exclusive(() => (fn as (...a: unknown[]) => unknown)(...args))
        : fn;
  }
  return out as T;
}

/**
 * Every call of `store` under the connection's lock. A whole settle (the store's list methods
 * for the runtime and `settle()` fold everything first) takes the lock one slice at a time, so
 * that the server's requests (its health check, the API) are answered between slices: a
 * restart after a spike may find hundreds of thousands of journal rows to fold.
 */
function lockedStore(db: SqliteDb, store: SqliteStore): SqliteEngineStore {
  const settleAll = async () => {
    while (store.unfolded > 0) {
      await db.exclusive(() => store.foldSome());
      // The lock is not fair: give the statements that waited for it their turn.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };
  const settled =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await settleAll();
      return db.exclusive(() => fn(...args));
    };
  return {
    // The read model and the maintenance writes fold what they cover themselves.
    ...locked(db, store),
    get restores() {
      return store.restores;
    },
    get unfolded() {
      return store.unfolded;
    },
    load: (keys) => db.exclusive(() => store.load(keys)),
    commit: (changes, options) =>
      db.exclusive(() =>
        store.commit(
          changes,
          options?.writes ? { writes: options.writes.map((w) => () => w(db.direct)) } : undefined,
        ),
      ),
    listDue: (query) => db.exclusive(() => store.listDue(query)),
    listAttempts: settled((occurrenceId: string) => store.listAttempts(occurrenceId)),
    listUnacknowledgedAttempts: settled((limit: number, afterId?: string) =>
      store.listUnacknowledgedAttempts(limit, afterId),
    ),
    listPendingFallbacks: settled((limit: number, afterId?: string) =>
      store.listPendingFallbacks(limit, afterId),
    ),
    listStaleZoneOccurrences: settled((version: string, limit: number, afterId?: string) =>
      store.listStaleZoneOccurrences(version, limit, afterId),
    ),
    listSeriesWithoutNext: settled((limit: number, afterId?: string) =>
      store.listSeriesWithoutNext(limit, afterId),
    ),
    // Nothing unfolded (the usual case between dispatches): a scoped settle has nothing to do,
    // so it costs a property read, not the connection's lock.
    settle: async (scope) =>
      scope
        ? store.unfolded === 0 && store.foldError === null
          ? undefined
          : db.exclusive(() => store.settle(scope))
        : settleAll(),
  };
}

/** The PostgreSQL store, its commit's writes given the transaction's connection as a {@link Db}. */
function withHostWrites(store: PostgresStore): EngineStore {
  const commit = store.commit.bind(store);
  return Object.assign(store, {
    commit: (changes: Parameters<PostgresStore['commit']>[0], options?: CommitOptions<Db>) =>
      commit(
        changes,
        options?.writes
          ? { writes: options.writes.map((w) => (client: Queryable) => w(pgClientDb(client))) }
          : undefined,
      ),
  });
}
