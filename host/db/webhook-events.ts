/**
 * Durable records of what the provider told us (migration 0014): webhook events applied
 * (deduplication by the provider's ids, with an expiry), the provider's timestamp of each
 * number's last STOP/START, and whether a provider call id belongs to an attempt.
 * @module
 */
import type { Database } from 'better-sqlite3';

/** How long an applied event's key is kept. */
export const WEBHOOK_EVENT_TTL_MS = 30 * 86_400_000;

/** Whether an event with this key was applied (and has not expired). */
export function webhookEventSeen(db: Database, key: string, now: number): boolean {
  return db.prepare('SELECT 1 FROM webhook_events WHERE event_key = ? AND expires_at > ?').get(key, now) !== undefined;
}

/** Records an applied event; removes a batch of expired ones on the way. */
export function recordWebhookEvent(db: Database, key: string, now: number): void {
  db.prepare(
    'INSERT INTO webhook_events (event_key, expires_at) VALUES (?, ?) ON CONFLICT (event_key) DO UPDATE SET expires_at = excluded.expires_at',
  ).run(key, now + WEBHOOK_EVENT_TTL_MS);
  db.prepare(
    'DELETE FROM webhook_events WHERE event_key IN (SELECT event_key FROM webhook_events WHERE expires_at <= ? ORDER BY expires_at LIMIT 100)',
  ).run(now);
}

/** Rows currently held (tests). */
export function countWebhookEvents(db: Database): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM webhook_events').get() as { n: number }).n;
}

/** Whether some attempt already owns this provider call id. */
export function hasProviderCall(db: Database, callSid: string): boolean {
  return db.prepare('SELECT 1 FROM attempts WHERE provider_call_id = ?').get(callSid) !== undefined;
}

/**
 * Records a STOP/START at the provider's time `at` unless a newer one is recorded for the
 * number; answers whether this one is the newest (and so may be applied).
 */
export function claimKeywordOrder(db: Database, e164: string, at: number, messageId: string | null): boolean {
  const row = db.prepare('SELECT keyword_at FROM inbound_keyword_order WHERE e164 = ?').get(e164) as { keyword_at: number } | undefined;
  if (row && row.keyword_at > at) return false;
  db.prepare(
    'INSERT INTO inbound_keyword_order (e164, keyword_at, message_id) VALUES (?, ?, ?) ON CONFLICT (e164) DO UPDATE SET keyword_at = excluded.keyword_at, message_id = excluded.message_id',
  ).run(e164, at, messageId);
  return true;
}
