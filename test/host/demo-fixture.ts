/**
 * Shared set-up of the demo tests (not a test file itself): a server on the virtual clock
 * that trusts one proxy hop, so each request can come from its own client address
 * (X-Forwarded-For), and helpers for the two demo endpoints.
 */
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { call, textsTo, type JsonResponse } from '../helpers/phone.js';
import { assertSchema } from './schedules-fixture.js';

export { assertSchema, textsTo };

/** Tuesday 2027-05-04 12:00 UTC. */
export const DEMO_START = '2027-05-04T12:00:00Z';

/** Starts a server for a demo test file. */
export function startDemoServer(env: Record<string, string> = {}): Promise<TestServer> {
  return startTestServer({
    env: { WAKEUP_CLOCK_START: DEMO_START, WAKEUP_TRUST_PROXY: '1', ...env },
  });
}

let nextLine = 0;
let nextAddress = 0;

/** A fresh US number (+1 201 555 NNNN, distinct within the process). */
export function freshNumber(): string {
  nextLine += 1;
  return `+1201555${String(nextLine).padStart(4, '0')}`;
}

/** A fresh client address (10.x.y.z), so that the per-address limit stays out of the way. */
export function freshAddress(): string {
  nextAddress += 1;
  return `10.${(nextAddress >> 16) & 255}.${(nextAddress >> 8) & 255}.${nextAddress & 255}`;
}

/** POST /demo/start from `address` (a fresh one by default). */
export function startDemo(
  server: TestServer,
  body: Record<string, unknown>,
  address: string = freshAddress(),
): Promise<JsonResponse> {
  return call(server, 'POST', '/demo/start', { body, headers: { 'x-forwarded-for': address } });
}

/** POST /demo/call from `address` (a fresh one by default). */
export function placeDemo(
  server: TestServer,
  body: Record<string, unknown>,
  address: string = freshAddress(),
): Promise<JsonResponse> {
  return call(server, 'POST', '/demo/call', { body, headers: { 'x-forwarded-for': address } });
}

/** Starts the demo for `e164` and returns the code texted (asserting a 202 and a new text). */
export async function demoCode(server: TestServer, e164: string): Promise<string> {
  const before = (await textsTo(server, e164)).length;
  const r = await startDemo(server, { consent: true, e164 });
  assert.equal(r.status, 202, JSON.stringify(r.body));
  assertSchema('DemoStartOut', r.body);
  const texts = await textsTo(server, e164);
  assert.equal(texts.length, before + 1, 'one new text');
  assert.ok(texts[0]!.code, 'the text carries a code');
  return texts[0]!.code;
}

/** Sets the virtual clock to `to` (ISO instant), running what falls due. */
export async function clockTo(server: TestServer, to: string): Promise<void> {
  const r = await call(server, 'POST', '/dev/clock', { body: { to } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

/** Moves the virtual clock forward. */
export async function advance(server: TestServer, seconds: number): Promise<void> {
  const r = await call(server, 'POST', '/dev/clock', { body: { advance_seconds: seconds } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

/** Scripts the simulated phone at `e164`. */
export async function phone(
  server: TestServer,
  e164: string,
  answers: string[],
  ringSeconds = 5,
): Promise<void> {
  const r = await call(server, 'PUT', `/dev/phones/${encodeURIComponent(e164)}`, {
    body: { answers, ring_seconds: ringSeconds },
  });
  assert.equal(r.status, 204, JSON.stringify(r.body));
}

/** The service's now, epoch ms. */
export function nowMs(server: TestServer): number {
  return server.running.deps.clock.now();
}

/** Seconds from the service's now to the next 00:00 UTC. */
export function secondsToMidnight(server: TestServer): number {
  const now = nowMs(server);
  return Math.ceil((Math.floor(now / 86_400_000) * 86_400_000 + 86_400_000 - now) / 1000);
}
