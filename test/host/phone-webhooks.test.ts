/**
 * The Twilio-compatible provider end to end: a server configured with WAKEUP_TELEPHONY and
 * WAKEUP_SMS=twilio talks to a local fake of the provider's API on loopback; the fake calls
 * the server's real webhook routes, signed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { VirtualClock } from '../../engine/sim/index.js';
import { computeTwilioSignature } from '../../host/adapters/twilio/signature.js';
import { CALL_WEBHOOK_RETRIES } from '../../host/adapters/twilio/paths.js';
import { startFakeTwilio, type FakeTwilio } from '../helpers/fake-twilio.js';
import { addNumber, call, PHONE_TEST_ENV } from '../helpers/phone.js';
import { signIn, startTestServer } from '../helpers/server.js';

type Server = Awaited<ReturnType<typeof startTestServer>>;

describe('Twilio-compatible provider: texts, calls and signed webhooks', () => {
  let server: Server;
  let fake: FakeTwilio;
  let token: string;
  const fakeClock = new VirtualClock(Date.parse('2027-03-14T06:00:00Z'));
  before(async () => {
    fake = await startFakeTwilio({ clock: fakeClock });
    server = await startTestServer({
      env: {
        ...PHONE_TEST_ENV,
        WAKEUP_TELEPHONY: 'twilio',
        WAKEUP_SMS: 'twilio',
        WAKEUP_TWILIO_API_URL: fake.url,
        WAKEUP_TWILIO_ACCOUNT_SID: fake.accountSid,
        WAKEUP_TWILIO_AUTH_TOKEN: fake.authToken,
        WAKEUP_TWILIO_FROM: '+12025550100',
      },
    });
    token = (await signIn(server, 'twilio@example.com')).token;
  });
  after(async () => {
    await server.close();
    await fake.close();
  });

  const smsUrl = () => `${server.url}/webhooks/twilio/sms`;
  const numberOf = async (id: string) =>
    (await call(server, 'GET', '/phone-numbers', { token })).body.items.find(
      (x: any) => x.id === id,
    );

  it('codes go out as provider messages (not to the dev outbox)', async () => {
    const n = await addNumber(server, token, '+12015550801');
    assert.deepEqual(n.verification, { channel: 'sms', sent: true });
    const sent = fake.messages.filter((m) => m.to === '+12015550801');
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.from, '+12025550100');
    const code = /(\d{6})/.exec(sent[0]!.body)![1]!;
    const r = await call(server, 'POST', `/phone-numbers/${n.id}/verify/check`, {
      token,
      body: { code },
    });
    assert.equal(r.status, 200);
    const outbox = await call(server, 'GET', '/dev/outbox?channel=sms&to=%2B12015550801');
    assert.deepEqual(outbox.body.items, []);
  });

  it('a signed inbound STOP blocks the number and START lifts it', async () => {
    const n = await addNumber(server, token, '+12015550802');
    assert.equal(await fake.inboundText(smsUrl(), '+12015550802', '+12025550100', 'STOP'), 200);
    assert.equal((await numberOf(n.id)).blocked_reason, 'stop');
    assert.equal(await fake.inboundText(smsUrl(), '+12015550802', '+12025550100', 'START'), 200);
    assert.equal((await numberOf(n.id)).blocked, false);
    assert.match(fake.messages.at(-1)!.body, /allowed again/);
  });

  it('a wrong or a missing signature is refused with 403 and changes nothing', async () => {
    const n = await addNumber(server, token, '+12015550803');
    assert.equal(
      await fake.inboundText(smsUrl(), '+12015550803', '+12025550100', 'STOP', {
        signature: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=',
      }),
      403,
    );
    assert.equal(
      await fake.inboundText(smsUrl(), '+12015550803', '+12025550100', 'STOP', { signature: null }),
      403,
    );
    // Signed for another URL (a replay to a different path or query) does not pass either.
    const params = { From: '+12015550803', To: '+12025550100', Body: 'STOP' };
    const r = await fetch(smsUrl(), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': computeTwilioSignature(fake.authToken, `${smsUrl()}?x=1`, params),
      },
      body: new URLSearchParams(params).toString(),
    });
    assert.equal(r.status, 403);
    assert.equal((await numberOf(n.id)).blocked, false);
    for (const path of [
      '/webhooks/twilio/voice?k=x',
      '/webhooks/twilio/gather?k=x',
      '/webhooks/twilio/call-status?k=x',
      '/webhooks/twilio/sms-status',
    ]) {
      const w = await fetch(server.url + path, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': 'bad',
        },
        body: 'CallSid=CA1&CallStatus=completed',
      });
      assert.equal(w.status, 403, path);
    }
  });

  it('a call webhook signed over its URL with the retry fragment handed to the provider passes; another fragment does not', async () => {
    const url = `${server.url}/webhooks/twilio/call-status?k=unknown-attempt`;
    const params = {
      AccountSid: fake.accountSid,
      CallSid: 'CA0000000000000000000000000000fragment',
      CallStatus: 'ringing',
    };
    const post = (signedUrl: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': computeTwilioSignature(fake.authToken, signedUrl, params),
        },
        body: new URLSearchParams(params).toString(),
      });
    assert.equal((await post(url)).status, 204, 'signed over the URL requested');
    assert.equal(
      (await post(url + CALL_WEBHOOK_RETRIES)).status,
      204,
      'signed over the URL with its fragment',
    );
    assert.equal((await post(`${url}#rc=1`)).status, 403, 'another fragment');
    assert.match(CALL_WEBHOOK_RETRIES, /^#rc=5&/);
  });

  it('when the carrier says the recipient opted out (21610), the code is not sent and the number shows blocked', async () => {
    const n = await addNumber(server, token, '+12015550804');
    fake.optedOut.add('+12015550804');
    const r = await call(server, 'POST', `/phone-numbers/${n.id}/verify/start`, {
      token,
      body: {},
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.sent, false);
    assert.equal(r.body.error.code, 'number_blocked');
    assert.equal((await numberOf(n.id)).blocked_reason, 'stop');
  });

  it('a landline gets its code by a provider call that speaks it (answer URL and status callbacks signed)', async () => {
    const n = await addNumber(server, token, '+442079460801');
    assert.deepEqual(n.verification, { channel: 'call', sent: true });
    const placed = [...fake.calls.values()].find((c) => c.to === '+442079460801')!;
    assert.ok(placed, 'the provider received the call');
    await fakeClock.advanceBy(60_000);
    assert.equal(placed.status, 'completed');
    const spoken = placed.spoken.join(' ');
    const digits = /code is ((?:\d, ){5}\d)/.exec(spoken)?.[1]?.replaceAll(', ', '');
    assert.match(digits ?? '', /^\d{6}$/, spoken);
    const r = await call(server, 'POST', `/phone-numbers/${n.id}/verify/check`, {
      token,
      body: { code: digits },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.verified, true);
  });
});

describe('provider webhooks without a Twilio-compatible provider', () => {
  it('answer 404', async () => {
    const server = await startTestServer({ env: PHONE_TEST_ENV });
    try {
      const r = await fetch(`${server.url}/webhooks/twilio/sms`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'From=%2B12015550805&Body=STOP',
      });
      assert.equal(r.status, 404);
    } finally {
      await server.close();
    }
  });
});
