/**
 * Outbound webhook deliveries (migration 0020): the delivery log of each endpoint and the
 * delivery worker's queue. A host claims due deliveries under a lease (./webhook-claims.ts),
 * sends them, and records each attempt only while it still holds the lease; a host that dies leaves its claims to the others
 * once the lease expires (at least once: the receiver deduplicates by `webhook-id`).
 * @module
 */
import type { Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';

/** Where a delivery stands. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One delivery, as the log shows it. */
export interface WebhookDelivery {
  id: string;
  eventId: string;
  eventType: string;
  endpointId: string;
  accountId: string;
  status: DeliveryStatus;
  attempts: number;
  tries: number;
  nextAttemptAt: EpochMs | null;
  lastAttemptAt: EpochMs | null;
  responseStatus: number | null;
  latencyMs: number | null;
  error: string | null;
  deliveredAt: EpochMs | null;
  createdAt: EpochMs;
  /** The JSON body sent. */
  payload: string;
}

interface Row {
  id: string;
  event_id: string;
  event_type: string;
  endpoint_id: string;
  account_id: string;
  status: DeliveryStatus;
  attempts: number;
  tries: number;
  next_attempt_at: number | null;
  last_attempt_at: number | null;
  response_status: number | null;
  latency_ms: number | null;
  error: string | null;
  delivered_at: number | null;
  created_at: number;
  payload: string;
}

const fromRow = (r: Row): WebhookDelivery => ({
  id: r.id,
  eventId: r.event_id,
  eventType: r.event_type,
  endpointId: r.endpoint_id,
  accountId: r.account_id,
  status: r.status,
  attempts: r.attempts,
  tries: r.tries,
  nextAttemptAt: r.next_attempt_at,
  lastAttemptAt: r.last_attempt_at,
  responseStatus: r.response_status,
  latencyMs: r.latency_ms,
  error: r.error,
  deliveredAt: r.delivered_at,
  createdAt: r.created_at,
  payload: r.payload,
});

const SELECT = `SELECT d.id, d.event_id, o.type AS event_type, d.endpoint_id, d.account_id, d.status, d.attempts, d.tries,
  d.next_attempt_at, d.last_attempt_at, d.response_status, d.latency_ms, d.error, d.delivered_at, d.created_at, o.payload
  FROM webhook_deliveries d JOIN webhook_outbox o ON o.id = d.event_id`;

/** One page of an endpoint's deliveries, newest first (created_at, then id, both descending), optionally of one status. */
export async function listWebhookDeliveries(
  db: Db,
  accountId: string,
  endpointId: string,
  limit: number,
  after: { createdAt: EpochMs; id: string } | null,
  status: DeliveryStatus | null,
): Promise<WebhookDelivery[]> {
  const rows = await db.all<Row>(
    `${SELECT} WHERE d.endpoint_id = @endpointId AND d.account_id = @accountId
       AND (CAST(@status AS text) IS NULL OR d.status = CAST(@status AS text))
       AND (CAST(@afterAt AS bigint) IS NULL OR d.created_at < CAST(@afterAt AS bigint)
            OR (d.created_at = CAST(@afterAt AS bigint) AND d.id < @afterId))
     ORDER BY d.created_at DESC, d.id DESC LIMIT @limit`,
    {
      endpointId,
      accountId,
      status,
      afterAt: after?.createdAt ?? null,
      afterId: after?.id ?? '',
      limit,
    },
  );
  return rows.map(fromRow);
}

/** One delivery of the account's endpoint. */
export async function getWebhookDelivery(
  db: Db,
  accountId: string,
  endpointId: string,
  id: string,
): Promise<WebhookDelivery | undefined> {
  const r = await db.get<Row>(
    `${SELECT} WHERE d.id = ? AND d.endpoint_id = ? AND d.account_id = ?`,
    [id, endpointId, accountId],
  );
  return r && fromRow(r);
}

/** Sends the delivery again now, as a new run of attempts (the log keeps counting `attempts`). */
export async function redeliverWebhook(
  db: Db,
  accountId: string,
  endpointId: string,
  id: string,
  now: EpochMs,
): Promise<boolean> {
  const r = await db.run(
    `UPDATE webhook_deliveries SET status = 'pending', tries = 0, next_attempt_at = ?, claimed_by = NULL, claimed_until = NULL,
       updated_at = ? WHERE id = ? AND endpoint_id = ? AND account_id = ?`,
    [now, now, id, endpointId, accountId],
  );
  return r.changes === 1;
}

/** One attempt's result, and what comes next. */
export interface AttemptRecordInput {
  at: EpochMs;
  responseStatus: number | null;
  latencyMs: number | null;
  error: string | null;
  /** delivered; pending with `nextAttemptAt` (a retry); failed (no try left). */
  status: DeliveryStatus;
  nextAttemptAt: EpochMs | null;
}

/**
 * Records an attempt of a delivery `owner` holds; false when the lease was lost meanwhile (another
 * host took it over, or the delivery was redelivered or deleted): nothing is written then.
 */
export async function recordWebhookAttempt(
  db: Db,
  id: string,
  owner: string,
  a: AttemptRecordInput,
): Promise<boolean> {
  const r = await db.run(
    `UPDATE webhook_deliveries SET status = @status, attempts = attempts + 1, tries = tries + 1, next_attempt_at = @next,
       last_attempt_at = @at, response_status = @responseStatus, latency_ms = @latencyMs, error = @error,
       delivered_at = CASE WHEN @status = 'delivered' THEN @at ELSE delivered_at END,
       claimed_by = NULL, claimed_until = NULL, updated_at = @at
     WHERE id = @id AND claimed_by = @owner`,
    {
      id,
      owner,
      status: a.status,
      next: a.nextAttemptAt,
      at: a.at,
      responseStatus: a.responseStatus,
      latencyMs: a.latencyMs,
      error: a.error,
    },
  );
  return r.changes === 1;
}

/** Ends a claimed delivery that cannot be sent (its endpoint is off or gone), without an attempt. */
export async function dropWebhookDelivery(
  db: Db,
  id: string,
  owner: string,
  error: string,
  at: EpochMs,
): Promise<void> {
  await db.run(
    `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, error = ?, claimed_by = NULL, claimed_until = NULL, updated_at = ?
     WHERE id = ? AND claimed_by = ?`,
    [error, at, id, owner],
  );
}

/** Ends every pending delivery of an endpoint the service turned off. */
export async function failPendingWebhookDeliveries(
  db: Db,
  endpointId: string,
  error: string,
  at: EpochMs,
): Promise<void> {
  await db.run(
    `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, error = ?, updated_at = ?
     WHERE endpoint_id = ? AND status = 'pending'`,
    [error, at, endpointId],
  );
}

/** The soonest instant a pending delivery of an endpoint that is on is due (its lease's end when leased), or null. */
export async function nextWebhookDueAt(db: Db): Promise<EpochMs | null> {
  const r = await db.get<{ at: number | null }>(
    `SELECT MIN(CASE WHEN claimed_until IS NOT NULL AND claimed_until > next_attempt_at THEN claimed_until ELSE next_attempt_at END) AS at
     FROM webhook_deliveries WHERE status = 'pending' AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE enabled = 1)`,
  );
  return r?.at ?? null;
}
