/**
 * The host's query layer, one file a job: the {@link Db} contract (db.ts), the SQLite
 * connection with its in-process lock (sqlite-db.ts), the PostgreSQL pool with its retry of
 * serialization failures (postgres-db.ts) and the placeholder translation (placeholders.ts).
 * Modules of host/db/ import from here.
 * @module
 */
export {
  idsIn,
  isPostgresUrl,
  unprefixed,
  type Db,
  type Dialect,
  type Params,
  type PostgresDb,
  type SqliteDb,
} from './db.js';
export { toPostgres, type PgText } from './placeholders.js';
export { openSqliteDb, wrapSqlite } from './sqlite-db.js';
export {
  loadPg,
  openPostgresDb,
  pgClientDb,
  PG_TX_ATTEMPTS,
  wrapPostgres,
  type PgQueryable,
} from './postgres-db.js';
