/**
 * A local fake of a Twilio-compatible provider's HTTP API, for tests: it listens on
 * loopback, accepts the REST requests the adapter makes (create call, update call, list
 * calls, create and list messages) with Basic auth, and plays each call against the service's webhooks exactly as
 * the provider would (signed with X-Twilio-Signature): status callbacks, the answer URL with
 * AnsweredBy, the TwiML it answers (Say, Gather, Pause, Hangup), the Gather action with the
 * pressed digit.
 *
 * Like Twilio, it ignores the Idempotency-Key header unless `honourIdempotencyKey` is set,
 * lists calls at GET /Calls.json (filters To, From, PageSize; newest first; RFC 2822
 * dates; no field of the caller's on a call), reads one at GET /Calls/{sid}.json (its status
 * now, `duration`, `answered_by`), lists the webhooks it sent during a call at
 * GET /Calls/{sid}/Events.json (URL, parameters in snake_case, the response code: null when
 * no answer came), and tries a failed webhook again as its URL's connection
 * overrides say (the `#rc=…&rp=…` fragment; Twilio's default without one: one retry when the
 * connection fails). `dropCreateResponses` makes it accept that
 * many create-call requests and then drop the connection without answering, as a crash or
 * a network cut while the answer is in flight would.
 *
 * Destination phones play the contract §3 behaviours (set with `setPhone`), and every step
 * is a timer on the injected Clock, so a VirtualClock's `advance()` plays whole calls
 * (each timer awaits its webhook round trip).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock, TimerHandle } from '../../engine/ports.js';
import type { PhoneBehaviour, SimulatedPhone } from '../../host/ports/telephony.js';
import { computeTwilioSignature } from '../../host/adapters/twilio/signature.js';

/** Seconds a Say takes in the fake. */
export const FAKE_SAY_SECONDS = 6;
/** What the fake says when a Gather action gets no answer or an error, before it hangs up. */
export const APPLICATION_ERROR = 'We are sorry, an application error has occurred. Goodbye!';

type Verb =
  | { verb: 'Say'; text: string }
  | { verb: 'Gather'; action: string; timeout: number; says: string[] }
  | { verb: 'Pause'; seconds: number }
  | { verb: 'Hangup' };

/** A call as the fake sees it. */
export interface FakeCall {
  sid: string;
  to: string;
  from: string;
  params: URLSearchParams;
  status:
    | 'queued'
    | 'ringing'
    | 'in-progress'
    | 'completed'
    | 'busy'
    | 'no-answer'
    | 'failed'
    | 'canceled';
  behaviour: PhoneBehaviour;
  answeredAt: number | null;
  /** Every sentence spoken on the call, in order. */
  spoken: string[];
  timers: TimerHandle[];
  /** Provider time of creation (the fake's clock). */
  createdAt: number;
  /** Provider time of the end, once over. */
  endedAt: number | null;
  /** The digit the phone pressed at the Gather, or null (whether the service heard it or not). */
  pressed: string | null;
  /** Whether the service answered that Gather action (2xx): it was told of the key. */
  heard: boolean;
  /** Bumped when the call's TwiML program is replaced, to retire the old program's steps. */
  program: number;
}

/** A text the fake accepted. */
export interface FakeMessage {
  sid: string;
  to: string;
  from: string;
  body: string;
  /** Provider time of creation (the fake's clock). */
  createdAt: number;
}

/** Handle on a running fake. */
export interface FakeTwilio {
  /** API root to configure the client with (`baseUrl`). */
  url: string;
  accountSid: string;
  authToken: string;
  setPhone(e164: string, phone: SimulatedPhone): void;
  calls: Map<string, FakeCall>;
  messages: FakeMessage[];
  /** Numbers that "replied STOP at the carrier": texts to them fail with 21610. */
  optedOut: Set<string>;
  /** Number of create-call requests that reached the fake (dedupe checks). */
  createCallRequests: number;
  /** Number of call-list requests that reached the fake. */
  listCallRequests: number;
  /** Number of single-call reads (GET /Calls/{sid}.json) that reached the fake. */
  readonly getCallRequests: number;
  /** Number of call event reads (GET /Calls/{sid}/Events.json) that reached the fake. */
  readonly listEventRequests: number;
  /** Webhook requests tried again after a failure, as their URLs' connection overrides asked. */
  readonly webhookRetries: number;
  /** Webhooks that did not answer 2xx, by status (0: a network error; `timeout`: no answer within the total time). */
  webhookFailures: Record<string, number>;
  /** Webhooks sent and not answered yet. */
  readonly webhooksInFlight: number;
  /** Accept this many create-call requests but drop each connection instead of answering. */
  dropCreateResponses: number;
  /** Accept this many create-message requests but drop each connection instead of answering. */
  dropMessageResponses: number;
  /** Number of message-list requests (GET /Messages.json) that reached the fake. */
  readonly listMessageRequests: number;
  /**
   * Sends a signed inbound-text webhook to `webhookUrl`; resolves with the HTTP status. With
   * `messageSid` of an earlier inbound text, the same signed request goes again (a replay);
   * GET /Messages/{sid}.json answers each inbound text's `date_created`.
   */
  inboundText(
    webhookUrl: string,
    from: string,
    to: string,
    body: string,
    options?: { signature?: string | null; messageSid?: string },
  ): Promise<number>;
  /** The MessageSid of the latest inbound text sent. */
  lastInboundSid: string | null;
  close(): Promise<void>;
}

/** Options of {@link startFakeTwilio}. */
export interface FakeTwilioOptions {
  clock: Clock;
  accountSid?: string;
  authToken?: string;
  /** Dedupe create-call requests by Idempotency-Key (Twilio does not). @defaultValue false */
  honourIdempotencyKey?: boolean;
  /** Wait this long after reading a create-call request before carrying it out (a slow provider). @defaultValue 0 */
  createDelayMs?: number;
  /** Carry out create-call requests only once this settles (a provider slower than any client timeout). */
  createGate?: Promise<unknown>;
  /** How a number not set with `setPhone` behaves. @defaultValue confirm after 5 s of ringing */
  defaultPhone?: SimulatedPhone;
  /**
   * Try failed webhooks again as their URLs' connection overrides say. False plays an outage
   * longer than any retry: each webhook is sent once. @defaultValue true
   */
  retryWebhooks?: boolean;
  /**
   * Give up on a webhook not answered within its total time (`tt`, 15 s), as Twilio does. The
   * crash loop turns it off: there the fake shares two cores with the server and plays calls
   * 20 times faster, so its own event-loop lag would count as the server's. @defaultValue true
   */
  answerTimeout?: boolean;
}

/**
 * A webhook URL's connection overrides, as Twilio reads them from its fragment
 * (`#rc=5&rp=ct,rt,5xx&ct=1000&tt=15000`): `rc` retries (0 to 5, default 1), on the failures
 * `rp` names (`ct` no connection, `rt` no answer in time, `4xx`, `5xx`, `all`; default `ct`),
 * within `tt` ms in all (at most 15000). `url` is the URL without the fragment.
 */
export function connectionOverrides(href: string): {
  url: string;
  rc: number;
  rp: Set<string>;
  tt: number;
} {
  const hash = href.indexOf('#');
  const fragment = new URLSearchParams(hash < 0 ? '' : href.slice(hash + 1));
  const rc = Math.min(5, Math.max(0, Number(fragment.get('rc') ?? 1) || 0));
  const rp = new Set((fragment.get('rp') ?? 'ct').split(','));
  if (rp.has('all')) for (const p of ['ct', 'rt', '4xx', '5xx']) rp.add(p);
  const tt = Math.min(15_000, Math.max(100, Number(fragment.get('tt') ?? 15_000) || 15_000));
  return { url: hash < 0 ? href : href.slice(0, hash), rc, rp, tt };
}

/** RFC 2822 in UTC, as Twilio writes dates: `Tue, 04 May 2027 12:00:00 +0000`. */
/** Webhook parameters as the provider's call events show them: `CallSid` → `call_sid`. */
function snakeCased(params: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params).map(([k, v]) => [
      k.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase(),
      v,
    ]),
  );
}

function rfc2822(ms: number): string {
  return new Date(ms).toUTCString().replace('GMT', '+0000');
}

const DIGIT: Partial<Record<PhoneBehaviour, string>> = { confirm: '1', snooze: '2', stop: '9' };

function unescapeXml(s: string): string {
  return s.replace(
    /&(lt|gt|amp|quot|apos);/g,
    (_, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e]!,
  );
}

function attr(attrs: string, name: string): string | undefined {
  const m = new RegExp(`${name}="([^"]*)"`).exec(attrs);
  return m ? unescapeXml(m[1]!) : undefined;
}

/** Parses the small TwiML subset the service produces. */
export function parseTwiml(xml: string): Verb[] {
  const verbs: Verb[] = [];
  const body = /<Response>([\s\S]*)<\/Response>/.exec(xml)?.[1] ?? '';
  const re =
    /<Say[^>]*>([\s\S]*?)<\/Say>|<Gather([^>]*)>([\s\S]*?)<\/Gather>|<Pause([^>]*)\/>|<Hangup\/>/g;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    if (m[0].startsWith('<Say')) verbs.push({ verb: 'Say', text: unescapeXml(m[1]!) });
    else if (m[0].startsWith('<Gather')) {
      const says = [...m[3]!.matchAll(/<Say[^>]*>([\s\S]*?)<\/Say>/g)].map((x) =>
        unescapeXml(x[1]!),
      );
      verbs.push({
        verb: 'Gather',
        action: attr(m[2]!, 'action') ?? '',
        timeout: Number(attr(m[2]!, 'timeout') ?? 5),
        says,
      });
    } else if (m[0].startsWith('<Pause'))
      verbs.push({ verb: 'Pause', seconds: Number(attr(m[4]!, 'length') ?? 1) });
    else verbs.push({ verb: 'Hangup' });
  }
  return verbs;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Starts the fake on 127.0.0.1 (random port). */
export async function startFakeTwilio(options: FakeTwilioOptions): Promise<FakeTwilio> {
  const { clock } = options;
  const accountSid = options.accountSid ?? 'ACfake00000000000000000000000000';
  const authToken = options.authToken ?? 'fake-auth-token';
  const phones = new Map<string, { phone: SimulatedPhone; next: number }>();
  const calls = new Map<string, FakeCall>();
  /** Calls by destination, oldest first (the call list filtered by To stays cheap with many calls). */
  const callsTo = new Map<string, FakeCall[]>();
  const defaultPhone = options.defaultPhone ?? { answers: ['confirm'], ring_seconds: 5 };
  const byIdempotencyKey = new Map<string, string>();
  const messages: FakeMessage[] = [];
  const optedOut = new Set<string>();
  let createCallRequests = 0;
  let listCallRequests = 0;
  let getCallRequests = 0;
  const webhookFailures: Record<string, number> = {};
  let webhooksInFlight = 0;
  let webhookRetries = 0;
  const inbound = new Map<string, number>();
  let lastInboundSid: string | null = null;
  let dropCreateResponses = 0;
  let dropMessageResponses = 0;
  let listMessageRequests = 0;
  let listEventRequests = 0;
  /** Per call sid, the webhooks sent during the call, as `GET /Calls/{sid}/Events.json` lists them. */
  const callEvents = new Map<string, unknown[]>();

  /**
   * POSTs a signed webhook; returns the response text ('' on failure). A URL's connection
   * overrides (its fragment: `rc`, `rp`, `ct`, `tt`; see {@link connectionOverrides}) say how
   * often a failed request is tried again, in real time; the request carries the URL without
   * its fragment, and the signature is over that URL.
   */
  async function webhook(
    url: string,
    params: Record<string, string>,
    signature?: string | null,
  ): Promise<{ status: number; text: string }> {
    const o = connectionOverrides(url);
    if (options.retryWebhooks === false) o.rc = 0;
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    const sig =
      signature === undefined ? computeTwilioSignature(authToken, o.url, params) : signature;
    if (sig !== null) headers['x-twilio-signature'] = sig;
    const started = Date.now();
    webhooksInFlight++;
    const answered = { status: 0, text: '' };
    try {
      const r = await attempts();
      Object.assign(answered, r);
      return r;
    } finally {
      webhooksInFlight--;
      if (params.CallSid) {
        const list = callEvents.get(params.CallSid) ?? [];
        list.push({
          request: { method: 'POST', url: o.url, parameters: snakeCased(params) },
          response: {
            date_created: rfc2822(clock.now()),
            response_code: answered.status || null,
            content_type: 'text/xml',
          },
        });
        callEvents.set(params.CallSid, list);
      }
    }

    async function attempts(): Promise<{ status: number; text: string }> {
      for (let retry = 0; ; retry++) {
        let failure: 'ct' | 'rt' | '4xx' | '5xx';
        try {
          const r = await fetch(o.url, {
            method: 'POST',
            headers,
            body: new URLSearchParams(params).toString(),
            ...(options.answerTimeout === false
              ? {}
              : { signal: AbortSignal.timeout(Math.max(100, o.tt - (Date.now() - started))) }),
          });
          if (r.status < 400) return { status: r.status, text: await r.text() };
          webhookFailures[r.status] = (webhookFailures[r.status] ?? 0) + 1;
          failure = r.status >= 500 ? '5xx' : '4xx';
          if (retry >= o.rc || !o.rp.has(failure))
            return { status: r.status, text: await r.text() };
          await r.body?.cancel();
        } catch (err) {
          failure = (err as Error).name === 'TimeoutError' ? 'rt' : 'ct';
          const k = failure === 'rt' ? 'timeout' : 0;
          webhookFailures[k] = (webhookFailures[k] ?? 0) + 1;
          if (retry >= o.rc || !o.rp.has(failure)) return { status: 0, text: '' };
        }
        // Tried again after 0.5, 1, 2, 4… s, within the total time.
        const wait = 500 * 2 ** retry;
        if (Date.now() - started + wait >= o.tt) return { status: 0, text: '' };
        webhookRetries++;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  const base = (call: FakeCall, status: string): Record<string, string> => ({
    AccountSid: accountSid,
    CallSid: call.sid,
    From: call.from,
    To: call.to,
    Direction: 'outbound-api',
    CallStatus: status,
  });

  const at = (
    call: FakeCall,
    seconds: number,
    fn: () => Promise<void> | void,
    program = call.program,
  ) => {
    call.timers.push(
      clock.setTimer(clock.now() + seconds * 1000, () => {
        if (call.program !== program || isOver(call)) return;
        return fn();
      }),
    );
  };

  const isOver = (call: FakeCall) =>
    ['completed', 'busy', 'no-answer', 'failed', 'canceled'].includes(call.status);

  const statusEvents = (call: FakeCall) =>
    call.params.getAll('StatusCallbackEvent').flatMap((v) => v.split(' '));

  async function end(
    call: FakeCall,
    status: 'completed' | 'busy' | 'no-answer' | 'failed' | 'canceled',
  ) {
    if (isOver(call)) return;
    call.status = status;
    call.endedAt = clock.now();
    for (const t of call.timers) t.cancel();
    call.timers = [];
    const cb = call.params.get('StatusCallback');
    if (!cb) return;
    const params = base(call, status);
    if (call.answeredAt !== null)
      params.CallDuration = String(Math.round((clock.now() - call.answeredAt) / 1000));
    await webhook(cb, params);
  }

  /** Runs a TwiML program from its first verb. */
  function run(call: FakeCall, verbs: Verb[]) {
    call.program += 1;
    const program = call.program;
    const step = (i: number): void | Promise<void> => {
      const v = verbs[i];
      if (!v || v.verb === 'Hangup') return end(call, 'completed');
      if (v.verb === 'Say') {
        call.spoken.push(v.text);
        at(call, FAKE_SAY_SECONDS, () => step(i + 1), program);
      } else if (v.verb === 'Pause') {
        at(call, v.seconds, () => step(i + 1), program);
      } else {
        call.spoken.push(...v.says);
        const speech = FAKE_SAY_SECONDS * v.says.length;
        const digit = call.behaviour === 'voicemail' ? undefined : DIGIT[call.behaviour];
        if (digit) {
          at(
            call,
            speech,
            async () => {
              call.pressed = digit;
              const r = await webhook(v.action, { ...base(call, 'in-progress'), Digits: digit });
              call.heard = r.status >= 200 && r.status < 300;
              if (call.program !== program) return;
              if (call.heard) return run(call, parseTwiml(r.text));
              // As Twilio does when an action URL fails: an error message, then the hang-up.
              call.spoken.push(APPLICATION_ERROR);
              at(call, FAKE_SAY_SECONDS, () => end(call, 'completed'), program);
            },
            program,
          );
        } else {
          at(call, speech + v.timeout, () => step(i + 1), program);
        }
      }
    };
    return step(0);
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const expected = 'Basic ' + Buffer.from(`${accountSid}:${authToken}`).toString('base64');
    if (req.headers.authorization !== expected)
      return send(401, { code: 20003, message: 'Authenticate', status: 401 });
    const prefix = `/2010-04-01/Accounts/${accountSid}`;
    const target = new URL(req.url ?? '/', 'http://fake');
    const path = target.pathname.startsWith(prefix) ? target.pathname.slice(prefix.length) : '';
    const form = await readForm(req);

    if (req.method === 'GET' && path === '/Calls.json') {
      listCallRequests += 1;
      const q = target.searchParams;
      const pageSize = Math.min(1000, Math.max(1, Number(q.get('PageSize') ?? 50) || 50));
      const to = q.get('To');
      const list = [...(to ? (callsTo.get(to) ?? []) : calls.values())]
        .filter(
          (c) =>
            (!q.get('To') || c.to === q.get('To')) && (!q.get('From') || c.from === q.get('From')),
        )
        .sort((a, b) => b.createdAt - a.createdAt)
        .slice(0, pageSize)
        .map((c) => ({
          sid: c.sid,
          account_sid: accountSid,
          to: c.to,
          from: c.from,
          status: c.status,
          direction: 'outbound-api',
          date_created: rfc2822(c.createdAt),
          start_time: c.status === 'queued' ? null : rfc2822(c.createdAt),
          end_time: null,
          uri: `${prefix}/Calls/${c.sid}.json`,
        }));
      return send(200, {
        calls: list,
        page: 0,
        page_size: pageSize,
        next_page_uri: null,
        uri: `${prefix}/Calls.json`,
      });
    }

    if (req.method === 'POST' && path === '/Calls.json') {
      createCallRequests += 1;
      // A slow provider carries the request out even if the client gave up waiting meanwhile.
      if (options.createDelayMs)
        await new Promise((resolve) => setTimeout(resolve, options.createDelayMs));
      if (options.createGate) await options.createGate;
      const key = options.honourIdempotencyKey ? req.headers['idempotency-key'] : undefined;
      if (typeof key === 'string' && byIdempotencyKey.has(key)) {
        const sid = byIdempotencyKey.get(key)!;
        return send(201, { sid, status: calls.get(sid)?.status });
      }
      const to = form.get('To') ?? '';
      if (!/^\+[1-9]\d{6,14}$/.test(to))
        return send(400, {
          code: 21211,
          message: `The 'To' number ${to} is not a valid phone number.`,
          status: 400,
        });
      if (!form.get('From') || !form.get('Url'))
        return send(400, { code: 21205, message: 'Url and From are required', status: 400 });
      let state = phones.get(to);
      if (!state) phones.set(to, (state = { phone: defaultPhone, next: 0 }));
      const behaviour = state.phone.answers[Math.min(state.next, state.phone.answers.length - 1)]!;
      state.next += 1;
      if (behaviour === 'fail')
        return send(400, {
          code: 21215,
          message: 'Account not authorized to call this number.',
          status: 400,
        });
      const call: FakeCall = {
        sid: `CA${randomUUID().replaceAll('-', '')}`,
        to,
        from: form.get('From')!,
        params: form,
        status: 'queued',
        behaviour,
        answeredAt: null,
        spoken: [],
        timers: [],
        createdAt: clock.now(),
        endedAt: null,
        pressed: null,
        heard: false,
        program: 0,
      };
      calls.set(call.sid, call);
      const sameTo = callsTo.get(to);
      if (sameTo) sameTo.push(call);
      else callsTo.set(to, [call]);
      if (typeof key === 'string') byIdempotencyKey.set(key, call.sid);
      const ringTimeout = Number(form.get('Timeout') ?? 60);
      const ringSeconds = state.phone.ring_seconds;
      if (behaviour === 'busy') {
        at(call, 0, () => end(call, 'busy'));
      } else {
        at(call, 0, async () => {
          call.status = 'ringing';
          const cb = call.params.get('StatusCallback');
          if (cb && statusEvents(call).includes('ringing'))
            await webhook(cb, base(call, 'ringing'));
        });
        if (behaviour === 'no_answer' || ringSeconds >= ringTimeout) {
          at(call, ringTimeout, () => end(call, 'no-answer'));
        } else {
          at(call, ringSeconds, async () => {
            call.status = 'in-progress';
            call.answeredAt = clock.now();
            const machine = behaviour === 'voicemail';
            const answerParams = {
              ...base(call, 'in-progress'),
              AnsweredBy: machine ? 'machine_start' : 'human',
            };
            const r = await webhook(call.params.get('Url')!, answerParams);
            if (!isOver(call)) await run(call, parseTwiml(r.text));
          });
        }
      }
      if (dropCreateResponses > 0) {
        dropCreateResponses -= 1;
        req.socket.destroy();
        return;
      }
      return send(201, { sid: call.sid, status: call.status });
    }

    const events = /^\/Calls\/([^/]+)\/Events\.json$/.exec(path);
    if (req.method === 'GET' && events) {
      listEventRequests += 1;
      if (!calls.has(events[1]!))
        return send(404, {
          code: 20404,
          message: 'The requested resource was not found',
          status: 404,
        });
      return send(200, {
        events: callEvents.get(events[1]!) ?? [],
        page: 0,
        page_size: 50,
        start: 0,
        end: 0,
        next_page_uri: null,
        uri: `${prefix}/Calls/${events[1]}/Events.json`,
      });
    }

    const update = /^\/Calls\/([^/]+)\.json$/.exec(path);
    if (req.method === 'GET' && update) {
      getCallRequests += 1;
      const call = calls.get(update[1]!);
      if (!call)
        return send(404, {
          code: 20404,
          message: 'The requested resource was not found',
          status: 404,
        });
      return send(200, {
        sid: call.sid,
        account_sid: accountSid,
        to: call.to,
        from: call.from,
        status: call.status,
        direction: 'outbound-api',
        date_created: rfc2822(call.createdAt),
        duration: isOver(call)
          ? String(
              call.answeredAt === null
                ? 0
                : Math.round(((call.endedAt ?? clock.now()) - call.answeredAt) / 1000),
            )
          : null,
        answered_by:
          call.answeredAt === null
            ? null
            : call.behaviour === 'voicemail'
              ? 'machine_start'
              : 'human',
        uri: `${prefix}/Calls/${call.sid}.json`,
      });
    }
    if (req.method === 'POST' && update) {
      const call = calls.get(update[1]!);
      if (!call) return send(404, { code: 20404, message: 'not found', status: 404 });
      if (isOver(call))
        return send(400, {
          code: 21220,
          message: 'Call is not in-progress. Cannot redirect.',
          status: 400,
        });
      const status = form.get('Status');
      const twimlDoc = form.get('Twiml');
      if (status === 'canceled') {
        if (call.status === 'in-progress')
          return send(400, { code: 21220, message: 'Call already answered', status: 400 });
        clock.setTimer(clock.now(), () => end(call, 'canceled'));
      } else if (status === 'completed') {
        clock.setTimer(clock.now(), () =>
          end(call, call.answeredAt === null ? 'canceled' : 'completed'),
        );
      } else if (twimlDoc) {
        if (call.status !== 'in-progress')
          return send(400, { code: 21220, message: 'Call is not in-progress.', status: 400 });
        for (const t of call.timers) t.cancel();
        call.timers = [];
        const verbs = parseTwiml(twimlDoc);
        clock.setTimer(clock.now(), () => run(call, verbs));
      }
      return send(200, { sid: call.sid, status: call.status });
    }

    const message = /^\/Messages\/([^/]+)\.json$/.exec(path);
    if (req.method === 'GET' && message) {
      const createdAt = inbound.get(message[1]!);
      if (createdAt === undefined)
        return send(404, { code: 20404, message: 'not found', status: 404 });
      return send(200, { sid: message[1], direction: 'inbound', date_created: rfc2822(createdAt) });
    }

    if (req.method === 'POST' && path === '/Messages.json') {
      const to = form.get('To') ?? '';
      if (!/^\+[1-9]\d{6,14}$/.test(to))
        return send(400, {
          code: 21211,
          message: `The 'To' number ${to} is not a valid phone number.`,
          status: 400,
        });
      if (optedOut.has(to))
        return send(400, {
          code: 21610,
          message: 'Attempt to send to unsubscribed recipient',
          status: 400,
        });
      const message: FakeMessage = {
        sid: `SM${randomUUID().replaceAll('-', '')}`,
        to,
        from: form.get('From') ?? form.get('MessagingServiceSid') ?? '',
        body: form.get('Body') ?? '',
        createdAt: clock.now(),
      };
      messages.push(message);
      if (dropMessageResponses > 0) {
        dropMessageResponses -= 1;
        req.socket.destroy();
        return;
      }
      return send(201, { sid: message.sid, status: 'queued' });
    }

    if (req.method === 'GET' && path === '/Messages.json') {
      listMessageRequests += 1;
      const to = target.searchParams.get('To');
      const pageSize = Math.min(
        1000,
        Math.max(1, Number(target.searchParams.get('PageSize') ?? 50) || 50),
      );
      const list = messages
        .filter((m) => !to || m.to === to)
        .reverse()
        .slice(0, pageSize)
        .map((m) => ({
          sid: m.sid,
          account_sid: accountSid,
          to: m.to,
          from: m.from,
          body: m.body,
          status: 'sent',
          direction: 'outbound-api',
          date_created: rfc2822(m.createdAt),
          uri: `${prefix}/Messages/${m.sid}.json`,
        }));
      return send(200, {
        messages: list,
        page: 0,
        page_size: pageSize,
        next_page_uri: null,
        uri: `${prefix}/Messages.json`,
      });
    }
    send(404, { code: 20404, message: 'not found', status: 404 });
  };
  // A handler that throws answers 500 instead of leaving the request hanging (and the rejection unhandled).
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) =>
    server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve),
  );
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    accountSid,
    authToken,
    calls,
    messages,
    optedOut,
    get createCallRequests() {
      return createCallRequests;
    },
    webhookFailures,
    get webhooksInFlight() {
      return webhooksInFlight;
    },
    get listCallRequests() {
      return listCallRequests;
    },
    get getCallRequests() {
      return getCallRequests;
    },
    get listEventRequests() {
      return listEventRequests;
    },
    get webhookRetries() {
      return webhookRetries;
    },
    get dropMessageResponses() {
      return dropMessageResponses;
    },
    set dropMessageResponses(n: number) {
      dropMessageResponses = n;
    },
    get listMessageRequests() {
      return listMessageRequests;
    },
    get dropCreateResponses() {
      return dropCreateResponses;
    },
    set dropCreateResponses(n: number) {
      dropCreateResponses = n;
    },
    setPhone(e164, phone) {
      phones.set(e164, {
        phone: { answers: [...phone.answers], ring_seconds: phone.ring_seconds },
        next: 0,
      });
    },
    get lastInboundSid() {
      return lastInboundSid;
    },
    async inboundText(webhookUrl, from, to, body, opts) {
      const sid = opts?.messageSid ?? `SM${randomUUID().replaceAll('-', '')}`;
      if (!inbound.has(sid)) inbound.set(sid, clock.now());
      lastInboundSid = sid;
      const params = {
        AccountSid: accountSid,
        MessageSid: sid,
        From: from,
        To: to,
        Body: body,
        NumMedia: '0',
      };
      return (await webhook(webhookUrl, params, opts?.signature)).status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
