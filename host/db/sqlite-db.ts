/**
 * The {@link Db} contract on one better-sqlite3 connection, with an in-process lock.
 *
 * better-sqlite3 is synchronous and the connection is one, but a host transaction awaits
 * between its statements. So a transaction (and an {@link SqliteDb.exclusive} section: the
 * engine's store) holds a lock across its awaits: every other statement and transaction of
 * the process waits for it, and runs at once when none runs. Only the statements made on the
 * handle a transaction passes are part of it; the Db itself waits, so a helper must be handed
 * that handle (there is no implicit join: docs/decisions/0025).
 * @module
 */
import Sqlite from 'better-sqlite3';
import type { Database, Statement } from 'better-sqlite3';
import type { Db, Params, SqliteDb } from './db.js';

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
  /** What runs when close() is called, before the connection closes. */
  const closing: (() => unknown)[] = [];
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
  const ready = async () => {
    while (held) await waitFree();
  };

  /** Statements that wait for the lock (`locked`) or run at once (a holder's handle). */
  const statements = (locked: boolean) => ({
    async get<R>(text: string, params?: Params): Promise<R | undefined> {
      if (locked && held) await ready();
      return stmt(text).get(...SQLITE_PARAMS(params)) as R | undefined;
    },
    async all<R>(text: string, params?: Params): Promise<R[]> {
      if (locked && held) await ready();
      return stmt(text).all(...SQLITE_PARAMS(params)) as R[];
    },
    async run(text: string, params?: Params): Promise<{ changes: number }> {
      if (locked && held) await ready();
      return { changes: stmt(text).run(...SQLITE_PARAMS(params)).changes };
    },
    async exec(text: string): Promise<void> {
      if (locked && held) await ready();
      raw.exec(text);
    },
  });

  let savepoints = 0;
  /** The handle of a lock holder: its statements run at once, and tx() is a savepoint (or a transaction when none is open). */
  const holderHandle = (): Db => {
    const handle: Db = {
      dialect: 'sqlite',
      ...statements(false),
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
      close: () => Promise.reject(new Error('sql: close() on a transaction handle')),
    };
    return handle;
  };

  const db: SqliteDb = {
    dialect: 'sqlite',
    raw,
    direct: holderHandle(),
    get open() {
      return raw.open;
    },
    ...statements(true),
    async tx<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
      await acquire();
      try {
        raw.exec('BEGIN IMMEDIATE');
        try {
          const result = await fn(holderHandle());
          raw.exec('COMMIT');
          return result;
        } catch (err) {
          if (raw.inTransaction) raw.exec('ROLLBACK');
          throw err;
        }
      } finally {
        release();
      }
    },
    async exclusive<T>(fn: () => T | Promise<T>): Promise<T> {
      await acquire();
      try {
        return await fn();
      } finally {
        release();
      }
    },
    beforeClose(fn: () => unknown) {
      closing.push(fn);
    },
    async close() {
      await acquire();
      try {
        for (const fn of closing.splice(0)) await fn();
        if (raw.open) raw.close();
      } finally {
        release();
      }
    },
  };
  return db;
}
