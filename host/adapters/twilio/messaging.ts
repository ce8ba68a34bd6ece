/**
 * Outbound texts on a Twilio-compatible provider (the text half of the Messaging port; the
 * host pairs it with an e-mail sender).
 *
 * One request per text; a retried `sendText` with the same idempotency key in this process
 * returns the first result without sending again (results are kept an hour, at most
 * {@link MAX_KEPT} of them, oldest dropped first). A provider refusal resolves `ok: false`
 * with a stable code; a network failure rejects (outcome unknown). When the provider says
 * the recipient opted out at the carrier (error 21610), `onOptedOut` lets the host record
 * the block too, so the number shows as blocked (reason `stop`).
 * @module
 */
import type { Clock, SendResult } from '../../../engine/ports.js';
import { classifyApiError, type TwilioClient } from './client.js';
import { TWILIO_WEBHOOK_PATHS } from './paths.js';

/** Options of {@link createTwilioTexts}. */
export interface TwilioTextsOptions {
  client: TwilioClient;
  /** Sender: an E.164 number, or a messaging service id (starts with `MG`). */
  from: string;
  /** Public URL of this service, read per message. */
  publicUrl: () => string;
  onOptedOut?: (e164: string) => Promise<void>;
  /** The service clock (ages the kept results); without it, only the count bound applies. */
  clock?: Clock;
}

/** Results kept per idempotency key this long. */
const KEEP_MS = 60 * 60_000;
/** At most this many kept results. */
export const MAX_KEPT = 10_000;

/** The text sender. */
export interface TwilioTexts {
  sendText(message: { to: string; body: string; idempotencyKey?: string }): Promise<SendResult>;
  /** Results held in memory, for tests of the pruning. */
  kept(): number;
}

/** Creates the text sender. */
export function createTwilioTexts(options: TwilioTextsOptions): TwilioTexts {
  /** Results by key, oldest first (a Map keeps insertion order). */
  const sent = new Map<string, { result: Promise<SendResult>; at: number }>();
  const prune = () => {
    const now = options.clock?.now();
    for (const [key, entry] of sent) {
      const old = now !== undefined && now - entry.at > KEEP_MS;
      if (!old && sent.size <= MAX_KEPT) break;
      sent.delete(key);
    }
  };
  return {
    kept: () => {
      prune();
      return sent.size;
    },
    sendText(message) {
      prune();
      const key = message.idempotencyKey;
      const known = key ? sent.get(key) : undefined;
      if (known) return known.result;
      const params: Record<string, string> = {
        To: message.to,
        Body: message.body,
        StatusCallback: `${options.publicUrl()}${TWILIO_WEBHOOK_PATHS.smsStatus}`,
        ...(options.from.startsWith('MG') ? { MessagingServiceSid: options.from } : { From: options.from }),
      };
      const attempt = (async (): Promise<SendResult> => {
        const response = await options.client.createMessage(params, key);
        if (response.ok) return { ok: true, messageId: response.body.sid };
        const { code } = classifyApiError(response.error);
        if (code === 'number_blocked') await options.onOptedOut?.(message.to);
        return {
          ok: false,
          code,
          detail: `provider ${response.error.status}${response.error.code ? ` (${response.error.code})` : ''}: ${response.error.message}`,
        };
      })();
      if (key) {
        const entry = { result: attempt, at: options.clock?.now() ?? 0 };
        sent.set(key, entry);
        attempt.catch(() => {
          if (sent.get(key) === entry) sent.delete(key);
        });
      }
      return attempt;
    },
  };
}
