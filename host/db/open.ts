import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Sqlite from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { migrate } from './migrate.js';
import { sqliteOptions } from '../assets.js';

/**
 * Opens (creating when absent) the SQLite database at `file`, with WAL journaling, foreign
 * keys on and a busy timeout, and applies pending migrations. `:memory:` is accepted for
 * throwaway databases.
 */
export function openDatabase(file: string): Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Sqlite(file, sqliteOptions());
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

export type { Database };

/** Whether the database answers a trivial query (GET /readyz). */
export function pingDatabase(db: Database): boolean {
  try {
    return db.open && db.prepare('SELECT 1 AS ok').get() !== undefined;
  } catch {
    return false;
  }
}
