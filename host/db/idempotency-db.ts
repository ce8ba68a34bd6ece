/**
 * The better-sqlite3 connection host/db/idempotency.ts runs on, until that module moves to
 * the async Db (issue 17, another piece of work): on SQLite the service's own connection; on
 * PostgreSQL a private in-memory SQLite database holding only `idempotency_keys`, so replays
 * work within one process (not across hosts sharing the PostgreSQL database).
 * @module
 */
import Sqlite from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import type { Db, SqliteDb } from './sql.js';

/** The connection for the idempotency store; closed with the service (`onClose`). */
export function idempotencyDb(db: Db, lifecycle: { onClose(fn: () => void): void }): Database {
  if (db.dialect === 'sqlite') return (db as SqliteDb).raw;
  const memory = new Sqlite(':memory:');
  memory.exec(`CREATE TABLE idempotency_keys (
    scope TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, status INTEGER NOT NULL,
    headers TEXT NOT NULL, body TEXT, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
    PRIMARY KEY (scope, key));
  CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at);`);
  lifecycle.onClose(() => memory.close());
  return memory;
}
