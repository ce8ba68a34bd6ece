/**
 * Issue 18, item 2: provider webhooks are applied at most once, durably. A server on a
 * Twilio-compatible provider (the local fake) is restarted on the same database and address,
 * then captured signed requests are sent again: a replayed keypress leaves a confirmed call's
 * digits at "1", and a replayed START never undoes a newer STOP, neither within the
 * deduplication window (MessageSid) nor after it (the provider's timestamps order them).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { VirtualClock } from '../../engine/sim/index.js';
import { computeTwilioSignature } from '../../host/adapters/twilio/signature.js';
import { countWebhookEvents } from '../../host/db/webhook-events.js';
import { startFakeTwilio, type FakeTwilio } from '../helpers/fake-twilio.js';
import { addVerifiedNumber, call, PHONE_TEST_ENV } from '../helpers/phone.js';
import { signIn, startTestServer, type TestServer } from '../helpers/server.js';

const START = '2027-05-04T12:00:00Z';
const NUMBER = '+12015550191';
const TEXTER = '+12015550192';

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('webhook replays after a restart', () => {
  let dir: string;
  let fake: FakeTwilio;
  let server: TestServer;
  let port: number;
  let token: string;
  const fakeClock = new VirtualClock(Date.parse(START));
  const env = (clockStart: string) => ({
    ...PHONE_TEST_ENV,
    PORT: String(port),
    WAKEUP_DB: join(dir, 'wakeup.sqlite'),
    WAKEUP_CLOCK_START: clockStart,
    WAKEUP_TELEPHONY: 'twilio',
    WAKEUP_SMS: 'twilio',
    WAKEUP_TWILIO_API_URL: fake.url,
    WAKEUP_TWILIO_ACCOUNT_SID: fake.accountSid,
    WAKEUP_TWILIO_AUTH_TOKEN: fake.authToken,
    WAKEUP_TWILIO_FROM: '+12025550100',
  });
  /** Stops the server and starts another on the same database, address and service time. */
  const restart = async () => {
    const now = (await call(server, 'GET', '/dev/clock')).body.now as string;
    await server.close();
    server = await startTestServer({ env: env(now) });
    // Let fetch's connection pools notice that the old server's sockets closed.
    await new Promise((resolve) => setTimeout(resolve, 100));
  };
  /** Sends a signed webhook as the provider would. */
  const signed = async (path: string, params: Record<string, string>) => {
    const url = `${server.url}${path}`;
    const r = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': computeTwilioSignature(fake.authToken, url, params),
      },
      body: new URLSearchParams(params).toString(),
    });
    await r.text();
    return r.status;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wakeup-replay-'));
    fake = await startFakeTwilio({ clock: fakeClock });
    port = await freePort();
    server = await startTestServer({ env: env(START) });
    token = (await signIn(server)).token;
  });
  after(async () => {
    await server.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a replayed keypress after a restart leaves a confirmed call at digits "1"', async () => {
    // Verification code by provider text: read it from the fake.
    const added = await call(server, 'POST', '/phone-numbers', { token, body: { e164: NUMBER } });
    const code = /(\d{6})/.exec(fake.messages.filter((m) => m.to === NUMBER).at(-1)!.body)![1]!;
    assert.equal(
      (
        await call(server, 'POST', `/phone-numbers/${added.body.id}/verify/check`, {
          token,
          body: { code },
        })
      ).status,
      200,
    );
    const s = await call(server, 'POST', '/schedules', {
      token,
      body: {
        kind: 'once',
        in_minutes: 1,
        phone_number_id: added.body.id,
        retry_policy: { offsets_minutes: [] },
      },
    });
    const occurrenceId = s.body.next_occurrence.id as string;
    await call(server, 'POST', '/dev/clock', { body: { advance_seconds: 60 } });
    await server.running.deps.runtime.idle();
    await fakeClock.advanceBy(120_000);
    await server.running.deps.runtime.idle();
    const before = await call(server, 'GET', `/occurrences/${occurrenceId}`, { token });
    assert.deepEqual([before.body.status, before.body.attempts[0].digits], ['confirmed', '1']);
    const row = (await server.running.deps.db.get(
      'SELECT provider_call_id AS sid, idempotency_key AS k FROM attempts WHERE occurrence_id = ?',
      [occurrenceId],
    )) as { sid: string; k: string };

    await restart();
    const base = {
      AccountSid: fake.accountSid,
      CallSid: row.sid,
      From: '+12025550100',
      To: NUMBER,
      Direction: 'outbound-api',
    };
    const k = encodeURIComponent(row.k);
    assert.equal(
      await signed(`/webhooks/twilio/voice?k=${k}`, {
        ...base,
        CallStatus: 'in-progress',
        AnsweredBy: 'human',
      }),
      200,
    );
    assert.equal(
      await signed(`/webhooks/twilio/gather?k=${k}`, {
        ...base,
        CallStatus: 'in-progress',
        Digits: '1',
      }),
      200,
    );
    assert.equal(
      await signed(`/webhooks/twilio/call-status?k=${k}`, {
        ...base,
        CallStatus: 'completed',
        CallDuration: '99',
      }),
      204,
    );
    await server.running.deps.runtime.idle();
    const afterReplay = await call(server, 'GET', `/occurrences/${occurrenceId}`, { token });
    assert.deepEqual(
      [
        afterReplay.body.status,
        afterReplay.body.attempts[0].digits,
        afterReplay.body.attempts[0].duration_seconds,
      ],
      ['confirmed', '1', before.body.attempts[0].duration_seconds],
    );
    assert.ok(
      (await countWebhookEvents(server.running.deps.db)) >= 4,
      'ringing, answered, digits and ended are recorded',
    );
  });

  it('a replayed START never undoes a newer STOP: within the dedup window, and after it by provider time', async () => {
    await addVerifiedNumber(server, token, '+12015550193').catch(() => undefined); // any account state; the block is per number
    const smsUrl = () => `${server.url}/webhooks/twilio/sms`;
    const blocked = async () =>
      (await server.running.deps.db.get('SELECT 1 FROM phone_blocks WHERE e164 = ?', [TEXTER])) !==
      undefined;
    assert.equal(await fake.inboundText(smsUrl(), TEXTER, '+12025550100', 'STOP'), 200);
    assert.ok(await blocked());
    await fakeClock.advanceBy(60_000);
    assert.equal(await fake.inboundText(smsUrl(), TEXTER, '+12025550100', 'START'), 200);
    const start = fake.lastInboundSid!;
    assert.ok(!(await blocked()));
    await fakeClock.advanceBy(60_000);
    assert.equal(await fake.inboundText(smsUrl(), TEXTER, '+12025550100', 'STOP'), 200);
    assert.ok(await blocked());
    const texted = fake.messages.filter((m) => m.to === TEXTER).length;

    await restart();
    assert.equal(
      await fake.inboundText(smsUrl(), TEXTER, '+12025550100', 'START', { messageSid: start }),
      200,
    );
    assert.ok(await blocked(), 'replay within the window: a duplicate MessageSid');
    // Past the dedup keys' expiry (30 days): the provider's timestamps still order them.
    await call(server, 'POST', '/dev/clock', { body: { advance_seconds: 31 * 86_400 } });
    await restart();
    assert.equal(
      await fake.inboundText(smsUrl(), TEXTER, '+12025550100', 'START', { messageSid: start }),
      200,
    );
    assert.ok(await blocked(), 'replay after the window: older than the STOP');
    assert.equal(
      fake.messages.filter((m) => m.to === TEXTER).length,
      texted,
      'nothing texted to the blocked number',
    );
  });
});
