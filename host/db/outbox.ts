/**
 * Outbox: messages "sent" through the built-in messaging simulator. Bodies arrive sealed
 * (see `host/adapters/messaging/outbox.ts`); this module stores and lists bytes.
 * @module
 */
import type { Database } from 'better-sqlite3';
import type { EpochMs } from '../../engine/index.js';
import { sql } from './statements.js';

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
export function findOutboxByIdempotencyKey(db: Database, key: string): OutboxRow | undefined {
  const r = sql<Row>(db, 'SELECT * FROM outbox WHERE idempotency_key = ?').get(key);
  return r && fromRow(r);
}

/** Stores a message. */
export function insertOutbox(db: Database, m: OutboxRow): void {
  sql(
    db,
    `INSERT INTO outbox (id, channel, recipient, subject, body_sealed, idempotency_key, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(m.id, m.channel, m.recipient, m.subject, m.bodySealed, m.idempotencyKey, m.createdAt);
}

/** Messages newest first (insertion order), optionally for one recipient and/or channel. */
export function listOutbox(db: Database, filter: { recipient?: string; channel?: 'email' | 'sms'; limit: number }): OutboxRow[] {
  const rows = sql<Row>(
    db,
    `SELECT * FROM outbox
     WHERE (@recipient IS NULL OR recipient = @recipient) AND (@channel IS NULL OR channel = @channel)
     ORDER BY rowid DESC LIMIT @limit`,
  ).all({ recipient: filter.recipient ?? null, channel: filter.channel ?? null, limit: filter.limit });
  return rows.map(fromRow);
}
