/**
 * The ledger of provider texts (migration 0025): which texts with an idempotency key were
 * sent, or begun, so that a provider which ignores such keys (Twilio) gets each at most once
 * across a crash. The text adapter (host/adapters/twilio/messaging.ts) notes a key before
 * its create request and records the provider's message id once accepted; a key found noted
 * without an id was begun by a process that died or lost the answer, and the adapter looks up
 * the provider's messages to the number before it sends again.
 * @module
 */
import type { TextLedger } from '../ports/telephony.js';
import type { Db } from './sql.js';

/** Noted texts are kept this long (a send is retried within hours, never days). */
export const PROVIDER_TEXT_TTL_MS = 7 * 86_400_000;

/** The ledger on `db`, its times from `now` (the service clock). */
export function createTextLedger(db: Db, now: () => number): TextLedger {
  let noted = 0;
  return {
    async begin(idempotencyKey) {
      const t = now();
      const inserted = await db.get(
        'INSERT INTO provider_texts (idempotency_key, message_sid, created_at) VALUES (?, NULL, ?) ON CONFLICT (idempotency_key) DO NOTHING RETURNING created_at',
        [idempotencyKey, t],
      );
      if (++noted % 100 === 0) {
        await db.run(
          'DELETE FROM provider_texts WHERE idempotency_key IN (SELECT idempotency_key FROM provider_texts WHERE created_at <= ? ORDER BY created_at LIMIT 1000)',
          [t - PROVIDER_TEXT_TTL_MS],
        );
      }
      if (inserted !== undefined) return null;
      const row = await db.get<{ sid: string | null; at: number | string }>(
        'SELECT message_sid AS sid, created_at AS at FROM provider_texts WHERE idempotency_key = ?',
        [idempotencyKey],
      );
      return row ? { messageSid: row.sid, since: Number(row.at) } : null;
    },

    async sent(idempotencyKey, messageSid) {
      await db.run('UPDATE provider_texts SET message_sid = ? WHERE idempotency_key = ?', [
        messageSid,
        idempotencyKey,
      ]);
    },

    async refused(idempotencyKey) {
      await db.run('DELETE FROM provider_texts WHERE idempotency_key = ? AND message_sid IS NULL', [
        idempotencyKey,
      ]);
    },
  };
}
