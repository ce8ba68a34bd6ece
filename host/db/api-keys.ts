/**
 * API keys: queries on `api_keys`. The full key is never stored, only its sha256 and the
 * 8-character lookup that follows `wuk_` (the public `prefix`).
 * @module
 */
import { unprefixed, type Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';
import { accountOfRow, type Account, type AccountRow } from './accounts.js';

/** API key scopes. */
/** `ops`: the operator's endpoints (/ops/…), for an operator's key only. */
export type Scope = 'read' | 'write' | 'export' | 'ops';

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
export async function insertApiKey(
  db: Db,
  k: Omit<ApiKey, 'lastUsedAt' | 'revokedAt'>,
): Promise<ApiKey> {
  await db.run(
    `INSERT INTO api_keys (id, account_id, name, lookup, key_hash, scopes, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [k.id, k.accountId, k.name, k.lookup, k.keyHash, JSON.stringify(k.scopes), k.createdAt],
  );
  return { ...k, lastUsedAt: null, revokedAt: null };
}

/** The key with this lookup (revoked ones included, so they can answer api_key_revoked). */
export async function findApiKeyByLookup(db: Db, lookup: string): Promise<ApiKey | undefined> {
  const r = await db.get<Row>('SELECT * FROM api_keys WHERE lookup = ?', [lookup]);
  return r && fromRow(r);
}

/**
 * The key with this lookup (revoked ones included) and its live account (undefined when
 * deleted), in one statement: what every request with an API key reads.
 */
export async function findApiKeyWithAccount(
  db: Db,
  lookup: string,
): Promise<{ key: ApiKey; account: Account | undefined } | undefined> {
  const r = await db.get<AccountRow & Record<`k_${keyof Row}`, unknown>>(
    `SELECT a.*, k.id AS k_id, k.account_id AS k_account_id, k.name AS k_name, k.lookup AS k_lookup, k.key_hash AS k_key_hash,
            k.scopes AS k_scopes, k.created_at AS k_created_at, k.last_used_at AS k_last_used_at, k.revoked_at AS k_revoked_at
     FROM api_keys k LEFT JOIN accounts a ON a.id = k.account_id AND a.deleted_at IS NULL
     WHERE k.lookup = ?`,
    [lookup],
  );
  if (!r) return undefined;
  const key = fromRow(unprefixed<Row>(r, 'k_'));
  return { key, account: r.id === null ? undefined : accountOfRow(r) };
}

/**
 * One page of an account's live keys, newest first (created_at, then id, both descending:
 * a total order, so pages never skip or repeat). `after` is the last row of the previous page.
 */
export async function listApiKeys(
  db: Db,
  accountId: string,
  limit: number,
  after: { createdAt: EpochMs; id: string } | null,
): Promise<ApiKey[]> {
  const rows = after
    ? await db.all<Row>(
        `SELECT * FROM api_keys WHERE account_id = ? AND revoked_at IS NULL
           AND (created_at < ? OR (created_at = ? AND id < ?))
         ORDER BY created_at DESC, id DESC LIMIT ?`,
        [accountId, after.createdAt, after.createdAt, after.id, limit],
      )
    : await db.all<Row>(
        `SELECT * FROM api_keys WHERE account_id = ? AND revoked_at IS NULL
         ORDER BY created_at DESC, id DESC LIMIT ?`,
        [accountId, limit],
      );
  return rows.map(fromRow);
}

/** Revokes a live key of the account. Returns false when there is none (or another account's). */
export async function revokeApiKey(
  db: Db,
  accountId: string,
  id: string,
  now: EpochMs,
): Promise<boolean> {
  return (
    (
      await db.run(
        'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL',
        [now, id, accountId],
      )
    ).changes === 1
  );
}

/** Sets last_used_at. */
export async function touchApiKey(db: Db, id: string, now: EpochMs): Promise<void> {
  await db.run(
    'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <> ?)',
    [now, id, now],
  );
}
