/** The Twilio-compatible adapter's own rules, beyond the Telephony conformance suite. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VirtualClock } from '../../engine/sim/index.js';
import { classifyApiError, createTwilioClient } from '../../host/adapters/twilio/client.js';
import { createTwilioTexts } from '../../host/adapters/twilio/messaging.js';
import {
  computeTwilioSignature,
  verifyTwilioSignature,
} from '../../host/adapters/twilio/signature.js';
import { createTwilioTelephony } from '../../host/adapters/twilio/telephony.js';
import { ConfigError, loadConfig } from '../../host/config.js';
import { startFakeTwilio } from '../helpers/fake-twilio.js';

const TEXT = { serviceName: 'Wakeup', supportContact: 'help@example.com' };

describe('X-Twilio-Signature', () => {
  const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
  const params = {
    CallSid: 'CA1234567890ABCDE',
    Caller: '+12349013030',
    Digits: '1234',
    From: '+12349013030',
    To: '+18005551212',
  };

  it('is base64 HMAC-SHA1 of the exact URL and the form fields sorted by name (published vector)', () => {
    assert.equal(computeTwilioSignature('12345', url, params), '0/KCTR6DLpKmkAf8muzZqo1nDgQ=');
  });

  it('verifies only the exact signature: missing, wrong, truncated, other URL or changed field all fail', () => {
    const good = computeTwilioSignature('12345', url, params);
    assert.equal(verifyTwilioSignature('12345', url, params, good), true);
    assert.equal(verifyTwilioSignature('12345', url, params, undefined), false);
    assert.equal(verifyTwilioSignature('12345', url, params, ''), false);
    assert.equal(verifyTwilioSignature('12345', url, params, good.slice(0, -2)), false);
    assert.equal(verifyTwilioSignature('12345', `${url}&x=1`, params, good), false);
    assert.equal(verifyTwilioSignature('12345', url, { ...params, Digits: '9' }, good), false);
    assert.equal(verifyTwilioSignature('54321', url, params, good), false);
  });
});

describe('Twilio REST client and adapters', () => {
  it('maps provider refusals to stable codes', () => {
    assert.deepEqual(classifyApiError({ status: 400, code: 21211, message: '' }), {
      code: 'invalid_number',
      retryable: false,
    });
    assert.deepEqual(classifyApiError({ status: 400, code: 21610, message: '' }), {
      code: 'number_blocked',
      retryable: false,
    });
    assert.deepEqual(classifyApiError({ status: 429, code: 20429, message: '' }), {
      code: 'provider_unavailable',
      retryable: true,
    });
    assert.deepEqual(classifyApiError({ status: 503, code: null, message: '' }), {
      code: 'provider_unavailable',
      retryable: true,
    });
    assert.deepEqual(classifyApiError({ status: 400, code: 21215, message: '' }), {
      code: 'provider_refused',
      retryable: false,
    });
  });

  it('placeCall rejects when the answer is lost; a retry, in this process or a restarted one, adopts the call instead of dialling again', async () => {
    const clock = new VirtualClock(Date.parse('2027-03-14T06:00:00Z'));
    // Like Twilio, the fake ignores Idempotency-Key: only the adapter's lookup can dedupe.
    const fake = await startFakeTwilio({ clock, retryWebhooks: false });
    try {
      const client = createTwilioClient({
        baseUrl: fake.url,
        accountSid: fake.accountSid,
        authToken: fake.authToken,
      });
      const telephony = createTwilioTelephony({
        client,
        clock,
        from: '+12025550100',
        publicUrl: () => 'http://127.0.0.1:9',
        text: TEXT,
      });
      const request = {
        idempotencyKey: 'attempt-1',
        to: '+14155550120',
        script: { kind: 'demo' as const },
        ringTimeoutSeconds: 30,
      };
      // The provider accepts the call but the answer never arrives.
      fake.dropCreateResponses = 1;
      await assert.rejects(telephony.placeCall(request));
      const retried = await telephony.placeCall(request);
      assert.ok(retried.ok);
      assert.equal(fake.createCallRequests, 1, 'the retry did not dial again');
      assert.equal(
        fake.calls.size,
        1,
        'the provider placed one call (the retry found it in the call list)',
      );
      assert.equal(retried.callId, [...fake.calls.keys()][0]);
      // A restarted process (new adapter, empty memory) retrying the same key gets the same call too.
      const restarted = createTwilioTelephony({
        client: createTwilioClient({
          baseUrl: fake.url,
          accountSid: fake.accountSid,
          authToken: fake.authToken,
        }),
        clock,
        from: '+12025550100',
        publicUrl: () => 'http://127.0.0.1:9',
        text: TEXT,
      });
      const again = await restarted.placeCall(request);
      assert.deepEqual(again, retried);
      assert.equal(fake.calls.size, 1);
    } finally {
      await fake.close();
    }
  });

  it('a call another attempt owns is never adopted: a new attempt to the same number dials', async () => {
    const clock = new VirtualClock(Date.parse('2027-03-14T06:00:00Z'));
    const fake = await startFakeTwilio({ clock, retryWebhooks: false });
    try {
      const owned = new Map<string, string>();
      const make = () =>
        createTwilioTelephony({
          client: createTwilioClient({
            baseUrl: fake.url,
            accountSid: fake.accountSid,
            authToken: fake.authToken,
          }),
          clock,
          from: '+12025550100',
          publicUrl: () => 'http://127.0.0.1:9',
          text: TEXT,
          ledger: {
            exclusive: (_to, fn) => fn(() => undefined),
            ownerOf: (sid) => Promise.resolve(owned.get(sid) ?? null),
            record: () => Promise.resolve(),
          },
        });
      const a = make();
      const to = '+14155550125';
      const first = await a.placeCall({
        idempotencyKey: 'attempt-a',
        to,
        script: { kind: 'demo' },
        ringTimeoutSeconds: 30,
      });
      const second = await a.placeCall({
        idempotencyKey: 'attempt-b',
        to,
        script: { kind: 'demo' },
        ringTimeoutSeconds: 30,
      });
      assert.ok(first.ok && second.ok);
      assert.notEqual(first.callId, second.callId, 'in one process: the table of placed calls');
      owned.set(first.callId, 'attempt-a').set(second.callId, 'attempt-b');
      const third = await make().placeCall({
        idempotencyKey: 'attempt-c',
        to,
        script: { kind: 'demo' },
        ringTimeoutSeconds: 30,
      });
      assert.ok(third.ok);
      assert.ok(!owned.has(third.callId), 'in a new process: the database says who owns a call');
      assert.equal(fake.calls.size, 3);
      // Calls older than the lookup window are not candidates.
      await clock.advanceBy(31 * 60_000);
      const late = await make().placeCall({
        idempotencyKey: 'attempt-d',
        to,
        script: { kind: 'demo' },
        ringTimeoutSeconds: 30,
      });
      assert.ok(late.ok);
      assert.equal(fake.calls.size, 4);
    } finally {
      await fake.close();
    }
  });

  it('the adapters forget placed calls and kept texts by outcome and age', async () => {
    const clock = new VirtualClock(Date.parse('2027-03-14T06:00:00Z'));
    const fake = await startFakeTwilio({ clock, retryWebhooks: false });
    try {
      const client = createTwilioClient({
        baseUrl: fake.url,
        accountSid: fake.accountSid,
        authToken: fake.authToken,
      });
      const telephony = createTwilioTelephony({
        client,
        clock,
        from: '+12025550100',
        publicUrl: () => 'http://127.0.0.1:9',
        text: TEXT,
      });
      for (let i = 0; i < 5; i++) {
        fake.setPhone(`+1415555013${i}`, { answers: ['no_answer'], ring_seconds: 5 });
        await telephony.placeCall({
          idempotencyKey: `p-${i}`,
          to: `+1415555013${i}`,
          script: { kind: 'demo' },
          ringTimeoutSeconds: 30,
        });
      }
      assert.deepEqual(telephony.memory(), { calls: 5, placements: 5 });
      // The calls end (no answer) but their webhooks go nowhere here: kept six hours as unended.
      await clock.advanceBy(61 * 60_000);
      assert.deepEqual(
        telephony.memory(),
        { calls: 5, placements: 0 },
        'placements forgotten after an hour',
      );
      await clock.advanceBy(5 * 60 * 60_000);
      assert.deepEqual(
        telephony.memory(),
        { calls: 0, placements: 0 },
        'calls whose end never came, after six hours',
      );

      const texts = createTwilioTexts({
        client,
        clock,
        from: '+12025550100',
        publicUrl: () => 'http://127.0.0.1:9',
      });
      for (let i = 0; i < 3; i++)
        await texts.sendText({ to: '+14155550140', body: 'x', idempotencyKey: `t-${i}` });
      assert.equal(texts.kept(), 3);
      await clock.advanceBy(61 * 60_000);
      assert.equal(texts.kept(), 0);
    } finally {
      await fake.close();
    }
  });

  it('an invalid destination is refused with invalid_number; bad credentials with provider_unavailable', async () => {
    const clock = new VirtualClock(0);
    const fake = await startFakeTwilio({ clock, retryWebhooks: false });
    try {
      const client = createTwilioClient({
        baseUrl: fake.url,
        accountSid: fake.accountSid,
        authToken: fake.authToken,
      });
      const telephony = createTwilioTelephony({
        client,
        clock,
        from: '+12025550100',
        publicUrl: () => 'http://127.0.0.1:9',
        text: TEXT,
      });
      const bad = await telephony.placeCall({
        idempotencyKey: 'k',
        to: '12345',
        script: { kind: 'demo' },
        ringTimeoutSeconds: 30,
      });
      assert.deepEqual(bad.ok ? null : [bad.code, bad.retryable], ['invalid_number', false]);
      const wrongAuth = createTwilioTexts({
        client: createTwilioClient({
          baseUrl: fake.url,
          accountSid: fake.accountSid,
          authToken: 'wrong',
        }),
        from: '+12025550100',
        publicUrl: () => 'http://127.0.0.1:9',
      });
      const sent = await wrongAuth.sendText({ to: '+14155550121', body: 'hi' });
      assert.equal(sent.ok ? null : sent.code, 'provider_unavailable');
    } finally {
      await fake.close();
    }
  });

  it('sendText is idempotent by key within the process', async () => {
    const fake = await startFakeTwilio({ clock: new VirtualClock(0), retryWebhooks: false });
    try {
      const texts = createTwilioTexts({
        client: createTwilioClient({
          baseUrl: fake.url,
          accountSid: fake.accountSid,
          authToken: fake.authToken,
        }),
        from: '+12025550100',
        publicUrl: () => 'http://127.0.0.1:9',
      });
      const a = await texts.sendText({ to: '+14155550122', body: 'one', idempotencyKey: 'm1' });
      const b = await texts.sendText({ to: '+14155550122', body: 'one', idempotencyKey: 'm1' });
      assert.deepEqual(a, b);
      assert.equal(fake.messages.length, 1);
    } finally {
      await fake.close();
    }
  });
});

describe('phone configuration', () => {
  const base = { WAKEUP_DB: ':memory:' };
  it('defaults to the simulators and the fictional caller id', () => {
    const c = loadConfig(base).phone;
    assert.equal(c.telephony, 'simulator');
    assert.equal(c.sms, 'simulator');
    assert.deepEqual(c.callerIds, ['+12025550100']);
    assert.deepEqual(c.codeLimits.number, [
      { limit: 5, windowSeconds: 3600 },
      { limit: 10, windowSeconds: 86_400 },
    ]);
  });
  it('refuses a Twilio provider without credentials, bad numbers and bad limits, naming the variable', () => {
    assert.throws(
      () => loadConfig({ ...base, WAKEUP_TELEPHONY: 'twilio' }),
      (e: unknown) => e instanceof ConfigError && /WAKEUP_TWILIO_FROM/.test(e.message),
    );
    assert.throws(() => loadConfig({ ...base, WAKEUP_SMS: 'carrier-pigeon' }), /WAKEUP_SMS/);
    assert.throws(() => loadConfig({ ...base, WAKEUP_CALLER_IDS: '+1555' }), /WAKEUP_CALLER_IDS/);
    assert.throws(
      () => loadConfig({ ...base, WAKEUP_CODE_LIMIT_IP: '20/week' }),
      /WAKEUP_CODE_LIMIT_IP/,
    );
    const twilio = loadConfig({
      ...base,
      WAKEUP_TELEPHONY: 'twilio',
      WAKEUP_TWILIO_ACCOUNT_SID: 'AC1',
      WAKEUP_TWILIO_AUTH_TOKEN: 't',
      WAKEUP_TWILIO_FROM: '+12025550100',
    }).phone;
    assert.equal(twilio.twilio?.apiUrl, 'https://api.twilio.com');
    assert.deepEqual(twilio.callerIds, ['+12025550100']);
  });
});
