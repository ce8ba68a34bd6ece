/**
 * Outbound email over SMTP (nodemailer): the email half of the engine's Messaging port. The
 * host pairs it with a text sender (the outbox simulator or the Twilio-compatible adapter).
 *
 * One message per `sendEmail`; a retried send with the same idempotency key in this process
 * returns the first result without sending again. Every failure resolves `ok: false` (never
 * rejects): the callers (sign-in, deletion codes) answer the same 202 either way, and a
 * relay that is down must not turn a request into a 500. Log lines name the relay's error
 * class and SMTP status only: never the body (it holds a code) nor the URL's password.
 * @module
 */
import { createTransport } from 'nodemailer';
import type { Messaging, SendResult } from '../../../engine/index.js';
import type { Logger } from '../../logger.js';
import { describeSmtp, type SmtpConfig } from './config.js';

/** The email sender, plus the hook that closes its pooled connections at shutdown. */
export interface SmtpEmail extends Pick<Messaging, 'sendEmail'> {
  close(): void;
}

/** Options of {@link createSmtpEmail}. */
export interface SmtpEmailOptions {
  config: SmtpConfig;
  logger: Logger;
  /** Called after each message the relay accepted (metrics). */
  onSent?: () => void;
}

/** Creates the sender; it connects at the first message, not before. */
export function createSmtpEmail(options: SmtpEmailOptions): SmtpEmail {
  const { config, logger } = options;
  const transport = createTransport({
    url: config.url,
    pool: true,
    maxConnections: 3,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    logger: false,
    debug: false,
  });
  const relay = describeSmtp(config);
  const sent = new Map<string, Promise<SendResult>>();

  const deliver = async (message: {
    to: string;
    subject: string;
    body: string;
  }): Promise<SendResult> => {
    try {
      const info = (await transport.sendMail({
        from: config.from,
        to: message.to,
        subject: message.subject,
        text: message.body,
      })) as {
        messageId?: string;
      };
      options.onSent?.();
      return { ok: true, messageId: info.messageId ?? '' };
    } catch (err) {
      const e = err as { code?: unknown; responseCode?: unknown; command?: unknown };
      const detail = `smtp ${typeof e.code === 'string' ? e.code : 'error'}${typeof e.responseCode === 'number' ? ` ${e.responseCode}` : ''}`;
      // Only the class of failure: the error's text may quote the relay's answer to AUTH.
      logger.warn(
        { relay, smtpError: e.code, smtpStatus: e.responseCode, smtpCommand: e.command },
        'email not sent',
      );
      // A permanent refusal of this message or recipient (550 mailbox unknown at RCPT TO, 552 at
      // DATA) says nothing about the relay; refused credentials (535 at AUTH) or anything else
      // does: the operator sees the provider failing (host/ops/provider-health.ts).
      const refused =
        typeof e.responseCode === 'number' &&
        e.responseCode >= 500 &&
        e.responseCode < 600 &&
        typeof e.command === 'string' &&
        /^(RCPT|DATA|MAIL)/i.test(e.command);
      return { ok: false, code: refused ? 'email_refused' : 'provider_unavailable', detail };
    }
  };

  return {
    sendEmail(message) {
      const key = message.idempotencyKey;
      const known = key ? sent.get(key) : undefined;
      if (known) return known;
      const attempt = deliver(message);
      if (key) {
        sent.set(key, attempt);
        void attempt.then((r) => {
          if (!r.ok) sent.delete(key);
        });
      }
      return attempt;
    },
    close() {
      transport.close();
    },
  };
}
