/**
 * With the system clock (WAKEUP_CLOCK=system) calls play in real time through the same
 * runtime. Kept short: the simulated phones answer `busy` (the call ends at once), and the
 * occurrence is stored through the in-process runtime a few hundred milliseconds ahead
 * (POST /schedules cannot ask for less than a minute). The test polls the API; it asserts
 * outcomes, never durations.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestServer } from '../helpers/server.js';
import {
  assertEnded,
  newAccount,
  phone,
  startCallsServer,
  type CallsAccount,
} from './calls-fixture.js';

/** Polls `read` until `done` holds (at most ~15 s). */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const v = await read();
    if (done(v)) return v;
    await sleep(50);
  }
  throw new Error('gave up waiting');
}

describe('real time (WAKEUP_CLOCK=system)', () => {
  let server: TestServer;
  let f: CallsAccount;
  before(async () => {
    server = await startCallsServer({ WAKEUP_CLOCK: 'system' });
    f = await newAccount(server);
    await phone(server, f.number, ['busy']);
  });
  after(async () => {
    await server.close();
  });

  it('a stored call rings at its instant and finishes', async () => {
    const { runtime, clock } = server.running.deps;
    const o = await runtime.schedule({
      accountId: f.accountId,
      scheduleId: randomUUID(),
      phoneNumberId: f.phoneId,
      to: f.number,
      scheduledAt: clock.now() + 300,
      smsFallback: false,
      policy: { maxSnoozes: 0, offsetsMinutes: [], ringTimeoutSeconds: 15, snoozeMinutes: 1 },
    });
    const done = await until(
      () => f.api('GET', `/occurrences/${o.id}`),
      (r) => r.status === 200 && r.body.finished_at !== null,
    );
    assert.deepEqual(
      [done.body.status, done.body.outcome_reason, done.body.attempt_count],
      ['missed', 'busy', 1],
    );
    assertEnded(done.body.attempts[0], { status: 'busy', answered_by: null });
    assert.ok(
      Date.parse(done.body.attempts[0].requested_at) >= Date.parse(done.body.scheduled_at),
      'never early',
    );
  });

  it('a test call plays at once', async () => {
    const r = await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`);
    assert.equal(r.status, 201);
    const ended = await until(
      () => f.api('GET', `/calls/${r.body.id}`),
      (x) => x.body.live === false,
    );
    assertEnded(ended.body, { status: 'busy' });
  });
});
