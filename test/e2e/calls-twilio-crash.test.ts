/**
 * Issue 18, item 1: exactly one call per attempt with a provider that ignores
 * Idempotency-Key (the fake, like Twilio). The server places a wake-up call; the provider
 * accepts it but its answer never arrives (the connection drops); the server stops before
 * its retry (as a crash would: the attempt is stored, its acceptance is not). A new server
 * on the same database and address reconciles: it finds the call in the provider's call
 * list and adopts it instead of dialling again. The person is dialled once, presses 1, and
 * the occurrence is confirmed through the new server's webhooks.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { VirtualClock } from '../../engine/sim/index.js';
import { startFakeTwilio } from '../helpers/fake-twilio.js';
import { addVerifiedNumber, call, PHONE_TEST_ENV } from '../helpers/phone.js';
import { signIn, startTestServer, settledDb } from '../helpers/server.js';

const START = '2027-05-04T12:00:00Z';
const NUMBER = '+12015550188';

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('Twilio mode: a server stopped while the provider answer is in flight', () => {
  it('dials the person once after the restart, and the call completes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wakeup-twilio-crash-'));
    const fakeClock = new VirtualClock(Date.parse(START));
    const fake = await startFakeTwilio({ clock: fakeClock });
    const port = await freePort();
    const env = (clockStart: string) => ({
      ...PHONE_TEST_ENV,
      PORT: String(port),
      WAKEUP_DB: join(dir, 'wakeup.sqlite'),
      WAKEUP_CLOCK_START: clockStart,
      WAKEUP_TELEPHONY: 'twilio',
      WAKEUP_TWILIO_API_URL: fake.url,
      WAKEUP_TWILIO_ACCOUNT_SID: fake.accountSid,
      WAKEUP_TWILIO_AUTH_TOKEN: fake.authToken,
      WAKEUP_TWILIO_FROM: '+12025550100',
    });
    try {
      const first = await startTestServer({ env: env(START) });
      const { token } = await signIn(first);
      const n = await addVerifiedNumber(first, token, NUMBER);
      const s = await call(first, 'POST', '/schedules', {
        token,
        body: {
          kind: 'once',
          in_minutes: 1,
          phone_number_id: n.id,
          retry_policy: { offsets_minutes: [] },
        },
      });
      assert.equal(s.status, 201, JSON.stringify(s.body));
      const occurrenceId = s.body.next_occurrence.id as string;

      fake.dropCreateResponses = 1;
      await call(first, 'POST', '/dev/clock', { body: { advance_seconds: 60 } });
      await first.running.deps.runtime.idle();
      assert.equal(fake.createCallRequests, 1, 'the provider accepted the call');
      const stoppedAt = (await call(first, 'GET', '/dev/clock')).body.now as string;
      const row = (await (
        await settledDb(first)
      ).get('SELECT provider_call_id FROM attempts WHERE occurrence_id = ?', [occurrenceId])) as {
        provider_call_id: string | null;
      };
      assert.equal(row.provider_call_id, null, 'its acceptance was not recorded');
      await first.close();

      const second = await startTestServer({ env: env(stoppedAt) });
      try {
        await second.running.deps.runtime.idle();
        const dialled = [...fake.calls.values()].filter((c) => c.to === NUMBER);
        assert.equal(dialled.length, 1, 'dialled once');
        assert.equal(fake.createCallRequests, 1, 'no second create request');
        // The provider plays the call against the restarted server's webhooks.
        await fakeClock.advanceBy(60_000);
        await second.running.deps.runtime.idle();
        const o = await call(second, 'GET', `/occurrences/${occurrenceId}`, { token });
        assert.equal(o.status, 200);
        assert.deepEqual(
          [o.body.status, o.body.attempts.length, o.body.attempts[0].digits],
          ['confirmed', 1, '1'],
        );
      } finally {
        await second.close();
      }
    } finally {
      await fake.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
