/**
 * Placement, for the Twilio-compatible telephony adapter (telephony.ts): `placeCall` POSTs
 * /Calls.json with the answer URL (`voice`, carrying the attempt key `k` and the script `s`,
 * base64url JSON, so that any instance can answer after a restart), the status callback
 * (`call-status?k=`), the ring timeout and answering-machine detection. In-process retries
 * with one idempotency key share one request and its answer; the key also goes out as
 * `Idempotency-Key` for providers that honour it.
 *
 * One provider request per placement in the normal path: a fresh placement
 * (`PlaceCallRequest.outcomeUnknown` not set: no request for this attempt ever left this
 * process) asks only the {@link PlacementLedger} whether a recovery elsewhere already sent a
 * create for it, and POSTs. A placement whose outcome may be unknown (a recovered intent, a
 * retry after a timeout, another host's attempt taken over), or that the ledger says another
 * placement may have dialled, looks up first (adoption.ts); a create is never sent again
 * without that look-up. Placements to one number run one at a time (queued in the process,
 * and across hosts by the ledger's lock), so that two attempts to it cannot take each other's
 * call and two hosts placing one attempt (a restarted host's reconciliation and the live host
 * that stored the intent) cannot both dial.
 * @module
 */
import type { PlaceCallRequest, PlaceCallResult } from '../../../engine/ports.js';
import type { PlacementLedger } from '../../ports/telephony.js';
import type { Adoption } from './adoption.js';
import { encodeScript } from './call-webhooks.js';
import type { CallTable } from './calls.js';
import { classifyApiError, type TwilioClient } from './client.js';
import { callWebhookUrl, TWILIO_WEBHOOK_PATHS } from './paths.js';

/** Placement results (per idempotency key) are kept this long for in-process retries. */
const KEEP_PLACING_MS = 60 * 60_000;

/** What placement needs beside the call table and adoption. */
export interface PlacementOptions {
  client: TwilioClient;
  ledger: PlacementLedger;
  /** Default caller id, E.164. */
  from: string;
  publicUrl: () => string;
}

/** The placements of one adapter. */
export interface Placement {
  placeCall(request: PlaceCallRequest): Promise<PlaceCallResult>;
  /** Forgets placements after an hour. */
  prune(): void;
  /** Placements held in memory. */
  size(): number;
}

/** The provider's create request for `request`. */
function createParams(
  request: PlaceCallRequest,
  options: PlacementOptions,
): Array<[string, string]> {
  const url = (path: string, query: Record<string, string>) =>
    callWebhookUrl(options.publicUrl(), path, query);
  return [
    ['To', request.to],
    ['From', request.from ?? options.from],
    [
      'Url',
      url(TWILIO_WEBHOOK_PATHS.voice, {
        k: request.idempotencyKey,
        s: encodeScript(request.script),
      }),
    ],
    ['Method', 'POST'],
    ['StatusCallback', url(TWILIO_WEBHOOK_PATHS.callStatus, { k: request.idempotencyKey })],
    ['StatusCallbackMethod', 'POST'],
    ['StatusCallbackEvent', 'ringing'],
    ['StatusCallbackEvent', 'completed'],
    ['Timeout', String(request.ringTimeoutSeconds)],
    ['MachineDetection', 'Enable'],
  ];
}

/** Creates the placements of one adapter. */
export function createPlacement(
  table: CallTable,
  adoption: Adoption,
  options: PlacementOptions,
): Placement {
  const { clock, warn } = table;
  const { client, ledger } = options;
  /** Placements by idempotency key, oldest first (a Map keeps insertion order). */
  const placing = new Map<string, { result: Promise<PlaceCallResult>; at: number }>();
  /** The last placement per destination number: placements to one number run one at a time. */
  const byNumber = new Map<string, Promise<unknown>>();
  /** Keys whose create rejected in this process (outcome unknown): their next placement looks up, flagged or not. */
  const uncertain = new Set<string>();

  /** Runs `fn` after every earlier placement to the same number settled, here and (by the ledger) on other hosts. */
  const oneAtATime = <T>(to: string, fn: (hold: () => void) => Promise<T>): Promise<T> => {
    const exclusive = () => ledger.exclusive(to, fn);
    const run = (byNumber.get(to) ?? Promise.resolve()).then(exclusive, exclusive);
    const tail = run.catch(() => undefined);
    byNumber.set(to, tail);
    void tail.then(() => {
      if (byNumber.get(to) === tail) byNumber.delete(to);
    });
    return run;
  };

  /** The call this attempt already has (by the ledger, or adopted at the provider), or null to dial. */
  async function earlierCall(request: PlaceCallRequest): Promise<string | null> {
    const key = request.idempotencyKey;
    // A fresh placement asks the ledger (no provider request): only a recovery of this
    // attempt, here or on another host, can have sent a create for it.
    let lookUp = request.outcomeUnknown === true || uncertain.has(key) || !ledger.placedFor;
    if (!lookUp) {
      const known = await ledger.placedFor!(key);
      if (known === 'unknown') lookUp = true;
      else if (known !== null) {
        table.stateOf(known.callSid, key);
        return known.callSid;
      }
    }
    if (!lookUp) return null;
    const from = request.from ?? options.from;
    const earlier = await adoption.findPlaced(request.to, from, key, request.requestedAt);
    if (earlier) {
      warn('twilio: adopted a call placed earlier for this attempt', {
        callSid: earlier.sid,
        status: earlier.status,
      });
      const s = table.stateOf(earlier.sid, key);
      await ledger.record(earlier.sid, key); // a fresh placement of the key elsewhere finds it in the ledger
      adoption.replayAdopted(s, earlier.status);
      return earlier.sid;
    }
    // A fresh placement of this attempt elsewhere must now look up too (see PlacementLedger.sending).
    await ledger.sending?.(key);
    return null;
  }

  /** Sends the create, once the number is held. */
  async function create(
    request: PlaceCallRequest,
    params: Array<[string, string]>,
    hold: () => void,
  ): Promise<PlaceCallResult> {
    const key = request.idempotencyKey;
    hold();
    let response: Awaited<ReturnType<TwilioClient['createCall']>>;
    try {
      response = await client.createCall(params, key);
    } catch (err) {
      // Outcome unknown: whoever places this attempt next (a retry here, a recovery on
      // another host) looks up first, flagged or not.
      uncertain.add(key);
      await ledger.sending?.(key).catch(() => undefined);
      throw err;
    }
    if (!response.ok) {
      const { code, retryable } = classifyApiError(response.error);
      return {
        ok: false,
        code,
        retryable,
        detail: `provider ${response.error.status}${response.error.code ? ` (${response.error.code})` : ''}: ${response.error.message}`,
      };
    }
    table.stateOf(response.body.sid, key);
    await ledger.record(response.body.sid, key);
    return { ok: true, callId: response.body.sid };
  }

  return {
    placeCall(request) {
      const known = placing.get(request.idempotencyKey);
      if (known) return known.result;
      const params = createParams(request, options);
      const attempt = oneAtATime(request.to, async (hold): Promise<PlaceCallResult> => {
        const earlier = await earlierCall(request);
        if (earlier !== null) return { ok: true, callId: earlier };
        return create(request, params, hold);
      });
      const entry = { result: attempt, at: clock.now() };
      placing.set(request.idempotencyKey, entry);
      // Outcome unknown (network): forget it so that the caller's retry asks again.
      attempt.catch(() => {
        if (placing.get(request.idempotencyKey) === entry) placing.delete(request.idempotencyKey);
      });
      return attempt;
    },

    prune() {
      const now = clock.now();
      for (const [key, p] of placing) {
        if (now - p.at <= KEEP_PLACING_MS) break;
        placing.delete(key);
      }
      if (uncertain.size > 10_000) uncertain.clear(); // the ledger's `sending` rows still say so
    },

    size: () => placing.size,
  };
}
