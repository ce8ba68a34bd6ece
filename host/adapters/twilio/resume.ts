/**
 * The read-back after a restart, for the Twilio-compatible telephony adapter (telephony.ts):
 * each call of the last hour whose end was never handled (the ledger's `unended`: its last
 * webhooks may have come while no host answered) is read from the provider, and what the
 * provider says now is applied as its status callback would have applied it. An answered call's
 * key press is read from the provider's record of the requests it made during the call
 * (`GET /Calls/{sid}/Events.json`): a Gather action the service never took is applied first, so
 * a person who pressed 1 while no host answered is confirmed. Calls still live are read again a
 * minute later while any is left, at most fifteen passes.
 * @module
 */
import type { PlacementLedger } from '../../ports/telephony.js';
import { onCallStatus, onDigits } from './call-webhooks.js';
import { END_REASONS, type CallTable } from './calls.js';
import type { TwilioCallEvent, TwilioClient } from './client.js';
import { TWILIO_WEBHOOK_PATHS } from './paths.js';

/** What one read-back pass found. */
export interface ResumeCounts {
  /** Calls read back. */
  checked: number;
  /** Of those, calls the provider said had ended: ended here now. */
  ended: number;
  /** Of those, calls whose key press was read from the provider's events. */
  pressed: number;
  /** Calls still live at the provider (read again later). */
  live: number;
  /** Calls whose read failed: read again later. */
  unknown: number;
}

/** How far back a restart reads calls back (no call of ours lasts longer). */
const RESUME_WINDOW_MS = 60 * 60_000;
/** Live calls are read back again this long after a pass, at most {@link RESUME_PASSES} passes. */
const RESUME_AGAIN_MS = 60_000;
const RESUME_PASSES = 15;
/** Calls read back per pass, and at once. */
const RESUME_PAGE = 10_000;
const RESUME_PARALLEL = 4;

/** Creates `resume`: resolves with the first pass's counts; without a ledger that lists them it does nothing. */
export function createResume(
  table: CallTable,
  client: TwilioClient,
  ledger: PlacementLedger,
): () => Promise<ResumeCounts> {
  const { clock, warn } = table;

  async function readBack(): Promise<ResumeCounts> {
    const counts: ResumeCounts = { checked: 0, ended: 0, pressed: 0, live: 0, unknown: 0 };
    if (!ledger.unended) return counts;
    const todo = await ledger.unended(clock.now() - RESUME_WINDOW_MS, RESUME_PAGE);
    counts.checked = todo.length;
    const one = async ({
      callSid,
      idempotencyKey,
    }: {
      callSid: string;
      idempotencyKey: string;
    }) => {
      const found = await readBackCall(table, client, callSid, idempotencyKey);
      if (found === 'pressed') counts.pressed++;
      if (found === 'pressed' || found === 'ended') counts.ended++;
      else if (found === 'live') counts.live++;
      else if (found === 'unknown') counts.unknown++; // a call the provider does not know is not read again
    };
    for (let i = 0; i < todo.length; i += RESUME_PARALLEL)
      await Promise.all(todo.slice(i, i + RESUME_PARALLEL).map(one));
    return counts;
  }

  async function resume(pass = 1): Promise<ResumeCounts> {
    const counts = await readBack();
    if ((counts.live > 0 || counts.unknown > 0) && pass < RESUME_PASSES) {
      clock.setTimer(clock.now() + RESUME_AGAIN_MS, () =>
        resume(pass + 1).then(
          (again) =>
            again.ended > 0
              ? warn('twilio: calls ended while no host answered, read back', { ...again })
              : undefined,
          (err: unknown) => warn('twilio: reading calls back failed', { err: String(err) }),
        ),
      );
    }
    return counts;
  }

  return () => resume();
}

/** What reading one call back found: it ended (its key press read too), is still live, or could not be read. */
export type ReadBack = 'ended' | 'pressed' | 'live' | 'unknown' | 'unknown_call';

/**
 * Reads one call from the provider and, when it has ended, applies what the provider says as
 * its webhooks would have: the key press read from its events, then the status callback
 * (answered first). Anything already handled, here or on another host, is not applied twice.
 * Used by the read-back after a restart and for an adopted call that ended (adoption.ts).
 */
export async function readBackCall(
  table: CallTable,
  client: TwilioClient,
  callSid: string,
  idempotencyKey: string,
): Promise<ReadBack> {
  const r = await client.getCall(callSid).catch(() => null);
  if (!r?.ok) return r?.error.status === 404 ? 'unknown_call' : 'unknown';
  const status = r.body.status;
  if (!END_REASONS[status]) return 'live';
  const answeredBy = r.body.answered_by ?? '';
  const digits = status === 'completed' ? await readPress(client, callSid) : null;
  const s = table.stateOf(callSid, idempotencyKey);
  await table.serial(s, async () => {
    if (digits) await onDigits(table, s, { Digits: digits, AnsweredBy: answeredBy });
    return onCallStatus(table, s, {
      CallStatus: status,
      CallDuration: r.body.duration ?? '',
      AnsweredBy: answeredBy,
    });
  });
  return digits ? 'pressed' : 'ended';
}

/** The digits of the call's Gather action as the provider posted them, or null (none, or unreadable). */
export async function readPress(client: TwilioClient, callSid: string): Promise<string | null> {
  const r = await client.listCallEvents(callSid).catch(() => null);
  if (!r?.ok) return null;
  return pressedIn(r.body.events ?? []);
}

/** The digits of the last Gather action among a call's events (keys in snake_case), or null. */
export function pressedIn(events: readonly TwilioCallEvent[]): string | null {
  let digits: string | null = null;
  for (const e of events) {
    const url = e.request?.url;
    const pressed = e.request?.parameters?.digits?.trim();
    if (!url || !pressed) continue;
    let path: string;
    try {
      path = new URL(url).pathname;
    } catch {
      continue;
    }
    if (path.endsWith(TWILIO_WEBHOOK_PATHS.gather)) digits = pressed;
  }
  return digits;
}
