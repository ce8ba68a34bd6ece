/**
 * Telephony on a Twilio-compatible provider: outbound calls over its REST API, progress
 * from its webhooks.
 *
 * - `placeCall` POSTs /Calls.json with the answer URL (`voice`, carrying the attempt key `k`
 *   and the script `s`, base64url JSON, so that any instance can answer after a restart),
 *   the status callback (`call-status?k=`), the ring timeout and answering-machine
 *   detection. In-process retries with one idempotency key share one request and its
 *   answer; the key also goes out as `Idempotency-Key` for providers that honour it.
 * - One provider request per placement in the normal path: a fresh placement
 *   (`PlaceCallRequest.outcomeUnknown` not set: no request for this attempt ever left this
 *   process) asks only the {@link PlacementLedger} whether a recovery elsewhere already sent
 *   a create for it, and POSTs. A placement whose outcome may be unknown (a recovered intent,
 *   a retry after a timeout, another host's attempt taken over), or that the ledger says
 *   another placement may have dialled, looks up first, as follows; a create is never sent
 *   again without that look-up.
 * - Exactly one call per attempt without relying on that header (Twilio ignores it): before
 *   dialling again, `placeCall` lists the provider's calls to that number from that caller id
 *   (GET /Calls.json?To=&From=, newest first) and adopts one created within
 *   {@link TwilioTelephonyOptions.lookupWindowMs} (or since the intent, when older) that is this attempt's own or no attempt's
 *   (by this process's table, then the {@link PlacementLedger}: every call created is
 *   recorded with its attempt before the number is let go). An unowned call is one a process
 *   killed between the create and its record placed for this attempt.
 *   The provider's list shows no field of ours on a live call (its Events log only 15
 *   minutes after the end), so "ours" is the number, the caller id, the window and the
 *   ledger; placements to one number run one at a time (queued in the process, and across
 *   hosts by the ledger's lock), so that two attempts to it cannot take each other's call and
 *   two hosts placing one attempt (a restarted host's reconciliation and the live host that
 *   stored the intent) cannot both dial. The list costs one GET per look-up; when
 *   it cannot be read the outcome is unknown (the promise rejects and the caller retries).
 *   An adopted call's progress seen in the list (ringing, ended) is replayed as events.
 * - Answer URL → `call.answered` (by `machine` when the provider's AnsweredBy says a machine
 *   or fax), answered with TwiML: the script inside a one-digit Gather, then a goodbye.
 * - Gather action → `call.digits`; the call then holds (Pause) until `hangUp`.
 * - Status callbacks → `call.ringing` and the one `call.ended`.
 * Events for one call are handled one at a time, in arrival order; a duplicate or a
 * late event (a ringing after the answer, anything after the end) is dropped, so the
 * handler sees each event at most once per call, ending with exactly one `call.ended`.
 * With an {@link EventLog} (the database) this holds across restarts too: each event is
 * recorded under `call:<CallSid>:<ringing|answered|digits|ended>` once handled, and a
 * replay (a provider retry, or a captured signed request sent again) finds it there.
 *
 * `hangUp` during a webhook of the same call (the engine reacting to a digit) is answered
 * in that webhook's TwiML; otherwise it updates the live call over REST (cancel while
 * ringing; a closing Say and Hangup once answered).
 *
 * Signatures are checked by `webhooks.ts` before anything here runs.
 * @module
 */
import type {
  CallEndReason,
  Clock,
  PlaceCallRequest,
  PlaceCallResult,
  Telephony,
  TelephonyEvent,
  TelephonyEventHandler,
} from '../../../engine/ports.js';
import type { CallScript } from '../../../engine/model.js';
import { renderScript } from '../../reference/speech.js';
import type { TextOptions } from '../../reference/texts.js';
import { classifyApiError, type TwilioCallListItem, type TwilioClient } from './client.js';
import type { EventLog, PlacementLedger, WebhookResponse } from '../../ports/telephony.js';
import { CALL_WEBHOOK_RETRIES, TWILIO_WEBHOOK_PATHS } from './paths.js';
import { twiml, type TwimlVerb } from './twiml.js';

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
  warn?: (message: string, detail?: Record<string, unknown>) => void;
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
    kind: 'voice' | 'gather' | 'callStatus',
    query: URLSearchParams,
    params: Record<string, string>,
  ): Promise<WebhookResponse>;
}

/** What one read-back pass of {@link TwilioTelephony.resume} found. */
export interface ResumeCounts {
  /** Calls read back. */
  checked: number;
  /** Of those, calls the provider said had ended: ended here now. */
  ended: number;
  /** Calls still live at the provider (read again later). */
  live: number;
  /** Calls whose read failed: read again later. */
  unknown: number;
}

type Stage = 'placed' | 'ringing' | 'answered' | 'ended';

interface CallState {
  sid: string;
  key: string;
  stage: Stage;
  digitsSeen: boolean;
  /** Webhooks of this call now awaiting the event handler. */
  inWebhook: number;
  /** A hangUp asked for while a webhook was running: its TwiML carries it. */
  pendingHangup: { say?: string } | null;
  hangupRequested: boolean;
  endedAt: number | null;
  /** When this process first saw the call (prunes calls whose end never arrived). */
  seenAt: number;
  queue: Promise<unknown>;
}

const END_REASONS: Record<string, CallEndReason> = {
  completed: 'completed',
  busy: 'busy',
  'no-answer': 'no_answer',
  failed: 'failed',
  canceled: 'cancelled',
};

/** Ended calls are remembered this long to drop the provider's late retries. */
const KEEP_ENDED_MS = 60 * 60_000;
/** A call whose end never arrived is forgotten after this long (no call lasts so long). */
const KEEP_UNENDED_MS = 6 * 60 * 60_000;
/** Clocks of the provider and of the host that stored an intent may differ by this much. */
const LOOKUP_SKEW_MS = 60_000;
/** Placement results (per idempotency key) are kept this long for in-process retries. */
const KEEP_PLACING_MS = 60 * 60_000;

/** How far back a restart reads calls back (no call of ours lasts longer). */
const RESUME_WINDOW_MS = 60 * 60_000;
/** Live calls are read back again this long after a pass, at most {@link RESUME_PASSES} passes. */
const RESUME_AGAIN_MS = 60_000;
const RESUME_PASSES = 15;
/** Calls read back per pass, and at once. */
const RESUME_PAGE = 10_000;
const RESUME_PARALLEL = 4;

const VOICES: Record<string, string> = { female: 'woman', male: 'man' };

/** Encodes a script for the answer URL. */
export function encodeScript(script: CallScript): string {
  return Buffer.from(JSON.stringify(script), 'utf8').toString('base64url');
}

function decodeScript(value: string | null): CallScript | null {
  if (!value) return null;
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as CallScript;
    return parsed && typeof parsed === 'object' && typeof parsed.kind === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

/** Creates the adapter. */
export function createTwilioTelephony(options: TwilioTelephonyOptions): TwilioTelephony {
  const { client, clock } = options;
  const gatherTimeout = options.gatherTimeoutSeconds ?? 8;
  const holdSeconds = options.holdSeconds ?? 60;
  const warn = options.warn ?? (() => undefined);
  const calls = new Map<string, CallState>();
  /** Placements by idempotency key, oldest first (a Map keeps insertion order). */
  const placing = new Map<string, { result: Promise<PlaceCallResult>; at: number }>();
  /** The last placement per destination number: placements to one number run one at a time. */
  const byNumber = new Map<string, Promise<unknown>>();
  const lookupWindowMs = options.lookupWindowMs ?? 30 * 60_000;
  let lookups = 0;
  /** Keys whose create rejected in this process (outcome unknown): their next placement looks up, flagged or not. */
  const uncertain = new Set<string>();
  const ledger: PlacementLedger = options.ledger ?? {
    exclusive: (_to, fn) => fn(() => undefined),
    ownerOf: () => Promise.resolve(null),
    record: () => Promise.resolve(),
  };
  const log = options.events;

  /** Hands `event` to the handler unless the log has it; records it once handled. */
  const once = async (s: CallState, event: TelephonyEvent, inWebhook = false) => {
    const key = `call:${s.sid}:${event.type.slice('call.'.length)}`;
    if (await log?.seen(key)) return;
    if (inWebhook) await emitInWebhook(s, event);
    else await handler(event);
    await log?.record(key);
  };
  let handler: TelephonyEventHandler = () => undefined;

  /** A call webhook's URL, with the connection overrides that make the provider retry it. */
  const url = (path: string, query: Record<string, string>) =>
    `${options.publicUrl()}${path}?${new URLSearchParams(query).toString()}${CALL_WEBHOOK_RETRIES}`;

  /** Forgets ended calls after an hour, unended ones after six, placements after an hour. */
  const prune = () => {
    const now = clock.now();
    for (const [sid, s] of calls) {
      if (s.endedAt !== null ? now - s.endedAt > KEEP_ENDED_MS : now - s.seenAt > KEEP_UNENDED_MS)
        calls.delete(sid);
    }
    for (const [key, p] of placing) {
      if (now - p.at <= KEEP_PLACING_MS) break;
      placing.delete(key);
    }
    if (uncertain.size > 10_000) uncertain.clear(); // the ledger's `sending` rows still say so
  };

  const stateOf = (sid: string, key: string): CallState => {
    let s = calls.get(sid);
    if (!s) {
      s = {
        sid,
        key,
        stage: 'placed',
        digitsSeen: false,
        inWebhook: 0,
        pendingHangup: null,
        hangupRequested: false,
        endedAt: null,
        seenAt: clock.now(),
        queue: Promise.resolve(),
      };
      calls.set(sid, s);
    }
    return s;
  };

  /** Runs `fn` after every earlier webhook of the same call finished. */
  const serial = <T>(s: CallState, fn: () => Promise<T>): Promise<T> => {
    const run = s.queue.then(fn, fn);
    s.queue = run.catch(() => undefined);
    return run;
  };

  /** Emits one event while marking the call as "inside a webhook". */
  const emitInWebhook = async (s: CallState, event: TelephonyEvent) => {
    s.inWebhook += 1;
    try {
      await handler(event);
    } finally {
      s.inWebhook -= 1;
    }
  };

  const hangupTwiml = (say?: string): WebhookResponse => ({
    status: 200,
    contentType: 'text/xml',
    body: twiml([...(say ? [{ verb: 'Say', text: say } as TwimlVerb] : []), { verb: 'Hangup' }]),
  });

  const xml = (verbs: TwimlVerb[]): WebhookResponse => ({
    status: 200,
    contentType: 'text/xml',
    body: twiml(verbs),
  });

  async function onVoice(
    s: CallState,
    query: URLSearchParams,
    params: Record<string, string>,
  ): Promise<WebhookResponse> {
    const answeredBy = params.AnsweredBy ?? '';
    const by = answeredBy.startsWith('machine') || answeredBy === 'fax' ? 'machine' : 'person';
    if (s.stage === 'placed' || s.stage === 'ringing') {
      s.stage = 'answered';
      await once(
        s,
        { type: 'call.answered', callId: s.sid, idempotencyKey: s.key, at: clock.now(), by },
        true,
      );
    }
    if (s.pendingHangup || s.stage === 'ended') {
      const say = s.pendingHangup?.say;
      s.pendingHangup = null;
      return hangupTwiml(say);
    }
    const script = decodeScript(query.get('s'));
    if (!script) {
      warn('twilio: answer URL without a readable script', { callSid: s.sid });
      return hangupTwiml();
    }
    const speech = renderScript(script, options.text);
    const voice = 'voice' in script && script.voice ? VOICES[script.voice] : undefined;
    if (!speech.gather)
      return xml([
        { verb: 'Say', text: speech.text, ...(voice ? { voice } : {}) },
        { verb: 'Hangup' },
      ]);
    return xml([
      {
        verb: 'Gather',
        action: url(TWILIO_WEBHOOK_PATHS.gather, { k: s.key }),
        timeoutSeconds: gatherTimeout,
        say: { text: speech.text, ...(voice ? { voice } : {}) },
      },
      { verb: 'Say', text: speech.noInput, ...(voice ? { voice } : {}) },
      { verb: 'Hangup' },
    ]);
  }

  /**
   * The provider's word that the call was answered (a Gather action; a `completed` status,
   * which Twilio gives only to answered calls) when this instance's memory still says placed
   * or ringing: another instance served the answer URL (several hosts behind one load
   * balancer). The event log holds that instance's `answered` (this one is then skipped); if
   * it died first, this records it.
   */
  async function answeredElsewhere(s: CallState, params: Record<string, string>): Promise<void> {
    if (s.stage !== 'placed' && s.stage !== 'ringing') return;
    s.stage = 'answered';
    const by = (params.AnsweredBy ?? '').startsWith('machine') ? 'machine' : 'person';
    await once(
      s,
      { type: 'call.answered', callId: s.sid, idempotencyKey: s.key, at: clock.now(), by },
      true,
    );
  }

  async function onGather(s: CallState, params: Record<string, string>): Promise<WebhookResponse> {
    const digits = (params.Digits ?? '').trim();
    await answeredElsewhere(s, params);
    if (digits && s.stage === 'answered' && !s.digitsSeen) {
      s.digitsSeen = true;
      await once(
        s,
        { type: 'call.digits', callId: s.sid, idempotencyKey: s.key, at: clock.now(), digits },
        true,
      );
    }
    if (s.pendingHangup) {
      const say = s.pendingHangup.say;
      s.pendingHangup = null;
      return hangupTwiml(say);
    }
    // Hold the line while the engine decides; a later hangUp replaces this over REST.
    return xml([{ verb: 'Pause', seconds: holdSeconds }, { verb: 'Hangup' }]);
  }

  async function onStatus(s: CallState, params: Record<string, string>): Promise<WebhookResponse> {
    const status = params.CallStatus ?? '';
    if (status === 'ringing') {
      if (s.stage === 'placed') {
        s.stage = 'ringing';
        await once(s, {
          type: 'call.ringing',
          callId: s.sid,
          idempotencyKey: s.key,
          at: clock.now(),
        });
      }
    } else if (END_REASONS[status] && s.stage !== 'ended') {
      if (status === 'completed') await answeredElsewhere(s, params);
      const answered = s.stage === 'answered';
      s.stage = 'ended';
      s.endedAt = clock.now();
      const duration = Number(params.CallDuration);
      const event: TelephonyEvent = {
        type: 'call.ended',
        callId: s.sid,
        idempotencyKey: s.key,
        at: s.endedAt,
        reason: END_REASONS[status],
        durationSeconds: answered && Number.isFinite(duration) ? duration : null,
        ...(status === 'failed' && params.ErrorCode ? { errorCode: params.ErrorCode } : {}),
      };
      await once(s, event);
    }
    return { status: 204, contentType: 'text/plain', body: '' };
  }

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

  /** A call at the provider that this attempt placed earlier, or null (see the module header). */
  async function findPlaced(
    to: string,
    from: string,
    key: string,
    requestedAt?: number,
  ): Promise<TwilioCallListItem | null> {
    lookups++;
    const list = await client.listCalls({ to, from, pageSize: 50 });
    if (!list.ok) {
      throw new Error(
        `twilio: the call list answered ${list.error.status} (${list.error.message}); whether a call was placed is unknown`,
      );
    }
    // Back to the intent at least: a recovery after a long outage still finds its call.
    let since = clock.now() - lookupWindowMs;
    if (requestedAt !== undefined && requestedAt - LOOKUP_SKEW_MS < since)
      since = requestedAt - LOOKUP_SKEW_MS;
    for (const c of list.body?.calls ?? []) {
      const created = Date.parse(c.date_created);
      if (!(created >= since)) continue;
      // Ours: created for this attempt (by an earlier request, here or on another host), or
      // by no recorded attempt (a process died between the create and its record).
      const owner = calls.get(c.sid)?.key ?? (await ledger.ownerOf(c.sid));
      if (owner !== null && owner !== key) continue;
      return c;
    }
    return null;
  }

  /** Replays what the list says of an adopted call's progress (its webhooks may have been lost). */
  function replayAdopted(s: CallState, status: string): void {
    if (status === 'queued' || status === 'initiated') return;
    // After the runtime has recorded the placement (it handles `placed` when placeCall resolves).
    clock.setTimer(clock.now() + 1000, () =>
      serial(s, async () => {
        if (s.stage === 'placed' && (status === 'ringing' || status === 'in-progress')) {
          s.stage = 'ringing';
          await once(s, {
            type: 'call.ringing',
            callId: s.sid,
            idempotencyKey: s.key,
            at: clock.now(),
          });
        } else if (END_REASONS[status] && s.stage !== 'ended') {
          s.stage = 'ended';
          s.endedAt = clock.now();
          await once(s, {
            type: 'call.ended',
            callId: s.sid,
            idempotencyKey: s.key,
            at: s.endedAt,
            reason: END_REASONS[status],
            durationSeconds: null,
          });
        }
      }).catch((err: unknown) =>
        warn('twilio: replaying an adopted call failed', { callSid: s.sid, err: String(err) }),
      ),
    );
  }

  /** One read-back pass (see {@link TwilioTelephony.resume}). */
  async function readBack(): Promise<ResumeCounts> {
    const counts: ResumeCounts = { checked: 0, ended: 0, live: 0, unknown: 0 };
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
      const r = await client.getCall(callSid).catch(() => null);
      if (!r?.ok) {
        if (r?.error.status !== 404) counts.unknown++; // a call the provider does not know is not read again
        return;
      }
      const status = r.body.status;
      if (!END_REASONS[status]) {
        counts.live++;
        return;
      }
      counts.ended++;
      // What its status callback says; answered (completed) first, as a lost Gather's caller would.
      const s = stateOf(callSid, idempotencyKey);
      await serial(s, () =>
        onStatus(s, {
          CallStatus: status,
          CallDuration: r.body.duration ?? '',
          AnsweredBy: r.body.answered_by ?? '',
        }),
      );
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

  return {
    resume: () => resume(),

    placeCall(request: PlaceCallRequest): Promise<PlaceCallResult> {
      prune();
      const known = placing.get(request.idempotencyKey);
      if (known) return known.result;
      const params: Array<[string, string]> = [
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
      const key = request.idempotencyKey;
      const attempt = oneAtATime(request.to, async (hold): Promise<PlaceCallResult> => {
        // A fresh placement asks the ledger (no provider request): only a recovery of this
        // attempt, here or on another host, can have sent a create for it.
        let lookUp = request.outcomeUnknown === true || uncertain.has(key) || !ledger.placedFor;
        if (!lookUp) {
          const known = await ledger.placedFor!(key);
          if (known === 'unknown') lookUp = true;
          else if (known !== null) {
            stateOf(known.callSid, key);
            return { ok: true, callId: known.callSid };
          }
        }
        if (lookUp) {
          const earlier = await findPlaced(
            request.to,
            request.from ?? options.from,
            key,
            request.requestedAt,
          );
          if (earlier) {
            warn('twilio: adopted a call placed earlier for this attempt', {
              callSid: earlier.sid,
              status: earlier.status,
            });
            const s = stateOf(earlier.sid, key);
            await ledger.record(earlier.sid, key); // a fresh placement of the key elsewhere finds it in the ledger
            replayAdopted(s, earlier.status);
            return { ok: true, callId: earlier.sid };
          }
          // A fresh placement of this attempt elsewhere must now look up too (see PlacementLedger.sending).
          await ledger.sending?.(key);
        }
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
        stateOf(response.body.sid, request.idempotencyKey);
        await ledger.record(response.body.sid, request.idempotencyKey);
        return { ok: true, callId: response.body.sid };
      });
      const entry = { result: attempt, at: clock.now() };
      placing.set(request.idempotencyKey, entry);
      // Outcome unknown (network): forget it so that the caller's retry asks again.
      attempt.catch(() => {
        if (placing.get(request.idempotencyKey) === entry) placing.delete(request.idempotencyKey);
      });
      return attempt;
    },

    async hangUp(callId: string, hangUpOptions?: { say?: string }): Promise<void> {
      const s = calls.get(callId);
      if (s && (s.stage === 'ended' || s.hangupRequested)) return;
      if (s && s.inWebhook > 0) {
        s.pendingHangup = hangUpOptions?.say ? { say: hangUpOptions.say } : {};
        s.hangupRequested = true;
        return;
      }
      if (s) s.hangupRequested = true;
      try {
        const answered = s?.stage === 'answered';
        const first = answered
          ? await client.updateCall(callId, {
              Twiml: twiml([
                ...(hangUpOptions?.say
                  ? [{ verb: 'Say', text: hangUpOptions.say } as TwimlVerb]
                  : []),
                { verb: 'Hangup' },
              ]),
            })
          : await client.updateCall(callId, { Status: 'canceled' });
        // Cancel only works before the answer; the call may have been answered meanwhile.
        if (!first.ok && !answered) {
          const second = await client.updateCall(callId, { Status: 'completed' });
          if (!second.ok)
            warn('twilio: hang-up refused (call probably over)', {
              callSid: callId,
              error: second.error,
            });
        }
      } catch (err) {
        if (s) s.hangupRequested = false;
        throw err;
      }
    },

    onEvent(next: TelephonyEventHandler): void {
      handler = next;
    },

    memory() {
      prune();
      return { calls: calls.size, placements: placing.size };
    },

    lookups: () => lookups,

    handleCallWebhook(kind, query, params) {
      const sid = params.CallSid;
      const key = query.get('k');
      if (!sid || !key)
        return Promise.resolve({
          status: 400,
          contentType: 'text/plain',
          body: 'CallSid and k are required',
        });
      const s = stateOf(sid, key);
      return serial(s, () =>
        kind === 'voice'
          ? onVoice(s, query, params)
          : kind === 'gather'
            ? onGather(s, params)
            : onStatus(s, params),
      );
    },
  };
}
