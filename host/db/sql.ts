/**
 * The host's one asynchronous query layer (issue 17): {@link Db}, implemented on SQLite
 * (better-sqlite3, {@link openSqliteDb}) and on PostgreSQL (node-postgres, {@link openPostgresDb}).
 * Every module in host/db/ takes a `Db` and writes ONE SQL text per query for both dialects.
 *
 * - Placeholders: `?` (positional) or `@name` (named, the params an object keyed by name
 *   without the `@`), as better-sqlite3 takes them. For PostgreSQL each text is translated
 *   once (cached) to `$1..$n`, skipping string literals, quoted identifiers and comments; a
 *   named parameter used twice is one `$k`. One text uses one style.
 * - Portable SQL: `INSERT … ON CONFLICT DO NOTHING` / `ON CONFLICT (cols) DO UPDATE`,
 *   `COALESCE`, `RETURNING`; snake_case aliases (PostgreSQL folds unquoted names to lower
 *   case). Where the dialects truly differ, the module branches on `db.dialect` locally.
 * - Rows look alike: on PostgreSQL `bigint` and `numeric` arrive as numbers and `boolean` as
 *   0/1 (per query, so the engine's store sharing the pool keeps its own parsing).
 * - Transactions: `tx(fn)` runs `fn` with a handle whose statements are the transaction's;
 *   `tx()` on that handle is a SAVEPOINT. On SQLite the connection is one and synchronous:
 *   while a transaction runs (across awaits), every other statement and transaction of the
 *   process waits for it (an in-process lock; statements run at once when none runs). On
 *   PostgreSQL a transaction is SERIALIZABLE on a pooled client, run again (up to
 *   {@link PG_TX_ATTEMPTS} times) after a serialization failure (40001) or a deadlock
 *   (40P01): so `fn` must only touch the database (no side effects outside it, or only
 *   idempotent ones) and must not keep state across attempts.
 * - Inside a transaction's async flow, statements and `tx()` on the Db itself (not only on the
 *   handle `tx` passes) join that transaction (AsyncLocalStorage), so helpers that close over
 *   the Db neither wait for the transaction (SQLite) nor run outside it (PostgreSQL).
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import Sqlite from 'better-sqlite3';
import type { Database, Statement } from 'better-sqlite3';
import type pg from 'pg';
import type { PoolClient, PoolConfig } from 'pg';

const require = createRequire(import.meta.url);
/**
 * node-postgres, loaded on first use: a server on SQLite never loads it (loading it costs
 * some 0.1 s of every start, which a restart's readiness waits for).
 */
export const loadPg = (): typeof pg => require('pg') as typeof pg;

export type Dialect = 'sqlite' | 'postgres';
/** Positional values (for `?`) or named ones (for `@name`, keyed without the `@`). */
export type Params = readonly unknown[] | Readonly<Record<string, unknown>>;

/**
 * A subquery of the strings of one JSON-array parameter (`?`), to write `col IN ${idsIn(db)}` with
 * `JSON.stringify(ids)`: a whole batch's ids in one statement on either dialect.
 */
/**
 * The columns of a joined row that carry `prefix` (`k_id`, `k_name`, ...), without it: the
 * row of the second table of a join that also selects `a.*` (a credential and its account).
 */
export function unprefixed<R>(row: object, prefix: string): R {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) if (key.startsWith(prefix)) out[key.slice(prefix.length)] = value;
  return out as R;
}

export function idsIn(db: Pick<Db, 'dialect'>): string {
  return db.dialect === 'sqlite' ? '(SELECT value FROM json_each(?))' : '(SELECT jsonb_array_elements_text(CAST(? AS jsonb)))';
}

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
   * starts until `fn` settles. The engine's SQLite store on the same connection goes through it.
   */
  exclusive<T>(fn: () => T | Promise<T>): Promise<T>;
  /** Whether the connection is open. */
  readonly open: boolean;
}

/** The PostgreSQL implementation. */
export interface PostgresDb extends Db {
  readonly dialect: 'postgres';
  /** The pool (the engine's PostgreSQL store shares it). */
  readonly pool: pg.Pool;
}

// ---------------------------------------------------------------------------------------------
// Placeholders

/** A text translated for PostgreSQL: `$n` placeholders, and the names in `$n` order when named. */
export interface PgText {
  text: string;
  /**
   * The name of its prepared statement: node-postgres prepares a named statement once per
   * pooled connection and then only binds and executes it (issue 27: no Parse per query).
   */
  name: string;
  /** Positional: how many `?`. */
  count: number;
  /** Named: the parameter names, `$1` first; null for positional texts. */
  names: readonly string[] | null;
}

const IDENT_START = /[A-Za-z_]/;
const IDENT = /[A-Za-z0-9_]/;
const translated = new Map<string, PgText>();

/**
 * Translates `?` and `@name` placeholders to PostgreSQL's `$n`, skipping string literals
 * (`'…'`, `E'…'`), quoted identifiers (`"…"`), dollar-quoted strings and comments. Cached per text.
 */
export function toPostgres(text: string): PgText {
  const cached = translated.get(text);
  if (cached) return cached;
  let out = '';
  let count = 0;
  const names: string[] = [];
  const index = new Map<string, number>();
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      let j = i + 1;
      for (;;) {
        if (j >= n) break;
        if (text[j] === c) {
          if (text[j + 1] === c) j += 2;
          else break;
        } else if (c === "'" && text[j] === '\\' && (text[i - 1] === 'E' || text[i - 1] === 'e')) j += 2;
        else j++;
      }
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' && text[i + 1] === '-') {
      const j = text.indexOf('\n', i);
      const end = j < 0 ? n : j;
      out += text.slice(i, end);
      i = end;
    } else if (c === '/' && text[i + 1] === '*') {
      const j = text.indexOf('*/', i + 2);
      const end = j < 0 ? n : j + 2;
      out += text.slice(i, end);
      i = end;
    } else if (c === '$' && /^\$[A-Za-z_]*\$/.test(text.slice(i, i + 64))) {
      const tag = /^\$[A-Za-z_]*\$/.exec(text.slice(i, i + 64))![0];
      const j = text.indexOf(tag, i + tag.length);
      const end = j < 0 ? n : j + tag.length;
      out += text.slice(i, end);
      i = end;
    } else if (c === '?') {
      count++;
      out += `$${count}`;
      i++;
    } else if (c === '@' && IDENT_START.test(text[i + 1] ?? '')) {
      let j = i + 1;
      while (j < n && IDENT.test(text[j]!)) j++;
      const name = text.slice(i + 1, j);
      let k = index.get(name);
      if (k === undefined) {
        names.push(name);
        k = names.length;
        index.set(name, k);
      }
      out += `$${k}`;
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  if (count > 0 && names.length > 0) throw new Error(`sql: a text mixes ? and @name placeholders: ${text}`);
  const name = `wk_${createHash('sha1').update(out).digest('base64url').slice(0, 20)}`;
  const result: PgText = { text: out, name, count, names: names.length > 0 ? names : null };
  translated.set(text, result);
  return result;
}

/** The values for a translated text, in `$n` order. */
function pgValues(t: PgText, params: Params | undefined, text: string): unknown[] {
  if (t.names) {
    if (params === undefined || Array.isArray(params)) throw new Error(`sql: named parameters expected: ${text}`);
    const named = params as Readonly<Record<string, unknown>>;
    return t.names.map((name) => {
      if (!(name in named)) throw new Error(`sql: missing named parameter @${name}: ${text}`);
      return pgValue(named[name]);
    });
  }
  const list = params === undefined ? [] : Array.isArray(params) ? (params as readonly unknown[]) : null;
  if (list === null) throw new Error(`sql: positional parameters expected: ${text}`);
  if (list.length !== t.count) throw new Error(`sql: ${t.count} parameters expected, ${list.length} given: ${text}`);
  return list.map(pgValue);
}

// better-sqlite3 refuses booleans, so callers pass 0/1; undefined is null on both.
const pgValue = (v: unknown): unknown => (v === undefined ? null : v);

// ---------------------------------------------------------------------------------------------
// SQLite

const SQLITE_PARAMS = (params: Params | undefined): unknown[] =>
  params === undefined ? [] : Array.isArray(params) ? (params as unknown[]) : [params];

/**
 * Opens a better-sqlite3 connection as a {@link SqliteDb} (no pragmas, no migrations: see
 * host/db/open.ts). `options` are better-sqlite3's.
 */
export function openSqliteDb(file: string, options?: Sqlite.Options): SqliteDb {
  return wrapSqlite(new Sqlite(file, options));
}

/** Wraps an open better-sqlite3 connection. */
export function wrapSqlite(raw: Database): SqliteDb {
  const cache = new Map<string, Statement<unknown[], unknown>>();
  const stmt = (text: string): Statement<unknown[], unknown> => {
    let s = cache.get(text);
    if (!s) {
      s = raw.prepare<unknown[], unknown>(text);
      cache.set(text, s);
    }
    return s;
  };
  // The lock: held by a top-level transaction or an exclusive() call, across its awaits.
  let held = false;
  let waiters: Array<() => void> = [];
  const release = () => {
    held = false;
    const wake = waiters;
    waiters = [];
    for (const w of wake) w();
  };
  // Resolves once the lock is free; the caller must re-check `held` synchronously (loop).
  const waitFree = () => new Promise<void>((resolve) => waiters.push(resolve));
  const acquire = async () => {
    while (held) await waitFree();
    held = true;
  };

  let savepoints = 0;
  // Statements of a handle: `direct` ones belong to the lock holder and never wait. Outer
  // statements issued from inside a running transaction's async flow join it (see Ambient).
  const statements = (direct: boolean) => {
    const ready = async () => {
      while (held) await waitFree();
    };
    return {
      async get<R>(text: string, params?: Params): Promise<R | undefined> {
        if (!direct) {
          const inTx = ambientOf(db);
          if (inTx) return inTx.get<R>(text, params);
          if (held) await ready();
        }
        return stmt(text).get(...SQLITE_PARAMS(params)) as R | undefined;
      },
      async all<R>(text: string, params?: Params): Promise<R[]> {
        if (!direct) {
          const inTx = ambientOf(db);
          if (inTx) return inTx.all<R>(text, params);
          if (held) await ready();
        }
        return stmt(text).all(...SQLITE_PARAMS(params)) as R[];
      },
      async run(text: string, params?: Params): Promise<{ changes: number }> {
        if (!direct) {
          const inTx = ambientOf(db);
          if (inTx) return inTx.run(text, params);
          if (held) await ready();
        }
        return { changes: stmt(text).run(...SQLITE_PARAMS(params)).changes };
      },
      async exec(text: string): Promise<void> {
        if (!direct) {
          const inTx = ambientOf(db);
          if (inTx) return inTx.exec(text);
          if (held) await ready();
        }
        raw.exec(text);
      },
    };
  };

  // A handle inside a transaction: its own statements, and tx() as a savepoint.
  const txHandle = (): Db => {
    const handle: Db = {
      dialect: 'sqlite',
      ...statements(true),
      async tx<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
        const name = `wk_sp_${++savepoints}`;
        raw.exec(`SAVEPOINT ${name}`);
        try {
          const result = await fn(handle);
          raw.exec(`RELEASE ${name}`);
          return result;
        } catch (err) {
          raw.exec(`ROLLBACK TO ${name}`);
          raw.exec(`RELEASE ${name}`);
          throw err;
        }
      },
      close: () => Promise.reject(new Error('sql: close() inside a transaction')),
    };
    return handle;
  };

  const db: SqliteDb = {
    dialect: 'sqlite',
    raw,
    get open() {
      return raw.open;
    },
    ...statements(false),
    async tx<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
      const inTx = ambientOf(db);
      if (inTx) return inTx.tx(fn);
      await acquire();
      const handle = txHandle();
      const scope: Ambient = { owner: db, handle, done: false };
      try {
        raw.exec('BEGIN IMMEDIATE');
        try {
          const result = await ambient.run(scope, () => fn(handle));
          raw.exec('COMMIT');
          return result;
        } catch (err) {
          if (raw.inTransaction) raw.exec('ROLLBACK');
          throw err;
        }
      } finally {
        scope.done = true;
        release();
      }
    },
    async exclusive<T>(fn: () => T | Promise<T>): Promise<T> {
      // Inside a transaction's flow the lock is already this flow's.
      if (ambientOf(db)) return await fn();
      await acquire();
      const scope: Ambient = { owner: db, handle: null, done: false };
      try {
        return await ambient.run(scope, fn);
      } finally {
        scope.done = true;
        release();
      }
    },
    async close() {
      await acquire();
      try {
        if (raw.open) raw.close();
      } finally {
        release();
      }
    },
  };
  DIRECT.set(db, txHandle());
  return db;
}

/**
 * The transaction (or exclusive section) whose async flow is running, per Db. Statements and
 * `tx()` issued on the Db itself (not on the handle `tx` passes) from inside a transaction's
 * flow join that transaction instead of waiting for it (SQLite: it holds the lock; PostgreSQL:
 * it holds a pooled client), so a helper that closes over the Db is safe to call in a
 * transaction. Work the flow starts that outlives it (a timer) runs outside (`done`).
 */
interface Ambient {
  owner: object;
  /** The transaction's handle; null for an exclusive() section (its statements run directly). */
  handle: Db | null;
  done: boolean;
}
const ambient = new AsyncLocalStorage<Ambient>();

/** The running transaction handle of `owner` in this async flow, if any (an exclusive section: a direct handle). */
function ambientOf(owner: object): Db | undefined {
  const a = ambient.getStore();
  if (!a || a.owner !== owner || a.done) return undefined;
  return a.handle ?? DIRECT.get(owner);
}
/** Per SQLite Db, a handle whose statements run without waiting (inside its exclusive sections). */
const DIRECT = new WeakMap<object, Db>();

// ---------------------------------------------------------------------------------------------
// PostgreSQL

/** How many times a PostgreSQL transaction runs at most (the first run included). */
export const PG_TX_ATTEMPTS = 12;
const PG_RETRY = new Set(['40001', '40P01']);

// Rows like SQLite's: int8 and numeric as numbers, boolean as 0/1. Per query (not pg's
// global types, not the pool's): the engine's store on the same pool parses its own rows.
const PG_TYPES = {
  getTypeParser(oid: number, format?: string): (value: string) => unknown {
    if (oid === 20 || oid === 1700) return (v: string) => (v === null ? null : Number(v));
    if (oid === 16) return (v: string) => (v === null ? null : v === 't' ? 1 : 0);
    return loadPg().types.getTypeParser(oid, (format ?? 'text') as 'text') as (value: string) => unknown;
  },
};

export interface PgQueryable {
  query(config: pg.QueryConfig<unknown[]>): Promise<pg.QueryResult<Record<string, unknown>>>;
}

const pgStatements = (q: () => PgQueryable) => {
  const query = (text: string, params: Params | undefined) => {
    const t = toPostgres(text);
    return q().query({ name: t.name, text: t.text, values: pgValues(t, params, text), types: PG_TYPES });
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
  const pool = new (loadPg().Pool)(typeof config === 'string' ? { connectionString: config } : config);
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
    // Statements from inside a transaction's flow run on its client (see Ambient).
    ...pgStatements(() => ambientClient(db) ?? pool),
    async tx<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
      const inTx = ambientOf(db);
      if (inTx) return inTx.tx(fn);
      for (let attempt = 1; ; attempt++) {
        try {
          return await pgTransaction(db, pool, fn);
        } catch (err) {
          const code = (err as { code?: unknown }).code;
          if (attempt >= PG_TX_ATTEMPTS || typeof code !== 'string' || !PG_RETRY.has(code)) throw err;
          // Exponential backoff with full jitter (2 ms doubling, at most 250 ms), so that contending
          // transactions spread out instead of colliding again.
          await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(250, 2 ** attempt)));
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
async function pgTransaction<T>(owner: object, pool: pg.Pool, fn: (tx: Db) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  const handle = pgTxHandle(client);
  const scope: Ambient = { owner, handle, done: false };
  CLIENTS.set(handle, client);
  try {
    await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
    try {
      const result = await ambient.run(scope, () => fn(handle));
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
    scope.done = true;
    client.release(broken);
  }
}

/**
 * The pool as node-postgres' `query`, except that a query issued inside a transaction's async
 * flow (see Ambient) runs on that transaction's client, as every statement of a SQLite Db does:
 * the engine's store on this pool then commits inside a host transaction when asked from one
 * (a unit's host writes: host/db/unit-writes.ts).
 */
export function ambientQueryable(db: PostgresDb): PgQueryable {
  return { query: (config) => (ambientClient(db) ?? db.pool).query(config) };
}

/** The pooled client of each PostgreSQL transaction handle. */
const CLIENTS = new WeakMap<Db, PgQueryable>();
/** The client of `owner`'s transaction running in this async flow, if any. */
function ambientClient(owner: object): PgQueryable | undefined {
  const h = ambientOf(owner);
  return h && CLIENTS.get(h);
}

function pgTxHandle(client: PoolClient): Db {
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
    close: () => Promise.reject(new Error('sql: close() inside a transaction')),
  };
  return handle;
}

/** Whether `s` names a PostgreSQL database (`postgres://` or `postgresql://`). */
export function isPostgresUrl(s: string): boolean {
  return /^postgres(ql)?:\/\//i.test(s);
}
