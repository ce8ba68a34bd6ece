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
 *
 * At most once across a crash, with a {@link TextLedger} (the database): the provider ignores
 * idempotency keys on messages, so a keyed send is noted before its request and given the
 * message id once accepted. A send that finds its key noted without an id (a process died, or
 * the answer was lost) first lists the provider's messages to the number (GET /Messages.json,
 * newest first) and adopts one with the same body created since the note; only when there is
 * none does it send. Two sends of one key at the same instant on two hosts are not covered:
 * the callers claim a text before sending it (contact texts by their row, fallback texts by
 * the occurrence's owner).
 * @module
 */
import type { Clock, SendResult } from '../../../engine/ports.js';
import type { TextLedger } from '../../ports/telephony.js';
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
  /** Keyed texts noted durably (at most once across a crash); without it, this process's memory only. */
  ledger?: TextLedger;
}

/** Clocks of the provider and of the host that noted a send may differ by this much. */
const LOOKUP_SKEW_MS = 60_000;

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
  /** A message to `to` with `body` that the provider created since `since`, or null (see the module comment). */
  async function findSent(to: string, body: string, since: number): Promise<string | null> {
    const list = await options.client.listMessages({ to, pageSize: 50 });
    if (!list.ok)
      throw new Error(
        `twilio: the message list answered ${list.error.status}; whether the text went is unknown`,
      );
    for (const m of list.body?.messages ?? []) {
      if (m.body === body && Date.parse(m.date_created) >= since - LOOKUP_SKEW_MS) return m.sid;
    }
    return null;
  }

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
        ...(options.from.startsWith('MG')
          ? { MessagingServiceSid: options.from }
          : { From: options.from }),
      };
      const ledger = key ? options.ledger : undefined;
      const attempt = (async (): Promise<SendResult> => {
        const earlier = ledger ? await ledger.begin(key!) : null;
        if (earlier?.messageSid) return { ok: true, messageId: earlier.messageSid };
        if (earlier) {
          const found = await findSent(message.to, message.body, earlier.since);
          if (found) {
            await ledger!.sent(key!, found);
            return { ok: true, messageId: found };
          }
        }
        const response = await options.client.createMessage(params, key);
        if (response.ok) {
          await ledger?.sent(key!, response.body.sid);
          return { ok: true, messageId: response.body.sid };
        }
        await ledger?.refused(key!);
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
