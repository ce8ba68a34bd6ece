/**
 * Shared set-up of the calls tests (not a test file itself): one server on the virtual clock
 * per file, a fresh account with its own verified number per test (so tests share the
 * server's clock but never a phone, a trial or a daily cap), and helpers to script the
 * simulated phone, create a call through POST /schedules and read the results back.
 */
import assert from 'node:assert/strict';
import { account, assertSchema, type Fixture } from './schedules-fixture.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { call, PHONE_TEST_ENV, textsTo } from '../helpers/phone.js';

export { assertSchema };

/** Tuesday 2027-05-04 12:00 UTC: no clock change near, far from midnight UTC. */
export const CALLS_START = '2027-05-04T12:00:00Z';

/** Starts a server for a test file (the virtual clock at {@link CALLS_START} unless env says system). */
export function startCallsServer(env: Record<string, string> = {}): Promise<TestServer> {
  const start: Record<string, string> =
    env.WAKEUP_CLOCK === 'system' ? {} : { WAKEUP_CLOCK_START: CALLS_START };
  return startTestServer({ env: { ...PHONE_TEST_ENV, ...start, ...env } });
}

let nextLine = 100;

/** A fresh US number (+1 201 555 01NN style, distinct within the process). */
export function freshNumber(): string {
  nextLine += 1;
  return `+1201555${String(nextLine).padStart(4, '0')}`;
}

/** An account with a verified number of its own, home zone UTC. */
export interface CallsAccount extends Fixture {
  number: string;
}

/** Signs a new account in on `server` with a new verified number. */
export async function newAccount(
  server: TestServer,
  options: { home?: string | null } = {},
): Promise<CallsAccount> {
  const number = freshNumber();
  const f = await account(server, {
    number,
    home: options.home === undefined ? 'UTC' : options.home,
  });
  return { ...f, number };
}

/** Scripts the simulated phone at `number` (contract §3 behaviours). */
export async function phone(
  server: TestServer,
  number: string,
  answers: string[],
  ringSeconds = 5,
): Promise<void> {
  const r = await call(server, 'PUT', `/dev/phones/${encodeURIComponent(number)}`, {
    body: { answers, ring_seconds: ringSeconds },
  });
  assert.equal(r.status, 204, JSON.stringify(r.body));
}

/** Moves the virtual clock forward (returns once the calls it started have played). */
export async function advance(server: TestServer, seconds: number): Promise<void> {
  const r = await call(server, 'POST', '/dev/clock', { body: { advance_seconds: seconds } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

/** The service's now, epoch ms. */
export function nowMs(server: TestServer): number {
  return server.running.deps.clock.now();
}

/**
 * Creates a one-off call `inMinutes` from now through POST /schedules (defaults: no retries,
 * so each path plays one attempt unless the test asks for more) and returns its stored
 * occurrence id with the schedule.
 */
export async function createCall(
  f: CallsAccount,
  body: Record<string, unknown> = {},
  inMinutes = 1,
): Promise<{ schedule: any; occurrenceId: string }> {
  const r = await f.api('POST', '/schedules', {
    kind: 'once',
    in_minutes: inMinutes,
    retry_policy: { offsets_minutes: [] },
    ...body,
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.ok(r.body.next_occurrence, 'a new enabled call has a next occurrence');
  return { schedule: r.body, occurrenceId: r.body.next_occurrence.id };
}

/** GET /occurrences/{id} (200 expected, checked against the schema). */
export async function occurrence(f: CallsAccount, id: string): Promise<any> {
  const r = await f.api('GET', `/occurrences/${id}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assertSchema('OccurrenceDetailOut', r.body);
  return r.body;
}

/** Texts the outbox holds for `number`, newest first. */
export async function texts(
  server: TestServer,
  number: string,
): Promise<Array<{ body: string; code: string | null }>> {
  return textsTo(server, number);
}

/** Fallback texts (not verification codes) sent to `number`. */
export async function fallbackTexts(server: TestServer, number: string): Promise<string[]> {
  return (await texts(server, number)).filter((t) => t.code === null).map((t) => t.body);
}

/** Checks the fields every finished attempt records. */
export function assertEnded(
  a: any,
  expected: { status: string; answered_by?: string | null; digits?: string | null },
): void {
  assertSchema('AttemptOut', a);
  assert.equal(a.status, expected.status);
  assert.equal(a.live, false);
  assert.notEqual(a.requested_at, null, 'requested_at');
  assert.notEqual(a.ended_at, null, 'ended_at');
  if (expected.answered_by !== undefined) assert.equal(a.answered_by, expected.answered_by);
  if (expected.digits !== undefined) assert.equal(a.digits, expected.digits);
  if (a.answered_at !== null) {
    assert.ok(
      a.ringing_at !== null && a.ringing_at <= a.answered_at,
      'rang before it was answered',
    );
    assert.equal(typeof a.duration_seconds, 'number');
    assert.ok(a.duration_seconds >= 0);
  }
}
