/**
 * Small HTTP helpers for the phone tests: JSON requests with a bearer token, the latest
 * code texted to a number (from GET /dev/outbox), and moving the virtual clock.
 */
import type { startTestServer } from './server.js';

type Server = Awaited<ReturnType<typeof startTestServer>>;

/**
 * Environment for phone tests that are not about the code-send limits: the limits raised
 * so that many numbers can be added from one test address (test/host/phone-limits.test.ts
 * checks the real defaults).
 */
export const PHONE_TEST_ENV: Record<string, string> = {
  WAKEUP_CODE_LIMIT_NUMBER: '1000/h',
  WAKEUP_CODE_LIMIT_ACCOUNT: '1000/h',
  WAKEUP_CODE_LIMIT_IP: '1000/h',
};

/** A response with its parsed JSON body (null when empty). */
export interface JsonResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** Sends a request; `path` under /api/v1 unless it starts with `/dev` or `/webhooks` or `/contact`. */
export async function call(
  server: Server,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<JsonResponse> {
  const site = path.startsWith('/dev/') || path.startsWith('/webhooks/');
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch((site ? server.url : server.api) + path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await r.text();
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: r.status, headers: r.headers, body };
}

/** Texts in the dev outbox to `e164`, newest first. */
export async function textsTo(
  server: Server,
  e164: string,
): Promise<Array<{ body: string; code: string | null }>> {
  const r = await call(server, 'GET', `/dev/outbox?channel=sms&to=${encodeURIComponent(e164)}`);
  if (r.status !== 200) throw new Error(`outbox: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.items;
}

/** The code in the newest text to `e164`. */
export async function latestCode(server: Server, e164: string): Promise<string> {
  const items = await textsTo(server, e164);
  const code = items.find((i) => i.code)?.code;
  if (!code) throw new Error(`no code texted to ${e164}`);
  return code;
}

/** Moves the virtual clock forward. */
export async function advance(server: Server, seconds: number): Promise<void> {
  const r = await call(server, 'POST', '/dev/clock', { body: { advance_seconds: seconds } });
  if (r.status !== 200) throw new Error(`dev clock: ${r.status} ${JSON.stringify(r.body)}`);
}

/** Adds a number (201 expected) and returns the created body. */
export async function addNumber(
  server: Server,
  token: string,
  e164: string,
  label?: string | null,
): Promise<any> {
  const r = await call(server, 'POST', '/phone-numbers', {
    token,
    body: label === undefined ? { e164 } : { e164, label },
  });
  if (r.status !== 201) throw new Error(`add ${e164}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Adds and verifies a number with the code from the outbox; returns the verified number. */
export async function addVerifiedNumber(server: Server, token: string, e164: string): Promise<any> {
  const added = await addNumber(server, token, e164);
  const code = await latestCode(server, e164);
  const r = await call(server, 'POST', `/phone-numbers/${added.id}/verify/check`, {
    token,
    body: { code },
  });
  if (r.status !== 200) throw new Error(`verify ${e164}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}
