/**
 * Outbound texts on a Twilio-compatible provider (the text half of the Messaging port; the
 * host pairs it with an e-mail sender).
 *
 * One request per text; a retried `sendText` with the same idempotency key in this process
 * returns the first result without sending again. A provider refusal resolves `ok: false`
 * with a stable code; a network failure rejects (outcome unknown). When the provider says
 * the recipient opted out at the carrier (error 21610), `onOptedOut` lets the host record
 * the block too, so the number shows as blocked (reason `stop`).
 * @module
 */
import type { SendResult } from '../../../engine/ports.js';
import { classifyApiError, type TwilioClient } from './client.js';
import { TWILIO_WEBHOOK_PATHS } from './paths.js';

/** Options of {@link createTwilioTexts}. */
export interface TwilioTextsOptions {
  client: TwilioClient;
  /** Sender: an E.164 number, or a messaging service id (starts with `MG`). */
  from: string;
  /** Public URL of this service, read per message. */
  publicUrl: () => string;
  onOptedOut?: (e164: string) => void;
}

/** The text sender. */
export interface TwilioTexts {
  sendText(message: { to: string; body: string; idempotencyKey?: string }): Promise<SendResult>;
}

/** Creates the text sender. */
export function createTwilioTexts(options: TwilioTextsOptions): TwilioTexts {
  const sent = new Map<string, Promise<SendResult>>();
  return {
    sendText(message) {
      const key = message.idempotencyKey;
      const known = key ? sent.get(key) : undefined;
      if (known) return known;
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
        if (code === 'number_blocked') options.onOptedOut?.(message.to);
        return {
          ok: false,
          code,
          detail: `provider ${response.error.status}${response.error.code ? ` (${response.error.code})` : ''}: ${response.error.message}`,
        };
      })();
      if (key) {
        sent.set(key, attempt);
        attempt.catch(() => sent.delete(key));
      }
      return attempt;
    },
  };
}
