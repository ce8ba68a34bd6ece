/**
 * One delivery attempt: POST the signed body to the endpoint, connecting only to an address the
 * target policy allowed (host/webhooks/target.ts: the name is resolved here, checked, and the
 * socket connects to that very address, never resolving again), following no redirect (a 3xx
 * is a failed attempt), within {@link CONNECT_TIMEOUT_MS} for the connection (and TLS) and
 * {@link REQUEST_TIMEOUT_MS} for the whole exchange. A 2xx answer is a success; the answer's body is read up to a few KiB and dropped.
 * @module
 */
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { CONNECT_TIMEOUT_MS, MAX_RESPONSE_BYTES, REQUEST_TIMEOUT_MS } from './rules.js';
import { checkUrlShape, resolveTarget, type ResolvedAddress, type Resolver } from './target.js';
import type { WebhookConfig } from './config.js';

/** What one attempt sends. */
export interface WebhookRequest {
  url: string;
  /** The signature headers (webhook-id, webhook-timestamp, webhook-signature). */
  headers: Record<string, string>;
  body: string;
}

/** How one attempt went. */
export interface WebhookAttempt {
  ok: boolean;
  /** The answer's status, or null when none came. */
  status: number | null;
  /** Milliseconds from the start of the attempt to the answer's headers (or to the failure). */
  latencyMs: number;
  /** Why it failed, in a few words (null on success). */
  error: string | null;
  /** No answer within the time limits (the connection's or the attempt's): what sends an endpoint to the slow lane. */
  timedOut: boolean;
}

/** What {@link sendWebhook} needs besides the request. */
export interface SendOptions {
  config: Pick<WebhookConfig, 'allowPrivate' | 'allowHttp'>;
  resolve: Resolver;
  /** Milliseconds, real time (tests shorten it). @defaultValue REQUEST_TIMEOUT_MS */
  timeoutMs?: number;
  /** Milliseconds to connect (TCP, and TLS for https), real time. @defaultValue CONNECT_TIMEOUT_MS */
  connectTimeoutMs?: number;
  /** `User-Agent` header. */
  userAgent: string;
  /** Real time in ms (the system clock, even under the dev virtual clock), for the latency. */
  wallNow(): number;
  /** Aborts the attempt (shutdown). */
  signal?: AbortSignal;
}

/** Sends one attempt (see the module header). Never throws. */
export async function sendWebhook(
  req: WebhookRequest,
  options: SendOptions,
): Promise<WebhookAttempt> {
  const started = options.wallNow();
  const elapsed = () => Math.max(0, Math.round(options.wallNow() - started));
  const fail = (error: string, status: number | null = null, timedOut = false): WebhookAttempt => ({
    ok: false,
    status,
    latencyMs: elapsed(),
    error,
    timedOut,
  });
  const shape = checkUrlShape(req.url, options.config);
  if (!shape.ok) return fail(`invalid URL: it ${shape.reason}`);
  const url = shape.url;
  const target = await resolveTarget(url.hostname, options.config, options.resolve);
  if (!target.ok) {
    // The same words whether the name did not resolve or resolved to a refused address: the
    // log is the account's to read, and must not tell what a name resolves to.
    return fail(
      isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0
        ? 'target not allowed'
        : 'host did not resolve to public addresses only',
    );
  }
  try {
    const res = await post(
      url,
      target.address,
      req,
      options,
      options.timeoutMs ?? REQUEST_TIMEOUT_MS,
    );
    const status = res.statusCode ?? 0;
    const latencyMs = elapsed();
    if (status >= 200 && status < 300)
      return { ok: true, status, latencyMs, error: null, timedOut: false };
    const why = status >= 300 && status < 400 ? 'redirect not followed' : `answered ${status}`;
    return { ok: false, status, latencyMs, error: why, timedOut: false };
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return fail(describe(err), null, code === 'ETIMEDOUT' || code === 'ECONNTIMEOUT');
  }
}

/** Posts to `url` on `address`; resolves with the answer once its body was read (or capped). */
function post(
  url: URL,
  address: ResolvedAddress,
  req: WebhookRequest,
  options: SendOptions,
  timeoutMs: number,
): Promise<IncomingMessage> {
  // The socket connects to the checked address whatever name the URL carries (Host and TLS
  // server name stay the URL's).
  const lookup: LookupFunction = (_host, opts, callback) => {
    if (opts.all) (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [address]);
    else callback(null, address.address, address.family);
  };
  const bare = url.hostname.replace(/^\[|\]$/g, '');
  const https = url.protocol === 'https:';
  const requestOptions: RequestOptions = {
    method: 'POST',
    hostname: bare,
    port: url.port === '' ? (https ? 443 : 80) : Number(url.port),
    path: `${url.pathname}${url.search}`,
    headers: {
      ...req.headers,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(req.body)),
      'user-agent': options.userAgent,
    },
    lookup,
    // A fresh connection each time (its TLS server name is the URL's host, checked against the certificate).
    agent: false,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  return new Promise((resolve, reject) => {
    const r = (https ? httpsRequest : httpRequest)(requestOptions, (res) => {
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_RESPONSE_BYTES) {
          res.destroy();
          clearTimeout(timer);
          resolve(res);
        }
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve(res);
      });
      res.on('error', () => {
        clearTimeout(timer);
        resolve(res); // the status arrived; a broken body does not change it
      });
    });
    const timer = setTimeout(
      () => r.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })),
      timeoutMs,
    );
    // The connection's own, shorter limit: cleared once connected (and, for https, once TLS is up).
    r.on('socket', (socket) => {
      const connectTimer = setTimeout(
        () => r.destroy(Object.assign(new Error('connect timed out'), { code: 'ECONNTIMEOUT' })),
        options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      );
      socket.once(https ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
      socket.once('close', () => clearTimeout(connectTimer));
    });
    r.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    r.end(req.body);
  });
}

function describe(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  if (code === 'ETIMEDOUT') return 'timed out';
  if (code === 'ECONNTIMEOUT') return 'connection timed out';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET') return 'connection reset';
  if (typeof code === 'string' && /^(ERR_TLS|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED)/.test(code))
    return `TLS: ${code}`;
  return typeof code === 'string' ? code : 'request failed';
}
