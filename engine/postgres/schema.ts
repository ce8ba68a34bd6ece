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

/** The store's tables, a referenced table before the one that references it. */
const TABLES = [occurrences, attempts, series];

/** The schema, as idempotent statements (no parameters, several statements: the simple query protocol). */
export const POSTGRES_ENGINE_SCHEMA_SQL: string = renderTables(TABLES, 'postgres');

/** Every table and index the schema creates, by name. */
const RELATIONS: string[] = TABLES.flatMap((t) => [t.name, ...t.indexes.map((ix) => ix.name)]);

/** How often the DDL is tried again when PostgreSQL ends it as one side of a deadlock. */
const DEADLOCK_TRIES = 5;

/**
 * Creates the store's tables when absent, in one transaction under an advisory lock (so that
 * hosts starting together do not race on `CREATE TABLE IF NOT EXISTS`). Tables go to the
 * connection's `search_path` (its first schema).
 *
 * When every table and index is already there it runs no DDL at all: `CREATE INDEX IF NOT
 * EXISTS` takes a SHARE lock on its table before it finds the index, and a host starting
 * beside one already dispatching would then lock `occurrences` and `attempts` in the order
 * opposite to a commit's and deadlock with it. When DDL must run (a new database, or an
 * upgrade that adds an index while another host writes), a deadlock is tried again.
 */
export async function ensurePostgresEngineSchema(db: Queryable): Promise<void> {
  if (await schemaPresent(db)) return;
  for (let attempt = 1; ; attempt++) {
    try {
      // Several statements in one simple query run as one implicit transaction (all or
      // nothing), which also bounds the advisory lock; no explicit BEGIN that could leave a
      // pooled connection inside an aborted transaction.
      await db.query({
        text: `SELECT pg_advisory_xact_lock(${SCHEMA_LOCK}); ${POSTGRES_ENGINE_SCHEMA_SQL}`,
      });
      return;
    } catch (err) {
      if ((err as { code?: unknown }).code !== '40P01' || attempt >= DEADLOCK_TRIES) throw err;
    }
  }
}

/** Whether the connection's first schema has every table and index (read from the catalog, no lock on the tables). */
async function schemaPresent(db: Queryable): Promise<boolean> {
  const { rows } = await db.query({
    text: `SELECT count(*)::int AS n FROM pg_class
            WHERE relnamespace = current_schema()::regnamespace AND relname = ANY($1::text[])`,
    values: [RELATIONS],
  });
  return rows[0]!['n'] === RELATIONS.length;
}
