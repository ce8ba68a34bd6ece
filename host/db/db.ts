/**
 * The host's one asynchronous query contract, {@link Db}, which both dialects implement
 * (host/db/sqlite-db.ts, host/db/postgres-db.ts). Every module in host/db/ takes a `Db` and
 * writes ONE SQL text per query for both dialects.
 *
 * - Placeholders: `?` (positional) or `@name` (named, the params an object keyed by name
 *   without the `@`), as better-sqlite3 takes them; PostgreSQL gets them translated
 *   (host/db/placeholders.ts). One text uses one style.
 * - Portable SQL: `INSERT … ON CONFLICT DO NOTHING` / `ON CONFLICT (cols) DO UPDATE`,
 *   `COALESCE`, `RETURNING`; snake_case aliases (PostgreSQL folds unquoted names to lower
 *   case). Where the dialects truly differ, the module branches on `db.dialect` locally.
 * - Rows look alike: on PostgreSQL `bigint` and `numeric` arrive as numbers and `boolean` as 0/1.
 * - Transactions are explicit: `tx(fn)` runs `fn` with a handle, and only the statements made
 *   on that handle are the transaction's. A statement on the Db itself from inside `fn` is
 *   another connection's (PostgreSQL) or waits for the transaction to end (SQLite): pass the
 *   handle down. `tx()` on a handle is a SAVEPOINT. What must commit with an engine unit of
 *   work is passed to the engine's commit instead (docs/decisions/0025).
 * @module
 */
import type { Database } from 'better-sqlite3';
import type pg from 'pg';

export type Dialect = 'sqlite' | 'postgres';
/** Positional values (for `?`) or named ones (for `@name`, keyed without the `@`). */
export type Params = readonly unknown[] | Readonly<Record<string, unknown>>;

/** The asynchronous query interface both dialects implement (see the module header). */
export interface Db {
  readonly dialect: Dialect;
  /** The first row, or undefined. */
  get<R>(text: string, params?: Params): Promise<R | undefined>;
  all<R>(text: string, params?: Params): Promise<R[]>;
  /** A statement without rows (or whose rows are not wanted): how many rows it changed. */
  run(text: string, params?: Params): Promise<{ changes: number }>;
  /** A script of statements without parameters (migrations). */
  exec(text: string): Promise<void>;
  /**
   * A transaction: commits when `fn` resolves, rolls back when it throws. On the handle it
   * passes, a nested `tx()` is a SAVEPOINT. PostgreSQL: SERIALIZABLE, run again after a
   * serialization failure or deadlock, so `fn` must only touch the database.
   */
  tx<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /** Closes the connection (SQLite) or the pool (PostgreSQL). Idempotent. */
  close(): Promise<void>;
}

/** The SQLite implementation, with the pieces only SQLite has. */
export interface SqliteDb extends Db {
  readonly dialect: 'sqlite';
  /** The better-sqlite3 connection (admin commands, the engine's SQLite store). */
  readonly raw: Database;
  /**
   * Runs `fn` holding the connection's lock: no host transaction runs meanwhile, and none
   * starts until `fn` settles. The engine's SQLite store on the same connection goes through
   * it. Never call it from inside a transaction of this Db (it would wait for itself).
   */
  exclusive<T>(fn: () => T | Promise<T>): Promise<T>;
  /**
   * A handle whose statements run at once, without the lock: for code that already holds it
   * (the host's writes the engine's store makes inside its commit, under `exclusive`).
   */
  readonly direct: Db;
  /** Whether the connection is open. */
  readonly open: boolean;
  /**
   * Runs `fn` when `close()` is called, before the connection closes (the engine store stops
   * its checkpoint worker, which holds a second connection to the file).
   */
  beforeClose(fn: () => unknown): void;
}

/** The PostgreSQL implementation. */
export interface PostgresDb extends Db {
  readonly dialect: 'postgres';
  /** The pool (the engine's PostgreSQL store shares it). */
  readonly pool: pg.Pool;
}

/**
 * The columns of a joined row that carry `prefix` (`k_id`, `k_name`, ...), without it: the
 * row of the second table of a join that also selects `a.*` (a credential and its account).
 */
export function unprefixed<R>(row: object, prefix: string): R {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row))
    if (key.startsWith(prefix)) out[key.slice(prefix.length)] = value;
  return out as R;
}

/**
 * A subquery of the strings of one JSON-array parameter (`?`), to write `col IN ${idsIn(db)}` with
 * `JSON.stringify(ids)`: a whole batch's ids in one statement on either dialect.
 */
export function idsIn(db: Pick<Db, 'dialect'>): string {
  return db.dialect === 'sqlite'
    ? '(SELECT value FROM json_each(?))'
    : '(SELECT jsonb_array_elements_text(CAST(? AS jsonb)))';
}

/** Whether `s` names a PostgreSQL database (`postgres://` or `postgresql://`). */
export function isPostgresUrl(s: string): boolean {
  return /^postgres(ql)?:\/\//i.test(s);
}
