/**
 * Durable records of what the provider told us (migration 0014): webhook events applied
 * (deduplication by the provider's ids, with an expiry), the provider's timestamp of each
 * number's last STOP/START. Which attempt a provider call belongs to: host/db/provider-calls.ts.
 * @module
 */
import type { Db } from './sql.js';

/** How long an applied event's key is kept. */
export const WEBHOOK_EVENT_TTL_MS = 30 * 86_400_000;

/** Whether an event with this key was applied (and has not expired). */
export async function webhookEventSeen(db: Db, key: string, now: number): Promise<boolean> {
  return (
    (await db.get('SELECT 1 FROM webhook_events WHERE event_key = ? AND expires_at > ?', [
      key,
      now,
    ])) !== undefined
  );
}

let recorded = 0;

/**
 * Records an applied event; every 100th record also removes a batch of expired ones (up to
 * 1,000: more than expire meanwhile, since events expire at the rate they were recorded), so
 * that a webhook costs one write, not two.
 */
export async function recordWebhookEvent(db: Db, key: string, now: number): Promise<void> {
  await db.run(
    'INSERT INTO webhook_events (event_key, expires_at) VALUES (?, ?) ON CONFLICT (event_key) DO UPDATE SET expires_at = excluded.expires_at',
    [key, now + WEBHOOK_EVENT_TTL_MS],
  );
  if (++recorded % 100 !== 0) return;
  await db.run(
    'DELETE FROM webhook_events WHERE event_key IN (SELECT event_key FROM webhook_events WHERE expires_at <= ? ORDER BY expires_at LIMIT 1000)',
    [now],
  );
}

/** Rows currently held (tests). */
export async function countWebhookEvents(db: Db): Promise<number> {
  return (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM webhook_events'))!.n;
}

/**
 * Records a STOP/START at the provider's time `at` unless a newer one is recorded for the
 * number; answers whether this one is the newest (and so may be applied).
 */
export async function claimKeywordOrder(
  db: Db,
  e164: string,
  at: number,
  messageId: string | null,
): Promise<boolean> {
  const row = await db.get<{ keyword_at: number }>(
    'SELECT keyword_at FROM inbound_keyword_order WHERE e164 = ?',
    [e164],
  );
  if (row && row.keyword_at > at) return false;
  await db.run(
    'INSERT INTO inbound_keyword_order (e164, keyword_at, message_id) VALUES (?, ?, ?) ON CONFLICT (e164) DO UPDATE SET keyword_at = excluded.keyword_at, message_id = excluded.message_id',
    [e164, at, messageId],
  );
  return true;
}
