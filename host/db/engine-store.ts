/**
 * The engine's Store on the host's database: on SQLite the engine's SQLite store on the same
 * connection, each call holding the connection's lock ({@link SqliteDb.exclusive}) so that it
 * never runs inside, or interleaves with, a host transaction awaiting something; on
 * PostgreSQL the engine's PostgreSQL store on the same pool.
 * @module
 */
import type { Store } from '../../engine/index.js';
import { createPostgresStore } from '../../engine/postgres/index.js';
import { createSqliteStore } from '../../engine/sqlite/index.js';
import type { Db, PostgresDb, SqliteDb } from './sql.js';

/** The Store for `db` (the Db that openDatabase returned, not a transaction's handle). */
export function createEngineStore(db: Db): Store {
  if (db.dialect === 'postgres') return createPostgresStore((db as PostgresDb).pool);
  const sqlite = db as SqliteDb;
  if (!('raw' in sqlite)) throw new Error('createEngineStore: a transaction handle, not the database');
  return lockedStore(sqlite, createSqliteStore(sqlite.raw));
}

/** Every call of `store` under the connection's lock. */
function lockedStore(db: SqliteDb, store: Store): Store {
  return {
    load: (keys) => db.exclusive(() => store.load(keys)),
    commit: (changes) => db.exclusive(() => store.commit(changes)),
    listDue: (query) => db.exclusive(() => store.listDue(query)),
    listAttempts: (id) => db.exclusive(() => store.listAttempts(id)),
    listUnacknowledgedAttempts: (limit, afterId) => db.exclusive(() => store.listUnacknowledgedAttempts(limit, afterId)),
    listPendingFallbacks: (limit, afterId) => db.exclusive(() => store.listPendingFallbacks(limit, afterId)),
    listStaleZoneOccurrences: (version, limit, afterId) => db.exclusive(() => store.listStaleZoneOccurrences(version, limit, afterId)),
    listSeriesWithoutNext: (limit, afterId) => db.exclusive(() => store.listSeriesWithoutNext(limit, afterId)),
  };
}
