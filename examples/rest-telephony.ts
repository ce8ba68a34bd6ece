/**
 * A Telephony adapter for a real REST provider: a small one for a Twilio-like API (create a
 * call with a form POST, change a live call's program with another, progress posted back to
 * webhooks signed with HMAC-SHA1), with `fetch` and `node:http` only. The shape to copy for
 * a provider of your own; test/engine/example-rest-telephony.test.ts runs it against a local
 * fake of the provider.
 *
 * - `placeCall` creates the call with the attempt's idempotency key as `Idempotency-Key` and in
 *   every webhook URL (`?key=`), so each webhook names its attempt and the adapter keeps no map.
 * - `hangUp` receives the same key: it sends it with the update (a retried hang-up is one).
 * - `handle(req, res)` is the webhook endpoint: it checks the signature, turns the answer,
 *   key-press and status webhooks into telephony events, and answers TwiML.
 *
 * Leaves out (a production adapter adds them): looking for an earlier call before dialling when
 * `outcomeUnknown` is set and the provider ignores the key, deduplicating webhooks a provider
 * retries, texts, and voices.
 *
 * Run with a server of your own: `createServer((req, res) => void telephony.handle(req, res))`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  CallEndReason,
  Clock,
  HangUpOptions,
  PlaceCallRequest,
  PlaceCallResult,
  Telephony,
  TelephonyEvent,
  TelephonyEventHandler,
} from '../engine/index.js';

/** Where the provider is and how this process is reached. */
export interface RestTelephonyOptions {
  /** The provider's API root, e.g. `https://api.twilio.com`. */
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** Caller id, E.164. */
  from: string;
  /** Public URL of `handle` (the provider posts there), without a trailing slash. */
  webhookBase: string;
  /** The instant stamped on events (the runtime's clock). */
  clock: Pick<Clock, 'now'>;
}

/** A {@link Telephony} plus its webhook endpoint. */
export interface RestTelephony extends Telephony {
  /** Answers one webhook request of the provider. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** The provider's call statuses that end a call, as the engine's reasons. */
const ENDED: Record<string, CallEndReason> = {
  completed: 'completed',
  busy: 'busy',
  'no-answer': 'no_answer',
  failed: 'failed',
  canceled: 'cancelled',
};

/** Holds the line while the engine decides what to say (a hang-up replaces it). */
const HOLD = '<Response><Pause length="60"/></Response>';

/** Creates the adapter. */
export function createRestTelephony(o: RestTelephonyOptions): RestTelephony {
  let handler: TelephonyEventHandler = () => undefined;
  const api = `${o.baseUrl}/2010-04-01/Accounts/${o.accountSid}`;
  const auth = 'Basic ' + Buffer.from(`${o.accountSid}:${o.authToken}`).toString('base64');

  const post = (path: string, form: Record<string, string>, key: string) =>
    fetch(`${api}${path}`, {
      method: 'POST',
      headers: {
        authorization: auth,
        'content-type': 'application/x-www-form-urlencoded',
        'idempotency-key': key,
      },
      body: new URLSearchParams(form).toString(),
    });

  async function placeCall(request: PlaceCallRequest): Promise<PlaceCallResult> {
    const key = encodeURIComponent(request.idempotencyKey);
    const r = await post(
      '/Calls.json',
      {
        To: request.to,
        From: request.from ?? o.from,
        Url: `${o.webhookBase}/answer?key=${key}`,
        StatusCallback: `${o.webhookBase}/status?key=${key}`,
        StatusCallbackEvent: 'ringing',
        Timeout: String(request.ringTimeoutSeconds),
      },
      request.idempotencyKey,
    );
    const body = (await r.json()) as { sid?: string; message?: string; code?: number };
    if (r.ok && body.sid) return { ok: true, callId: body.sid };
    // A 5xx leaves the outcome unknown: reject, and the runtime asks again with the same key.
    if (r.status >= 500) throw new Error(`provider answered ${r.status}`);
    const code = body.code === 21211 ? 'invalid_number' : 'provider_refused';
    return { ok: false, code, detail: body.message ?? `HTTP ${r.status}`, retryable: false };
  }

  async function hangUp(callId: string, options?: HangUpOptions): Promise<void> {
    const form: Record<string, string> = options?.say
      ? { Twiml: `<Response><Say>${xml(options.say)}</Say><Hangup/></Response>` }
      : { Status: 'completed' };
    const r = await post(
      `/Calls/${callId}.json`,
      form,
      `hangup:${options?.idempotencyKey ?? callId}`,
    );
    // 404, or 400 for a call already over: hanging up is idempotent.
    if (!r.ok && r.status >= 500) throw new Error(`provider answered ${r.status}`);
    await r.body?.cancel();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', o.webhookBase);
    const params = new URLSearchParams(await readBody(req));
    if (!signed(o.authToken, `${o.webhookBase}${url.pathname}${url.search}`, params, req)) {
      res.writeHead(403).end();
      return;
    }
    const base = {
      callId: params.get('CallSid') ?? '',
      idempotencyKey: url.searchParams.get('key') ?? '',
      at: o.clock.now(),
    };
    let twiml = '<Response/>';
    const event = eventOf(url.pathname, params, base);
    if (url.pathname === '/answer') {
      const action = `${o.webhookBase}/digits?key=${encodeURIComponent(base.idempotencyKey)}`;
      twiml =
        `<Response><Gather numDigits="1" timeout="10" action="${xml(action)}">` +
        '<Say>Good morning. Press 1 if you are up, 2 to snooze, 9 to stop these calls.</Say>' +
        `</Gather>${HOLD.slice('<Response>'.length)}`;
    } else if (url.pathname === '/digits') {
      twiml = HOLD;
    }
    if (event) await handler(event);
    res.writeHead(200, { 'content-type': 'text/xml' }).end(twiml);
  }

  return { placeCall, hangUp, handle, onEvent: (h) => void (handler = h) };
}

/** The telephony event a webhook reports, or null (a status the engine does not need). */
function eventOf(
  path: string,
  params: URLSearchParams,
  base: { callId: string; idempotencyKey: string; at: number },
): TelephonyEvent | null {
  if (path === '/answer') {
    const machine = (params.get('AnsweredBy') ?? '').startsWith('machine');
    return { type: 'call.answered', ...base, by: machine ? 'machine' : 'person' };
  }
  if (path === '/digits')
    return { type: 'call.digits', ...base, digits: params.get('Digits') ?? '' };
  const status = params.get('CallStatus') ?? '';
  if (status === 'ringing') return { type: 'call.ringing', ...base };
  const reason = ENDED[status];
  if (!reason) return null;
  const duration = params.get('CallDuration');
  return {
    type: 'call.ended',
    ...base,
    reason,
    durationSeconds: duration === null ? null : Number(duration),
  };
}

/** Whether the request carries the provider's signature: HMAC-SHA1 of the URL and the sorted form fields. */
function signed(
  token: string,
  url: string,
  params: URLSearchParams,
  req: IncomingMessage,
): boolean {
  const data = [...params.keys()].sort().reduce((s, k) => s + k + (params.get(k) ?? ''), url);
  const expected = Buffer.from(createHmac('sha1', token).update(data).digest('base64'));
  const given = Buffer.from(String(req.headers['x-twilio-signature'] ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function xml(text: string): string {
  return text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
