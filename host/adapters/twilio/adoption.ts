/**
 * Adoption, for the Twilio-compatible telephony adapter's placements (placement.ts): finding at
 * the provider a call that an earlier placement of the same attempt created, so that an attempt
 * never dials twice without relying on the `Idempotency-Key` header (Twilio ignores it).
 *
 * Before dialling again, a placement lists the provider's calls to that number from that caller
 * id (GET /Calls.json?To=&From=, newest first) and adopts one created within the look-up window
 * (or since the intent, when older) that is this attempt's own or no attempt's (by this
 * process's table, then the {@link PlacementLedger}: every call created is recorded with its
 * attempt before the number is let go). An unowned call is one a process killed between the
 * create and its record placed for this attempt. The provider's list shows no field of ours on
 * a live call (its Events log only 15 minutes after the end), so "ours" is the number, the
 * caller id, the window and the ledger. The list costs one GET per look-up; when it cannot be
 * read the outcome is unknown (the promise rejects and the caller retries). An adopted call's
 * progress seen in the list is replayed as events: its ringing, or its end as the read-back after
 * a restart applies it (resume.ts: a completed call's answer and key press first).
 * @module
 */
import type { PlacementLedger } from '../../ports/telephony.js';
import { onCallStatus } from './call-webhooks.js';
import { END_REASONS, type CallState, type CallTable } from './calls.js';
import type { TwilioCallListItem, TwilioClient } from './client.js';
import { readBackCall } from './resume.js';

/** Clocks of the provider and of the host that stored an intent may differ by this much. */
const LOOKUP_SKEW_MS = 60_000;

/** The ledger of a process alone: its own memory and queue. */
export const NO_LEDGER: PlacementLedger = {
  exclusive: (_to, fn) => fn(() => undefined),
  ownerOf: () => Promise.resolve(null),
  record: () => Promise.resolve(),
};

/** What adoption needs beside the call table. */
export interface AdoptionOptions {
  client: TwilioClient;
  ledger: PlacementLedger;
  /** How far back the call list is searched, at least (see TwilioTelephonyOptions). */
  lookupWindowMs: number;
}

/** Finds and adopts the calls of earlier placements. */
export interface Adoption {
  /** A call at the provider that attempt `key` placed earlier, or null. */
  findPlaced(
    to: string,
    from: string,
    key: string,
    requestedAt?: number,
  ): Promise<TwilioCallListItem | null>;
  /** Replays what the list says of an adopted call's progress (its webhooks may have been lost, or be still on their way). */
  replayAdopted(s: CallState, status: string): void;
  /** Look-ups of the provider's call list so far. */
  lookups(): number;
}

/** Creates the adoption of one adapter. */
export function createAdoption(table: CallTable, options: AdoptionOptions): Adoption {
  const { clock, warn } = table;
  const { client, ledger } = options;
  let lookups = 0;

  return {
    lookups: () => lookups,

    async findPlaced(to, from, key, requestedAt) {
      lookups++;
      const list = await client.listCalls({ to, from, pageSize: 50 });
      if (!list.ok) {
        throw new Error(
          `twilio: the call list answered ${list.error.status} (${list.error.message}); whether a call was placed is unknown`,
        );
      }
      // Back to the intent at least: a recovery after a long outage still finds its call.
      let since = clock.now() - options.lookupWindowMs;
      if (requestedAt !== undefined && requestedAt - LOOKUP_SKEW_MS < since)
        since = requestedAt - LOOKUP_SKEW_MS;
      for (const c of list.body?.calls ?? []) {
        const created = Date.parse(c.date_created);
        if (!(created >= since)) continue;
        // Ours: created for this attempt (by an earlier request, here or on another host), or
        // by no recorded attempt (a process died between the create and its record).
        const owner = table.get(c.sid)?.key ?? (await ledger.ownerOf(c.sid));
        if (owner !== null && owner !== key) continue;
        return c;
      }
      return null;
    },

    replayAdopted(s, status) {
      if (status === 'queued' || status === 'initiated') return;
      // After the runtime has recorded the placement (it handles `placed` when placeCall resolves).
      clock.setTimer(clock.now() + 1000, () => {
        const replayed = END_REASONS[status]
          ? // Ended: as the read-back after a restart applies it. A completed call was answered,
            // and its key press may be in webhooks still on their way (to a busy host): its
            // answer and press are read from the provider, never taken for no answer.
            readBackCall(table, client, s.sid, s.key)
          : // Ringing or in progress: its ringing, as the status callback applies it.
            table.serial(s, () => onCallStatus(table, s, { CallStatus: 'ringing' }));
        return replayed.then(
          () => undefined,
          (err: unknown) =>
            warn('twilio: replaying an adopted call failed', { callSid: s.sid, err: String(err) }),
        );
      });
    },
  };
}
