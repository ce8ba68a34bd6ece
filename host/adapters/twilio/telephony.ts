/**
 * Telephony on a Twilio-compatible provider: outbound calls over its REST API, progress from
 * its webhooks. This file holds the adapter's options and face and assembles its parts:
 * - calls.ts: the calls this process knows, and their events handed on at most once (across
 *   restarts too, with an {@link EventLog});
 * - placement.ts: `placeCall`, one provider request per placement in the normal path, and
 *   placements to one number one at a time (here and, by the {@link PlacementLedger}, across
 *   hosts);
 * - adoption.ts: finding the call an earlier placement of the attempt created, so that an
 *   attempt never dials twice;
 * - call-webhooks.ts: the answer URL, the Gather action and the status callbacks as events;
 * - resume.ts: the read-back of calls whose end no host saw, after a restart;
 * - hang-up.ts: `hangUp`, in a webhook's TwiML or over REST.
 * Signatures are checked by `webhooks.ts` before anything here runs.
 * @module
 */
import type { Clock, Telephony } from '../../../engine/ports.js';
import type { TextOptions } from '../../reference/texts.js';
import type { EventLog, PlacementLedger, WebhookResponse } from '../../ports/telephony.js';
import { createAdoption, NO_LEDGER } from './adoption.js';
import { createCallWebhooks, type CallWebhookKind } from './call-webhooks.js';
import { createCallTable, type Warn } from './calls.js';
import type { TwilioClient } from './client.js';
import { createHangUp } from './hang-up.js';
import { createPlacement } from './placement.js';
import { createResume, readPress, type ResumeCounts } from './resume.js';

export { encodeScript } from './call-webhooks.js';
export type { ResumeCounts } from './resume.js';

/** Options of {@link createTwilioTelephony}. */
export interface TwilioTelephonyOptions {
  client: TwilioClient;
  clock: Clock;
  /** Default caller id, E.164. */
  from: string;
  /** Public URL of this service (scheme, host, optional port and path prefix; no trailing slash), read per call. */
  publicUrl: () => string;
  text: TextOptions;
  /** Seconds the Gather waits for a digit after the speech. @defaultValue 8 */
  gatherTimeoutSeconds?: number;
  /** Seconds a call holds after a digit while the engine decides. @defaultValue 60 */
  holdSeconds?: number;
  /** Optional diagnostics sink (e.g. a pino logger's warn). */
  warn?: Warn;
  /** Durable record of the events handled (deduplication across restarts); memory only without it. */
  events?: EventLog;
  /**
   * Who placed which call, and placements to one number one at a time across processes (the
   * database: host/db/provider-calls.ts). Without it only this process's memory and queue.
   */
  ledger?: PlacementLedger;
  /**
   * How far back the call list is searched for a call to adopt, at least: a request that
   * names its intent's time (`PlaceCallRequest.requestedAt`) is searched back to that instant
   * (less a minute of clock skew) when it is older. @defaultValue 1800000 (30 minutes)
   */
  lookupWindowMs?: number;
}

/**
 * Twilio's limits for outbound calls, per account (the host's defaults when the provider is
 * Twilio; docs: "Calls per second (CPS)" in Twilio's Voice limits). Twilio starts 1 call per
 * second per account unless its support raised the account's CPS (up to 30 self-served in the
 * console for some account types; more on request); calls created faster than that wait in
 * its queue (for up to 24 hours) instead of failing, so a service that sends them faster only
 * moves its lateness into Twilio's queue, where nobody can see or order it. Concurrent API
 * requests per account are limited too (about 100 before 429 "Too Many Requests").
 */
export const TWILIO_DEFAULT_LIMITS = Object.freeze({ callsPerSecond: 1, requestsInFlight: 100 });

/** The adapter: the Telephony port plus the call webhooks it serves. */
export interface TwilioTelephony extends Telephony {
  /** Entries held in memory (calls, placements), for tests of the pruning. */
  memory(): { calls: number; placements: number };
  /** Look-ups of the provider's call list so far (placements flagged `outcomeUnknown`, or told so by the ledger). */
  lookups(): number;
  /**
   * Reads back from the provider each call of the last hour whose end was never handled (the
   * ledger's `unended`: its last webhooks may have come while no host answered, a restart), and
   * applies what the provider says now: an ended call ends here as its status callback would
   * have ended it. Calls still live are read again a minute later while any is left (the
   * provider retries their webhooks; this catches one it gave up on). Resolves with the
   * first pass's counts; without a ledger that lists them it does nothing.
   */
  resume(): Promise<ResumeCounts>;
  /** Handles a (signature-checked) call webhook. `query` is the URL's query string parsed. */
  handleCallWebhook(
    kind: CallWebhookKind,
    query: URLSearchParams,
    params: Record<string, string>,
  ): Promise<WebhookResponse>;
}

/** Creates the adapter. */
export function createTwilioTelephony(options: TwilioTelephonyOptions): TwilioTelephony {
  const { client } = options;
  const ledger = options.ledger ?? NO_LEDGER;
  const table = createCallTable(options.clock, options.warn ?? (() => undefined), options.events);
  const adoption = createAdoption(table, {
    client,
    ledger,
    lookupWindowMs: options.lookupWindowMs ?? 30 * 60_000,
  });
  const placement = createPlacement(table, adoption, {
    client,
    ledger,
    from: options.from,
    publicUrl: options.publicUrl,
  });
  /** Forgets ended calls after an hour, unended ones after six, placements after an hour. */
  const prune = () => {
    table.prune();
    placement.prune();
  };

  return {
    resume: createResume(table, client, ledger),
    placeCall(request) {
      prune();
      return placement.placeCall(request);
    },
    hangUp: createHangUp(table, client),
    onEvent: (next) => table.onEvent(next),
    memory() {
      prune();
      return { calls: table.size(), placements: placement.size() };
    },
    lookups: () => adoption.lookups(),
    handleCallWebhook: createCallWebhooks(table, {
      publicUrl: options.publicUrl,
      text: options.text,
      gatherTimeoutSeconds: options.gatherTimeoutSeconds ?? 8,
      holdSeconds: options.holdSeconds ?? 60,
      readPress: (sid) => readPress(client, sid),
      record: (sid, key) => ledger.record(sid, key),
    }),
  };
}
