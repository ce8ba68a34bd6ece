import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Sqlite from 'better-sqlite3';
import { migrate, migrateSqlite } from './migrate.js';
import {
  isPostgresUrl,
  openPostgresDb,
  wrapSqlite,
  type Db,
  type PostgresDb,
  type SqliteDb,
} from './sql.js';
import { sqliteOptions } from '../assets.js';

/**
 * Opens the database `WAKEUP_DB` names and applies pending migrations:
 * - a `postgres://` or `postgresql://` URL: a node-postgres pool on that database (the
 *   engine's tables first, then the host's PostgreSQL migrations);
 * - else a SQLite file, created when absent, with WAL journaling, foreign keys on and a busy
 *   timeout. `:memory:` is accepted for throwaway databases.
 */
export async function openDatabase(target: string): Promise<SqliteDb | PostgresDb> {
  if (isPostgresUrl(target)) {
    const db = openPostgresDb({ connectionString: target, max: 16 });
    try {
      await migrate(db);
    } catch (err) {
      await db.close();
      throw err;
    }
    return db;
  }
  return Promise.resolve(openSqliteDatabase(target));
}

/** {@link openDatabase} for a SQLite file, synchronously (tests and tools). */
export function openSqliteDatabase(file: string): SqliteDb {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const raw = new Sqlite(file, sqliteOptions());
  raw.pragma('journal_mode = WAL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('synchronous = NORMAL');
  raw.pragma('busy_timeout = 5000');
  migrateSqlite(raw);
  return wrapSqlite(raw);
}

export type { Db };

/** Whether the database answers a trivial query (GET /readyz). */
export async function pingDatabase(db: Db): Promise<boolean> {
  try {
    if ('open' in db && db.open === false) return false;
    return (await db.get('SELECT 1 AS ok')) !== undefined;
  } catch {
    return false;
  }
}
