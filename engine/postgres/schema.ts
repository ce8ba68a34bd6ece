/**
 * The PostgreSQL store's tables (occurrences, attempts, series), rendered from the same
 * definitions as the SQLite store's (engine/tables), in PostgreSQL's types (`bigint` epoch ms,
 * `boolean`, `jsonb`), plus each due row's lease (`lease_owner`, `lease_until`) for several
 * processes sharing the work. Ids sort bytewise (`COLLATE "C"`), as the port's keyset order
 * and the other stores do, whatever the database's locale.
 *
 * {@link ensurePostgresEngineSchema} applies it idempotently under an advisory lock, so
 * several hosts starting at once do not race; the service runs it before its own PostgreSQL
 * migrations (host/db/migrate.ts).
 * @module
 */
import { attempts } from '../tables/attempts.js';
import { occurrences } from '../tables/occurrences.js';
import { renderTables } from '../tables/render.js';
import { series } from '../tables/series.js';
import type { Queryable } from './rows.js';

/** Advisory lock key held while the schema is applied (any constant; "wakeupeng" in ASCII, truncated). */
const SCHEMA_LOCK = 0x77616b6575;

/** The schema, as idempotent statements (no parameters, several statements: the simple query protocol). */
export const POSTGRES_ENGINE_SCHEMA_SQL: string = renderTables(
  [occurrences, attempts, series],
  'postgres',
);

/**
 * Creates the store's tables when absent, in one transaction under an advisory lock (so that
 * hosts starting together do not race on `CREATE TABLE IF NOT EXISTS`). Tables go to the
 * connection's `search_path` (its first schema).
 */
export async function ensurePostgresEngineSchema(db: Queryable): Promise<void> {
  // Several statements in one simple query run as one implicit transaction (all or nothing),
  // which also bounds the advisory lock; no explicit BEGIN that could leave a pooled
  // connection inside an aborted transaction.
  await db.query({
    text: `SELECT pg_advisory_xact_lock(${SCHEMA_LOCK}); ${POSTGRES_ENGINE_SCHEMA_SQL}`,
  });
}
