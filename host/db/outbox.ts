/**
 * Outbox: messages "sent" through the built-in messaging simulator. Bodies arrive sealed
 * (see `host/adapters/messaging/outbox.ts`); this module stores and lists bytes.
 * @module
 */
import type { Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';

/** One stored message. */
export interface OutboxRow {
  id: string;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string | null;
  bodySealed: Buffer;
  idempotencyKey: string | null;
  createdAt: EpochMs;
}

interface Row {
  id: string;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string | null;
  body_sealed: Buffer;
  idempotency_key: string | null;
  created_at: number;
}

const fromRow = (r: Row): OutboxRow => ({
  id: r.id,
  channel: r.channel,
  recipient: r.recipient,
  subject: r.subject,
  bodySealed: r.body_sealed,
  idempotencyKey: r.idempotency_key,
  createdAt: r.created_at,
});

/** The message stored under an idempotency key, if any. */
export async function findOutboxByIdempotencyKey(
  db: Db,
  key: string,
): Promise<OutboxRow | undefined> {
  const r = await db.get<Row>('SELECT * FROM outbox WHERE idempotency_key = ?', [key]);
  return r && fromRow(r);
}

/** Stores a message. */
export async function insertOutbox(db: Db, m: OutboxRow): Promise<void> {
  await db.run(
    `INSERT INTO outbox (id, channel, recipient, subject, body_sealed, idempotency_key, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [m.id, m.channel, m.recipient, m.subject, m.bodySealed, m.idempotencyKey, m.createdAt],
  );
}

/** Messages newest first (insertion order), optionally for one recipient and/or channel. */
export async function listOutbox(
  db: Db,
  filter: { recipient?: string; channel?: 'email' | 'sms'; limit: number },
): Promise<OutboxRow[]> {
  const rows = await db.all<Row>(
    `SELECT * FROM outbox
     WHERE (CAST(@recipient AS TEXT) IS NULL OR recipient = @recipient) AND (CAST(@channel AS TEXT) IS NULL OR channel = @channel)
     ORDER BY rowid DESC LIMIT @limit`,
    { recipient: filter.recipient ?? null, channel: filter.channel ?? null, limit: filter.limit },
  );
  return rows.map(fromRow);
}
