/**
 * API keys: queries on `api_keys`. The full key is never stored, only its sha256 and the
 * 8-character lookup that follows `wuk_` (the public `prefix`).
 * @module
 */
import type { Database } from 'better-sqlite3';
import type { EpochMs } from '../../engine/index.js';
import { sql } from './statements.js';

/** API key scopes. */
export type Scope = 'read' | 'write' | 'export';

/** One stored key. */
export interface ApiKey {
  id: string;
  accountId: string;
  name: string;
  lookup: string;
  keyHash: string;
  scopes: Scope[];
  createdAt: EpochMs;
  lastUsedAt: EpochMs | null;
  revokedAt: EpochMs | null;
}

interface Row {
  id: string;
  account_id: string;
  name: string;
  lookup: string;
  key_hash: string;
  scopes: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

const fromRow = (r: Row): ApiKey => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  lookup: r.lookup,
  keyHash: r.key_hash,
  scopes: JSON.parse(r.scopes) as Scope[],
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

/** Stores a new key. */
export function insertApiKey(db: Database, k: Omit<ApiKey, 'lastUsedAt' | 'revokedAt'>): ApiKey {
  sql(
    db,
    `INSERT INTO api_keys (id, account_id, name, lookup, key_hash, scopes, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(k.id, k.accountId, k.name, k.lookup, k.keyHash, JSON.stringify(k.scopes), k.createdAt);
  return { ...k, lastUsedAt: null, revokedAt: null };
}

/** The key with this lookup (revoked ones included, so they can answer api_key_revoked). */
export function findApiKeyByLookup(db: Database, lookup: string): ApiKey | undefined {
  const r = sql<Row>(db, 'SELECT * FROM api_keys WHERE lookup = ?').get(lookup);
  return r && fromRow(r);
}

/**
 * One page of an account's live keys, newest first (created_at, then id, both descending:
 * a total order, so pages never skip or repeat). `after` is the last row of the previous page.
 */
export function listApiKeys(db: Database, accountId: string, limit: number, after: { createdAt: EpochMs; id: string } | null): ApiKey[] {
  const rows = after
    ? sql<Row>(
        db,
        `SELECT * FROM api_keys WHERE account_id = ? AND revoked_at IS NULL
           AND (created_at < ? OR (created_at = ? AND id < ?))
         ORDER BY created_at DESC, id DESC LIMIT ?`,
      ).all(accountId, after.createdAt, after.createdAt, after.id, limit)
    : sql<Row>(
        db,
        `SELECT * FROM api_keys WHERE account_id = ? AND revoked_at IS NULL
         ORDER BY created_at DESC, id DESC LIMIT ?`,
      ).all(accountId, limit);
  return rows.map(fromRow);
}

/** Revokes a live key of the account. Returns false when there is none (or another account's). */
export function revokeApiKey(db: Database, accountId: string, id: string, now: EpochMs): boolean {
  return (
    sql(db, 'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL').run(now, id, accountId).changes ===
    1
  );
}

/** Sets last_used_at. */
export function touchApiKey(db: Database, id: string, now: EpochMs): void {
  sql(db, 'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <> ?)').run(now, id, now);
}
