/**
 * The {@link Db} contract on a node-postgres pool. A transaction is SERIALIZABLE on a pooled
 * client, run again (up to {@link PG_TX_ATTEMPTS} times) after a serialization failure (40001)
 * or a deadlock (40P01): so its `fn` must only touch the database (no side effects outside it,
 * or only idempotent ones) and must not keep state across attempts. Only the statements made on
 * the handle it passes are part of it (docs/decisions/0025).
 * @module
 */
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { PoolConfig } from 'pg';
import type { Db, Params, PostgresDb } from './db.js';
import { pgValues, toPostgres } from './placeholders.js';

const require = createRequire(import.meta.url);
/**
 * node-postgres, loaded on first use: a server on SQLite never loads it (loading it costs
 * some 0.1 s of every start, which a restart's readiness waits for).
 */
export const loadPg = (): typeof pg => require('pg') as typeof pg;

/** How many times a PostgreSQL transaction runs at most (the first run included). */
export const PG_TX_ATTEMPTS = 12;
const PG_RETRY = new Set(['40001', '40P01']);

// Rows like SQLite's: int8 and numeric as numbers, boolean as 0/1. Per query (not pg's
// global types, not the pool's): the engine's store on the same pool parses its own rows.
const PG_TYPES = {
  getTypeParser(oid: number, format?: string): (value: string) => unknown {
    if (oid === 20 || oid === 1700) return (v: string) => (v === null ? null : Number(v));
    if (oid === 16) return (v: string) => (v === null ? null : v === 't' ? 1 : 0);
    return loadPg().types.getTypeParser(oid, (format ?? 'text') as 'text') as (
      value: string,
    ) => unknown;
  },
};

/** What the statements need of a pool or of one connection. */
export interface PgQueryable {
  query(
    config: pg.QueryConfig<unknown[]> | string,
  ): Promise<pg.QueryResult<Record<string, unknown>>>;
}

const pgStatements = (q: () => PgQueryable) => {
  const query = (text: string, params: Params | undefined) => {
    const t = toPostgres(text);
    return q().query({
      name: t.name,
      text: t.text,
      values: pgValues(t, params, text),
      types: PG_TYPES,
    });
  };
  return {
    async get<R>(text: string, params?: Params): Promise<R | undefined> {
      return (await query(text, params)).rows[0] as R | undefined;
    },
    async all<R>(text: string, params?: Params): Promise<R[]> {
      return (await query(text, params)).rows as R[];
    },
    async run(text: string, params?: Params): Promise<{ changes: number }> {
      return { changes: (await query(text, params)).rowCount ?? 0 };
    },
    async exec(text: string): Promise<void> {
      await q().query({ text });
    },
  };
};

/** Opens a pool on `url` (or takes `config`) as a {@link PostgresDb}. */
export function openPostgresDb(config: string | PoolConfig): PostgresDb {
  const pool = new (loadPg().Pool)(
    typeof config === 'string' ? { connectionString: config } : config,
  );
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return wrapPostgres(pool);
}

/** Wraps a pool; closing the Db ends the pool. */
export function wrapPostgres(pool: pg.Pool): PostgresDb {
  let closed = false;
  const db: PostgresDb = {
    dialect: 'postgres',
    pool,
    ...pgStatements(() => pool),
    async tx<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        try {
          return await pgTransaction(pool, fn);
        } catch (err) {
          const code = (err as { code?: unknown }).code;
          if (attempt >= PG_TX_ATTEMPTS || typeof code !== 'string' || !PG_RETRY.has(code))
            throw err;
          // Exponential backoff with full jitter (2 ms doubling, at most 250 ms), so that contending
          // transactions spread out instead of colliding again.
          await new Promise((resolve) =>
            setTimeout(resolve, Math.random() * Math.min(250, 2 ** attempt)),
          );
        }
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
  return db;
}

/** One run of a transaction on a pooled client. */
async function pgTransaction<T>(pool: pg.Pool, fn: (tx: Db) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
    try {
      const result = await fn(pgClientDb(client));
      await client.query('COMMIT');
      return result;
    } catch (err) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      throw err;
    }
  } finally {
    client.release(broken);
  }
}

/**
 * A {@link Db} over one connection inside a transaction the caller opened (a host
 * transaction's handle, or the engine's store's commit running the host's writes): its
 * statements run on that connection, and `tx()` is a SAVEPOINT.
 */
export function pgClientDb(client: PgQueryable): Db {
  let savepoints = 0;
  const handle: Db = {
    dialect: 'postgres',
    ...pgStatements(() => client),
    async tx<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
      const name = `wk_sp_${++savepoints}`;
      await client.query(`SAVEPOINT ${name}`);
      try {
        const result = await fn(handle);
        await client.query(`RELEASE SAVEPOINT ${name}`);
        return result;
      } catch (err) {
        await client.query(`ROLLBACK TO SAVEPOINT ${name}`);
        throw err;
      }
    },
    close: () => Promise.reject(new Error('sql: close() on a transaction handle')),
  };
  return handle;
}
