/**
 * The delivery worker's claim (host/webhooks/worker.ts): which due deliveries a host takes
 * next, under a lease. Fair across accounts: a claim for a lane (host/webhooks/rules.ts
 * `Lane`) takes only deliveries of endpoints in that lane, at most `perEndpoint` in flight per
 * endpoint and `perAccount` per account (leases of every host counted), and the least busy
 * account first (its leases plus its rank among its own due deliveries), then the oldest due.
 *
 * The candidates are read with window functions, which PostgreSQL does not allow with `FOR
 * UPDATE`, so the claim is an optimistic conditional update: a row another host leased
 * meanwhile fails the update's own condition and is left out. Two hosts claiming at the same
 * instant may each count the other's leases a moment late and so pass a cap by a few.
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import type { Db } from './sql.js';

/** What the worker needs to send one claimed delivery. */
export interface ClaimedDelivery {
  id: string;
  eventId: string;
  endpointId: string;
  accountId: string;
  tries: number;
  payload: string;
}

/** One claim's terms. */
export interface ClaimRequest {
  owner: string;
  now: EpochMs;
  /** The lease's end. */
  until: EpochMs;
  /** Deliveries to take at most (the lane's free slots on this host). */
  limit: number;
  /** Endpoints of the slow lane (their `timeouts` at least `slowAfter`) or of the main one. */
  slow: boolean;
  slowAfter: number;
  perEndpoint: number;
  perAccount: number;
}

// Leased: a live claim of any host. Due: pending, due, not leased, of an enabled endpoint of the lane.
const CANDIDATES = `WITH leased AS (
    SELECT endpoint_id, account_id FROM webhook_deliveries
    WHERE status = 'pending' AND claimed_until IS NOT NULL AND claimed_until > @now),
  by_endpoint AS (SELECT endpoint_id, COUNT(*) AS n FROM leased GROUP BY endpoint_id),
  by_account AS (SELECT account_id, COUNT(*) AS n FROM leased GROUP BY account_id),
  due AS (
    SELECT d.id, d.account_id, d.endpoint_id, d.next_attempt_at,
      ROW_NUMBER() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.id) AS endpoint_rank,
      ROW_NUMBER() OVER (PARTITION BY d.account_id ORDER BY d.next_attempt_at, d.id) AS account_rank
    FROM webhook_deliveries d JOIN webhook_endpoints p ON p.id = d.endpoint_id
    WHERE d.status = 'pending' AND d.next_attempt_at <= @now AND (d.claimed_until IS NULL OR d.claimed_until <= @now)
      AND p.enabled = 1 AND (CASE WHEN p.timeouts >= @slowAfter THEN 1 ELSE 0 END) = @slow)
  SELECT due.id FROM due
    LEFT JOIN by_endpoint e ON e.endpoint_id = due.endpoint_id
    LEFT JOIN by_account a ON a.account_id = due.account_id
  WHERE COALESCE(e.n, 0) + due.endpoint_rank <= @perEndpoint AND COALESCE(a.n, 0) + due.account_rank <= @perAccount
  ORDER BY COALESCE(a.n, 0) + due.account_rank, due.next_attempt_at, due.id
  LIMIT @limit`;

/** Claims deliveries for `owner` as the module header says; the ones it got, in the order chosen. */
export async function claimWebhookDeliveries(db: Db, r: ClaimRequest): Promise<ClaimedDelivery[]> {
  if (r.limit <= 0) return [];
  const candidates = await db.all<{ id: string }>(CANDIDATES, {
    now: r.now,
    slow: r.slow ? 1 : 0,
    slowAfter: r.slowAfter,
    perEndpoint: r.perEndpoint,
    perAccount: r.perAccount,
    limit: r.limit,
  });
  if (candidates.length === 0) return [];
  const ids = candidates.map((c) => c.id);
  const marks = ids.map(() => '?').join(', ');
  const claimed = await db.all<{ id: string }>(
    `UPDATE webhook_deliveries SET claimed_by = ?, claimed_until = ?
     WHERE id IN (${marks}) AND status = 'pending' AND (claimed_until IS NULL OR claimed_until <= ?)
     RETURNING id`,
    [r.owner, r.until, ...ids, r.now],
  );
  if (claimed.length === 0) return [];
  const rows = await db.all<{
    id: string;
    event_id: string;
    endpoint_id: string;
    account_id: string;
    tries: number;
    payload: string;
  }>(
    `SELECT d.id, d.event_id, d.endpoint_id, d.account_id, d.tries, o.payload
     FROM webhook_deliveries d JOIN webhook_outbox o ON o.id = d.event_id
     WHERE d.claimed_by = ? AND d.id IN (${claimed.map(() => '?').join(', ')})`,
    [r.owner, ...claimed.map((c) => c.id)],
  );
  const order = new Map(ids.map((id, i) => [id, i]));
  return rows
    .sort((a, b) => order.get(a.id)! - order.get(b.id)!)
    .map((row) => ({
      id: row.id,
      eventId: row.event_id,
      endpointId: row.endpoint_id,
      accountId: row.account_id,
      tries: Number(row.tries),
      payload: row.payload,
    }));
}
