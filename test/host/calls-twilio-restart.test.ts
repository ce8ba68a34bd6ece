/**
 * Calls live while their host restarts end with their true outcome (Twilio mode, the fake
 * provider on its own virtual clock):
 * - a key pressed while no host answers reaches the restarted host, because every call
 *   webhook URL asks the provider to retry (connection overrides);
 * - a call that ended during an outage longer than those retries is read back from the
 *   provider (GET /Calls/{sid}.json) when the host starts, and ends as the provider says,
 *   without waiting for its watchdog; a key pressed in it is read from the provider's events
 *   (GET /Calls/{sid}/Events.json), and the call ends confirmed;
 * - a call whose creator died before recording it in the placement ledger is recorded by the
 *   host its webhooks reach, so a later restart reads it back too;
 * - a fallback text whose send was cut before its answer is not sent again by the restarted
 *   host: it finds the text in the provider's messages (the provider ignores idempotency keys).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { VirtualClock } from '../../engine/sim/index.js';
import { FAKE_SAY_SECONDS, startFakeTwilio, type FakeTwilio } from '../helpers/fake-twilio.js';
import { addNumber, addVerifiedNumber, call, PHONE_TEST_ENV } from '../helpers/phone.js';
import { signIn, startTestServer, testPgDatabase, type TestServer } from '../helpers/server.js';

const START = '2027-05-04T12:00:00Z';
const NUMBER = '+12015550177';

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** Adds NUMBER and verifies it with the code the provider texted (texts go through the fake). */
async function verifiedByProviderText(
  server: TestServer,
  fake: FakeTwilio,
  token: string,
): Promise<{ id: string }> {
  const added = await addNumber(server, token, NUMBER);
  const code = /\b(\d{6})\b/.exec(
    fake.messages.filter((m) => m.to === NUMBER).at(-1)?.body ?? '',
  )?.[1];
  assert.ok(code, 'a code texted through the provider');
  const r = await call(server, 'POST', `/phone-numbers/${added.id}/verify/check`, {
    token,
    body: { code },
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body;
}

/**
 * Two servers, one after the other, on one database (a SQLite file, or a PostgreSQL schema
 * when the suite runs there) and one address, against `fake`.
 */
async function restartHarness(fake: FakeTwilio, options: { texts?: boolean } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'wakeup-twilio-restart-'));
  const pg = await testPgDatabase();
  const port = await freePort();
  const env = (clockStart: string) => ({
    ...PHONE_TEST_ENV,
    PORT: String(port),
    WAKEUP_DB: pg?.url ?? join(dir, 'wakeup.sqlite'),
    WAKEUP_CLOCK_START: clockStart,
    WAKEUP_TELEPHONY: 'twilio',
    WAKEUP_TWILIO_API_URL: fake.url,
    WAKEUP_TWILIO_ACCOUNT_SID: fake.accountSid,
    WAKEUP_TWILIO_AUTH_TOKEN: fake.authToken,
    WAKEUP_TWILIO_FROM: '+12025550100',
    ...(options.texts ? { WAKEUP_SMS: 'twilio' } : {}),
  });
  const first = await startTestServer({ env: env(START) });
  const { token } = await signIn(first);
  const n = options.texts
    ? await verifiedByProviderText(first, fake, token)
    : await addVerifiedNumber(first, token, NUMBER);
  const s = await call(first, 'POST', '/schedules', {
    token,
    body: {
      kind: 'once',
      in_minutes: 1,
      phone_number_id: n.id,
      retry_policy: { offsets_minutes: [] },
      sms_fallback: options.texts === true,
    },
  });
  assert.equal(s.status, 201, JSON.stringify(s.body));
  const occurrenceId = s.body.next_occurrence.id as string;
  // Due: the call is placed.
  await call(first, 'POST', '/dev/clock', { body: { advance_seconds: 60 } });
  await first.running.deps.runtime.idle();
  assert.equal(fake.createCallRequests, 1);
  const textsBefore = fake.messages.length; // the verification code
  return {
    /** Texts sent to the number since the call was placed. */
    texts: () => fake.messages.slice(textsBefore).filter((m) => m.to === NUMBER),
    first,
    token,
    occurrenceId,
    /** Stops `server` and returns the starter of the next one (its clock where `server` stopped). */
    async stop(server: TestServer): Promise<() => Promise<TestServer>> {
      const stoppedAt = (await call(server, 'GET', '/dev/clock')).body.now as string;
      await server.close();
      return () => startTestServer({ env: env(stoppedAt) });
    },
    /** Stops `first` and returns the starter of the second server. */
    stopFirst(): Promise<() => Promise<TestServer>> {
      return this.stop(first);
    },
    async cleanup() {
      rmSync(dir, { recursive: true, force: true });
      await pg?.drop();
    },
  };
}

/**
 * The occurrence as `server` shows it once its status is `status`, or after two seconds of
 * trying (the read-back runs in the background of the start).
 */
async function occurrenceOnceSettled(
  server: TestServer,
  h: { occurrenceId: string; token: string },
  status: string,
) {
  let o = await call(server, 'GET', `/occurrences/${h.occurrenceId}`, { token: h.token });
  for (let i = 0; i < 100 && o.body.status !== status; i++) {
    await new Promise((r) => setTimeout(r, 20));
    await server.running.deps.runtime.idle();
    o = await call(server, 'GET', `/occurrences/${h.occurrenceId}`, { token: h.token });
  }
  return o;
}

/** The person presses 1 while no host listens; no TwiML comes back, so the call ends. */
async function pressedWhileNoHost(fake: FakeTwilio, fakeClock: VirtualClock): Promise<void> {
  await fakeClock.advanceBy(60_000);
  const placed = [...fake.calls.values()][0]!;
  assert.deepEqual([placed.status, placed.pressed, placed.heard], ['completed', '1', false]);
}

/** `server`, started after {@link pressedWhileNoHost}, read the press from the call's events at start: confirmed, dialled once. */
async function confirmedFromEvents(
  server: TestServer,
  fake: FakeTwilio,
  h: { occurrenceId: string; token: string },
): Promise<void> {
  const o = await occurrenceOnceSettled(server, h, 'confirmed');
  assert.equal(fake.listEventRequests, 1, 'the events of the one answered call were read');
  assert.deepEqual(
    [o.body.status, o.body.attempts.length, o.body.attempts[0].digits],
    ['confirmed', 1, '1'],
    JSON.stringify(o.body),
  );
  assert.equal(fake.calls.size, 1, 'dialled once');
}

describe('Twilio mode: calls live while the host restarts', () => {
  it('a key pressed while no host answers arrives by the provider retry, and the call ends confirmed', async () => {
    const fakeClock = new VirtualClock(Date.parse(START));
    const fake = await startFakeTwilio({ clock: fakeClock });
    fake.setPhone(NUMBER, { answers: ['confirm'], ring_seconds: 5 });
    const h = await restartHarness(fake);
    let second: TestServer | null = null;
    try {
      // Ringing, then answered: the call is at the keypad prompt.
      await fakeClock.advanceBy(5_000);
      await h.first.running.deps.runtime.idle();
      const startSecond = await h.stopFirst();
      // The person presses 1 while no host listens; the provider tries again while the host restarts.
      const pressing = fakeClock.advanceBy(10_000);
      for (let i = 0; i < 200 && !fake.webhookFailures[0]; i++)
        await new Promise((r) => setTimeout(r, 10));
      assert.ok(fake.webhookFailures[0], 'the keypress found no host');
      // Down for longer than the provider's default (one retry after half a second).
      await new Promise((r) => setTimeout(r, 1500));
      second = await startSecond();
      await pressing;
      await fakeClock.advanceBy(60_000);
      await second.running.deps.runtime.idle();
      assert.ok(fake.webhookRetries > 0, 'the provider tried the webhook again');
      const o = await call(second, 'GET', `/occurrences/${h.occurrenceId}`, { token: h.token });
      assert.equal(o.status, 200);
      assert.deepEqual(
        [o.body.status, o.body.attempts.length, o.body.attempts[0].digits],
        ['confirmed', 1, '1'],
      );
      assert.equal(fake.calls.size, 1, 'dialled once');
    } finally {
      await second?.close();
      await fake.close();
      await h.cleanup();
    }
  });

  it('a call that ended during a longer outage is read back at start and ends as the provider says', async () => {
    const fakeClock = new VirtualClock(Date.parse(START));
    // An outage longer than every retry: each webhook goes once.
    const fake = await startFakeTwilio({ clock: fakeClock, retryWebhooks: false });
    fake.setPhone(NUMBER, { answers: ['no_answer'], ring_seconds: 5 });
    const h = await restartHarness(fake);
    let second: TestServer | null = null;
    try {
      await fakeClock.advanceBy(1_000);
      await h.first.running.deps.runtime.idle();
      const startSecond = await h.stopFirst();
      // Nobody answers; the provider's last webhook finds no host.
      await fakeClock.advanceBy(120_000);
      assert.equal([...fake.calls.values()][0]!.status, 'no-answer');
      const failuresBefore = fake.webhookFailures[0] ?? 0;
      assert.ok(failuresBefore > 0, 'the end was not delivered');
      second = await startSecond();
      // The host's clock has not moved: no watchdog ran; the read-back ended the call.
      for (let i = 0; i < 100 && fake.getCallRequests === 0; i++)
        await new Promise((r) => setTimeout(r, 20));
      await second.running.deps.runtime.idle();
      const o = await occurrenceOnceSettled(second, h, 'missed');
      assert.equal(fake.getCallRequests, 1, 'one read of the one call whose end was not handled');
      assert.deepEqual(
        [o.body.status, o.body.attempts.length, o.body.attempts[0].status],
        ['missed', 1, 'no_answer'],
        JSON.stringify(o.body),
      );
    } finally {
      await second?.close();
      await fake.close();
      await h.cleanup();
    }
  });

  it('a key pressed during a longer outage is read from the provider events at start: confirmed', async () => {
    const fakeClock = new VirtualClock(Date.parse(START));
    // An outage longer than every retry: each webhook goes once.
    const fake = await startFakeTwilio({ clock: fakeClock, retryWebhooks: false });
    fake.setPhone(NUMBER, { answers: ['confirm'], ring_seconds: 5 });
    const h = await restartHarness(fake);
    let second: TestServer | null = null;
    try {
      // Ringing, then answered: the call is at the keypad prompt.
      await fakeClock.advanceBy(5_000);
      await h.first.running.deps.runtime.idle();
      const startSecond = await h.stopFirst();
      await pressedWhileNoHost(fake, fakeClock);
      second = await startSecond();
      await confirmedFromEvents(second, fake, h);
    } finally {
      await second?.close();
      await fake.close();
      await h.cleanup();
    }
  });

  it('a key press lost while the host was down is read from the provider events at the end: confirmed', async () => {
    const fakeClock = new VirtualClock(Date.parse(START));
    // Each webhook goes once: the press finds no host; the end, after the error message, does.
    const fake = await startFakeTwilio({ clock: fakeClock, retryWebhooks: false });
    fake.setPhone(NUMBER, { answers: ['confirm'], ring_seconds: 5 });
    const h = await restartHarness(fake);
    let second: TestServer | null = null;
    try {
      await fakeClock.advanceBy(5_000);
      await h.first.running.deps.runtime.idle();
      const startSecond = await h.stopFirst();
      // The speech (one Say), then the press, which finds no host.
      await fakeClock.advanceBy(FAKE_SAY_SECONDS * 1000);
      const placed = [...fake.calls.values()][0]!;
      assert.deepEqual([placed.status, placed.pressed, placed.heard], ['in-progress', '1', false]);
      second = await startSecond();
      // The error message, then the end, which the restarted host hears.
      await fakeClock.advanceBy(FAKE_SAY_SECONDS * 1000);
      assert.equal(placed.status, 'completed');
      const o = await occurrenceOnceSettled(second, h, 'confirmed');
      assert.ok(fake.listEventRequests >= 1, "the call's events were read");
      assert.deepEqual(
        [o.body.status, o.body.attempts.length, o.body.attempts[0].digits],
        ['confirmed', 1, '1'],
        JSON.stringify(o.body),
      );
    } finally {
      await second?.close();
      await fake.close();
      await h.cleanup();
    }
  });

  it('a call its creator never recorded is recorded by the host its webhooks reach, and read back after the next outage: confirmed', async () => {
    const fakeClock = new VirtualClock(Date.parse(START));
    // An outage longer than every retry: each webhook goes once.
    const fake = await startFakeTwilio({ clock: fakeClock, retryWebhooks: false });
    fake.setPhone(NUMBER, { answers: ['confirm'], ring_seconds: 5 });
    const h = await restartHarness(fake);
    let second: TestServer | null = null;
    let third: TestServer | null = null;
    try {
      // The first host died between the create and its record: the ledger does not hold the call.
      await h.first.running.deps.db.run('DELETE FROM provider_calls');
      second = await (await h.stopFirst())();
      // Answered: the call's webhooks reach the second host, which did not place it.
      await fakeClock.advanceBy(5_000);
      await second.running.deps.runtime.idle();
      const startThird = await h.stop(second);
      second = null;
      await pressedWhileNoHost(fake, fakeClock);
      third = await startThird();
      await confirmedFromEvents(third, fake, h);
    } finally {
      await second?.close();
      await third?.close();
      await fake.close();
      await h.cleanup();
    }
  });

  it('a fallback text whose answer was lost goes once: the restarted host finds it at the provider', async () => {
    const fakeClock = new VirtualClock(Date.parse(START));
    const fake = await startFakeTwilio({ clock: fakeClock });
    fake.setPhone(NUMBER, { answers: ['no_answer'], ring_seconds: 5 });
    const h = await restartHarness(fake, { texts: true });
    let second: TestServer | null = null;
    try {
      // Nobody answers; the call is missed and its fallback text is accepted, but the answer is lost.
      fake.dropMessageResponses = 1;
      await fakeClock.advanceBy(120_000);
      await h.first.running.deps.runtime.idle();
      assert.equal(h.texts().length, 1, 'the provider has the text');
      const startSecond = await h.stopFirst();
      second = await startSecond();
      await second.running.deps.runtime.idle();
      const o = await call(second, 'GET', `/occurrences/${h.occurrenceId}`, { token: h.token });
      assert.equal(o.body.status, 'missed');
      assert.ok(fake.listMessageRequests >= 1, 'looked the text up before sending again');
      assert.equal(h.texts().length, 1, JSON.stringify(h.texts()));
    } finally {
      await second?.close();
      await fake.close();
      await h.cleanup();
    }
  });
});
