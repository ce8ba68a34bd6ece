/**
 * The engine's Store on the host's database: on SQLite the engine's SQLite store on the same
 * connection, each call holding the connection's lock ({@link SqliteDb.exclusive}) so that it
 * never runs inside, or interleaves with, a host transaction awaiting something; on
 * PostgreSQL the engine's PostgreSQL store on the same pool.
 * @module
 */
import type { Store } from '../../engine/index.js';
import type { SettleScope } from '../../engine/internals.js';
import { createPostgresStore } from '../../engine/postgres/index.js';
import { createSqliteStore, type SqliteStore } from '../../engine/sqlite/index.js';
import { ambientQueryable, type Db, type PostgresDb, type SqliteDb } from './sql.js';

/** Each database's engine store's settle (docs/decisions/0016); absent where the tables are always up to date. */
const settlers = new WeakMap<Db, (scope?: SettleScope) => Promise<void>>();

/**
 * Before the host reads the engine's tables (occurrences, attempts) itself: applies what the
 * engine's journal holds for the rows the read covers (by account, or the accounts of some
 * occurrences or attempts; everything when `scope` is absent). Call it with the database, not a
 * transaction's handle, before the transaction. Nothing to do on PostgreSQL.
 */
export async function settleEngine(db: Db, scope?: SettleScope): Promise<void> {
  await settlers.get(db)?.(scope);
}

/**
 * The Store for `db` (the Db that openDatabase returned, not a transaction's handle). Called from
 * inside a host transaction's flow, its statements join that transaction, on either dialect.
 */
export function createEngineStore(db: Db): Store {
  if (db.dialect === 'postgres') return createPostgresStore(ambientQueryable(db as PostgresDb));
  const sqlite = db as SqliteDb;
  if (!('raw' in sqlite)) throw new Error('createEngineStore: a transaction handle, not the database');
  const store = lockedStore(sqlite, createSqliteStore(sqlite.raw));
  // The newest store of a database answers its settles (one server makes one; seeding before it makes its own and settles them).
  settlers.set(db, (scope) => store.settle!(scope));
  return store;
}

/**
 * Every call of `store` under the connection's lock. A whole settle (the store's list methods
 * and `settle()` fold everything first) takes the lock one slice at a time, so that the
 * server's requests (its health check, the API) are answered between slices: a restart after a
 * spike may find hundreds of thousands of journal rows to fold.
 */
function lockedStore(db: SqliteDb, store: SqliteStore): Store {
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
    load: (keys) => db.exclusive(() => store.load(keys)),
    commit: (changes) => db.exclusive(() => store.commit(changes)),
    listDue: (query) => db.exclusive(() => store.listDue(query)),
    listAttempts: settled((id: string) => store.listAttempts(id)),
    listUnacknowledgedAttempts: settled((limit: number, afterId?: string) => store.listUnacknowledgedAttempts(limit, afterId)),
    listPendingFallbacks: settled((limit: number, afterId?: string) => store.listPendingFallbacks(limit, afterId)),
    listStaleZoneOccurrences: settled((version: string, limit: number, afterId?: string) =>
      store.listStaleZoneOccurrences(version, limit, afterId),
    ),
    listSeriesWithoutNext: settled((limit: number, afterId?: string) => store.listSeriesWithoutNext(limit, afterId)),
    // Nothing unfolded (the usual case between dispatches): a scoped settle has nothing to do,
    // so it costs a property read, not the connection's lock (every host read calls it).
    settle: async (scope) =>
      scope ? (store.unfolded === 0 && store.foldError === null ? undefined : db.exclusive(() => store.settle(scope))) : settleAll(),
  };
}
