/**
 * Idempotency records: the first successful response of an Idem request, kept 24 hours per
 * scope (account) and key. See `host/http/idempotency.ts` for the protocol.
 * @module
 */
import type { Database } from 'better-sqlite3';
import type { EpochMs } from '../../engine/index.js';
import { sql } from './statements.js';

/** A stored response. */
export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  headers: Record<string, string>;
  /** JSON text of the body, or null for an empty body. */
  body: string | null;
  createdAt: EpochMs;
}

interface Row {
  fingerprint: string;
  status: number;
  headers: string;
  body: string | null;
  created_at: number;
}

/** The live (unexpired) record for scope and key. */
export function findIdempotencyRecord(db: Database, scope: string, key: string, now: EpochMs): IdempotencyRecord | undefined {
  const r = sql<Row>(
    db,
    'SELECT fingerprint, status, headers, body, created_at FROM idempotency_keys WHERE scope = ? AND key = ? AND expires_at > ?',
  ).get(scope, key, now);
  return (
    r && {
      fingerprint: r.fingerprint,
      status: r.status,
      headers: JSON.parse(r.headers) as Record<string, string>,
      body: r.body,
      createdAt: r.created_at,
    }
  );
}

/**
 * Stores a response, replacing an expired record with the same key, and drops expired
 * records (cheap: indexed on expires_at). One transaction.
 */
export function saveIdempotencyRecord(
  db: Database,
  scope: string,
  key: string,
  record: IdempotencyRecord,
  expiresAt: EpochMs,
  now: EpochMs,
): void {
  db.transaction(() => {
    sql(db, 'DELETE FROM idempotency_keys WHERE expires_at <= ?').run(now);
    sql(
      db,
      `INSERT OR REPLACE INTO idempotency_keys (scope, key, fingerprint, status, headers, body, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(scope, key, record.fingerprint, record.status, JSON.stringify(record.headers), record.body, record.createdAt, expiresAt);
  })();
}

/** The idempotency records of one database, as the HTTP pipeline uses them. */
export interface IdempotencyStore {
  find(scope: string, key: string, now: EpochMs): IdempotencyRecord | undefined;
  save(scope: string, key: string, record: IdempotencyRecord, expiresAt: EpochMs, now: EpochMs): void;
}

/** {@link IdempotencyStore} on `db`. */
export function createIdempotencyStore(db: Database): IdempotencyStore {
  return {
    find: (scope, key, now) => findIdempotencyRecord(db, scope, key, now),
    save: (scope, key, record, expiresAt, now) => saveIdempotencyRecord(db, scope, key, record, expiresAt, now),
  };
}
