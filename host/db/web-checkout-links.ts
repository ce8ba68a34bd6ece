/**
 * One-time web checkout links (table `web_checkout_links`, migration 0008): only the
 * token's hash is stored; a link is used once, within its validity.
 * @module
 */
import type { Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';

/** One link. */
export interface WebCheckoutLink {
  accountId: string;
  planCode: string;
  expiresAt: EpochMs;
  usedAt: EpochMs | null;
}

/** Stores a new link. */
export async function insertWebCheckoutLink(
  db: Db,
  tokenHash: string,
  l: Omit<WebCheckoutLink, 'usedAt'>,
  now: EpochMs,
): Promise<void> {
  await db.run(
    'INSERT INTO web_checkout_links (token_hash, account_id, plan_code, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
    [tokenHash, l.accountId, l.planCode, now, l.expiresAt],
  );
}

/** The link with this token hash. */
export async function findWebCheckoutLink(
  db: Db,
  tokenHash: string,
): Promise<WebCheckoutLink | undefined> {
  const r = await db.get<{
    account_id: string;
    plan_code: string;
    expires_at: number;
    used_at: number | null;
  }>(
    'SELECT account_id, plan_code, expires_at, used_at FROM web_checkout_links WHERE token_hash = ?',
    [tokenHash],
  );
  return r
    ? { accountId: r.account_id, planCode: r.plan_code, expiresAt: r.expires_at, usedAt: r.used_at }
    : undefined;
}

/** Marks the link used if it is unused and unexpired at `now`; false otherwise (a race loses). */
export async function useWebCheckoutLink(
  db: Db,
  tokenHash: string,
  now: EpochMs,
): Promise<boolean> {
  return (
    (
      await db.run(
        'UPDATE web_checkout_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?',
        [now, tokenHash, now],
      )
    ).changes === 1
  );
}
