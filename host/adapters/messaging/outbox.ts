/**
 * The built-in messaging simulator: the engine's {@link Messaging} port without a network.
 * Every email and text is stored in the `outbox` table (listed by GET /dev/outbox) and, in
 * dev mode, logged with the code it carries, so a newcomer can sign in from the terminal.
 *
 * Message bodies carry live verification codes, and the database must never hold a usable
 * code (codes are stored hashed everywhere else). So bodies are sealed with AES-256-GCM under
 * a key created at start and held only in this process's memory: the outbox can show them
 * while the server runs, the database file cannot. After a restart older bodies cannot be
 * opened and are listed as sealed (their codes have expired by then anyway, after 10 minutes).
 * @module
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Db } from '../../db/sql.js';
import type { Clock, Ids, Messaging, SendResult } from '../../../engine/index.js';
import { findOutboxByIdempotencyKey, insertOutbox, listOutbox } from '../../db/outbox.js';
import type { OutboxRow } from '../../db/outbox.js';
import type { Logger } from '../../logger.js';
import { isoInstant } from '../../instant.js';

/** One message as GET /dev/outbox shows it. */
export interface OutboxItem {
  id: string;
  channel: 'email' | 'sms';
  to: string;
  subject: string | null;
  body: string;
  /** The verification code in the message (first 6-digit run), or null. */
  code: string | null;
  created_at: string;
}

/** The simulator: the Messaging port plus a reader for the dev endpoint. */
export interface OutboxMessaging extends Messaging {
  /** Messages newest first, optionally for one recipient and/or channel. */
  list(filter?: { to?: string; channel?: 'email' | 'sms'; limit?: number }): Promise<OutboxItem[]>;
}

/** Options of {@link createOutboxMessaging}. */
export interface OutboxMessagingOptions {
  db: Db;
  clock: Clock;
  ids: Ids;
  logger: Logger;
  /** Dev mode: log each message with its code. */
  logCodes: boolean;
}

const SEALED_ELSEWHERE =
  '(sealed by an earlier server process; message bodies do not survive a restart)';
const CODE = /(?<!\d)(\d{6})(?!\d)/;

/** Creates the simulator. */
export function createOutboxMessaging(options: OutboxMessagingOptions): OutboxMessaging {
  const { db, clock, ids, logger, logCodes } = options;
  const key = randomBytes(32);

  const seal = (text: string): Buffer => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), data]);
  };
  const open = (sealed: Buffer): string | null => {
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(12, 28));
      return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      return null; // sealed under another process's key
    }
  };

  const send = async (
    channel: 'email' | 'sms',
    to: string,
    subject: string | null,
    body: string,
    idempotencyKey?: string,
  ): Promise<SendResult> => {
    if (idempotencyKey !== undefined) {
      const earlier = await findOutboxByIdempotencyKey(db, idempotencyKey);
      if (earlier) return { ok: true, messageId: earlier.id };
    }
    const row: OutboxRow = {
      id: ids.uuid(),
      channel,
      recipient: to,
      subject,
      bodySealed: seal(body),
      idempotencyKey: idempotencyKey ?? null,
      createdAt: clock.now(),
    };
    await insertOutbox(db, row);
    if (logCodes) {
      // Deliberately unredacted: dev mode prints the message so that a newcomer can sign in.
      logger.info({ outbox: row.id, channel, to }, `dev outbox: ${channel} to ${to}: ${body}`);
    }
    return { ok: true, messageId: row.id };
  };

  return {
    async sendEmail(m) {
      return await send('email', m.to, m.subject, m.body, m.idempotencyKey);
    },
    async sendText(m) {
      return await send('sms', m.to, null, m.body, m.idempotencyKey);
    },
    async list(filter = {}) {
      const rows = await listOutbox(db, {
        ...(filter.to !== undefined ? { recipient: filter.to } : {}),
        ...(filter.channel !== undefined ? { channel: filter.channel } : {}),
        limit: filter.limit ?? 200,
      });
      return rows.map((r) => {
        const body = open(r.bodySealed);
        return {
          id: r.id,
          channel: r.channel,
          to: r.recipient,
          subject: r.subject,
          body: body ?? SEALED_ELSEWHERE,
          code: body === null ? null : (CODE.exec(body)?.[1] ?? null),
          created_at: isoInstant(r.createdAt),
        };
      });
    },
  };
}
