/**
 * The ports the host defines around its telephony provider, beside the engine's `Telephony`:
 * what the Twilio-compatible adapter asks of the database (the placement ledger, the log of
 * webhook events handled), what the HTTP layer hands to a provider's webhooks, an inbound
 * text as the phone feature takes it, and the dev controls of the simulated phones. The
 * adapters (host/adapters/) implement them, host/db/ stores them, the features use them;
 * only the composition root (host/compose.ts, host/wiring/) builds them.
 * @module
 */
import type { PhoneBehaviour } from '../../engine/sim/index.js';

export type { PhoneBehaviour };

/**
 * The record of placed calls that makes `placeCall` idempotent across processes (see the
 * module header).
 */
export interface PlacementLedger {
  /**
   * Runs `fn` while no other placement to `to` runs, here or in another process. `fn` calls
   * `hold()` before it sends a create: if `fn` then throws (the create's outcome is unknown: a
   * timeout, a reset), the number stays locked for a while, because a request the provider
   * has received may still create the call after we gave up on it; a placement listing the
   * calls before that would not see it, and would dial again.
   */
  exclusive<T>(to: string, fn: (hold: () => void) => Promise<T>): Promise<T>;
  /** The idempotency key of the attempt a provider call was created for, or null when unrecorded. */
  ownerOf(callSid: string): Promise<string | null>;
  /**
   * Records that `callSid` was created for `idempotencyKey`: inside `exclusive` by the
   * placement that created or adopted it, and again (a no-op when known) by a process whose
   * first webhook of a call it did not place arrives, since its creator may have died first.
   */
  record(callSid: string, idempotencyKey: string): Promise<void>;
  /**
   * What the ledger knows of the attempt `idempotencyKey`, asked inside `exclusive` by a fresh
   * placement instead of the provider: the call recorded for it (`callSid`); `'unknown'` when a placement
   * that looks up first (a recovery, here or on another host) sent or is sending a create for
   * it whose call is not recorded; null when nothing was ever sent for it. Without it (an
   * older ledger) every placement looks up at the provider.
   */
  placedFor?(idempotencyKey: string): Promise<{ callSid: string } | 'unknown' | null>;
  /** Notes, before a placement that looked up sends its create, that a call for `idempotencyKey` may now exist. */
  sending?(idempotencyKey: string): Promise<void>;
  /**
   * Calls recorded since `since` whose end was never handled (no `call:<sid>:ended` in the
   * {@link EventLog}), oldest first, at most `limit`: what a restarted host reads back from
   * the provider, since their last webhooks may have come while no host answered.
   */
  unended?(
    since: number,
    limit: number,
  ): Promise<Array<{ callSid: string; idempotencyKey: string }>>;
}

/**
 * Texts sent with an idempotency key, kept durably (host/db/provider-texts.ts), so that a
 * provider which ignores such keys sends each text at most once across a crash.
 */
export interface TextLedger {
  /**
   * Notes that a send of `idempotencyKey` begins. Null when it is the first; otherwise what an
   * earlier send noted: the message the provider accepted for it, or null (the outcome of that
   * send is unknown: look at the provider's messages since `since`).
   */
  begin(idempotencyKey: string): Promise<{ messageSid: string | null; since: number } | null>;
  /** Records the message the provider accepted for `idempotencyKey`. */
  sent(idempotencyKey: string, messageSid: string): Promise<void>;
  /** The provider refused the text: nothing was sent, so a later send is a first one again. */
  refused(idempotencyKey: string): Promise<void>;
}

/** Webhook events handled, by key, kept durably with an expiry (host/db/webhook-events.ts). */
export interface EventLog {
  seen(key: string): Promise<boolean>;
  record(key: string): Promise<void>;
}

/** A webhook request as the HTTP layer hands it over. */
export interface WebhookRequest {
  /** The exact URL the provider requested: public URL + path + query string, byte for byte. */
  url: string;
  /** The form-encoded body fields. */
  params: Record<string, string>;
  /** The `X-Twilio-Signature` header, or undefined when absent. */
  signature: string | undefined;
}

/** What to answer. */
export interface WebhookResponse {
  status: number;
  contentType: string;
  body: string;
}

/** A provider's webhook dispatcher: `handle(path, request)` for each of its paths. */
export interface ProviderWebhooks {
  handle(path: string, request: WebhookRequest): Promise<WebhookResponse>;
}

/** An inbound text, as the host's keyword handling takes it. */
export interface InboundText {
  from: string;
  to: string;
  body: string;
  messageId: string | null;
  /** The provider's creation time of the message (epoch ms), or null when unknown. */
  sentAt: number | null;
}

/** Configuration of one simulated phone. */
export interface SimulatedPhone {
  /** Behaviours in order, one per call; the last repeats. Never empty. */
  answers: PhoneBehaviour[];
  /** Seconds it rings before answering. */
  ring_seconds: number;
}

/** The simulated phones' dev controls (PUT /dev/phones). */
export interface SimulatedPhones {
  /** Configures the phone at `e164` (PUT /dev/phones) and restarts its behaviour list. */
  setPhone(e164: string, phone: SimulatedPhone): void;
}
