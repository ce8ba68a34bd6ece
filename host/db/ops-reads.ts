/**
 * What the operator's view reads of the host's own tables: the webhook endpoints that fail
 * (health) and the accounts holding a number (search). Small ranges through existing indexes.
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import type { Db } from './sql.js';

/** A webhook endpoint failing or turned off for failing. */
export interface FailingEndpoint {
  id: string;
  accountId: string;
  url: string;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: EpochMs | null;
}

/** Up to `limit` endpoints failing now or turned off by the service, the longest failing first. */
export async function listFailingEndpoints(db: Db, limit: number): Promise<FailingEndpoint[]> {
  const rows = await db.all<{
    id: string;
    account_id: string;
    url: string;
    enabled: number | boolean;
    disabled_reason: string | null;
    failing_since: number | string | null;
  }>(
    `SELECT id, account_id, url, enabled, disabled_reason, failing_since FROM webhook_endpoints
     WHERE failing_since IS NOT NULL OR disabled_reason = 'failing' ORDER BY failing_since, id LIMIT ?`,
    [limit],
  );
  return rows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    url: r.url,
    enabled: r.enabled === true || r.enabled === 1,
    disabledReason: r.disabled_reason,
    failingSince: r.failing_since === null ? null : Number(r.failing_since),
  }));
}

/** The accounts (id, email) holding `e164` among their numbers, at most `limit`. */
export async function accountsWithNumber(
  db: Db,
  e164: string,
  limit: number,
): Promise<{ id: string; email: string }[]> {
  return await db.all<{ id: string; email: string }>(
    `SELECT a.id, a.email FROM phone_numbers p JOIN accounts a ON a.id = p.account_id
     WHERE p.e164 = ? AND p.deleted_at IS NULL AND a.deleted_at IS NULL ORDER BY a.email LIMIT ?`,
    [e164, limit],
  );
}
