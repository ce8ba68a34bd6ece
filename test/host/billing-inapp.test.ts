/**
 * POST /billing/inapp/sync against a local fake of a RevenueCat-style REST API (loopback):
 * the server asks about the signed-in account only; app_user_id must equal the account id;
 * store subscriptions become plans with source ios_store / android_store; 503
 * provider_unavailable when not set up or unreachable; Idem replay.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { signIn, startTestServer, type TestServer } from '../helpers/server.js';
import { call } from '../helpers/phone.js';

/** The fake: answers GET /v1/subscribers/{id} from `subscribers`, records what was asked. */
async function startFakeInapp() {
  const subscribers = new Map<string, Record<string, unknown>>();
  const asked: Array<{ path: string; auth: string | undefined }> = [];
  const server: Server = createServer((req, res) => {
    asked.push({ path: req.url!, auth: req.headers.authorization });
    res.setHeader('content-type', 'application/json');
    const m = /^\/v1\/subscribers\/([^/]+)$/.exec(req.url!);
    if (req.headers.authorization !== 'Bearer sk_rc_fake' || !m) {
      res.statusCode = req.headers.authorization !== 'Bearer sk_rc_fake' ? 401 : 404;
      return res.end('{}');
    }
    const id = decodeURIComponent(m[1]!);
    res.end(
      JSON.stringify({
        subscriber: {
          original_app_user_id: id,
          entitlements: {},
          subscriptions: subscribers.get(id) ?? {},
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    subscribers,
    asked,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('in-app purchase sync (RevenueCat-style fake)', () => {
  let fake: Awaited<ReturnType<typeof startFakeInapp>>;
  let server: TestServer;
  before(async () => {
    fake = await startFakeInapp();
    server = await startTestServer({
      env: {
        WAKEUP_INAPP_API_KEY: 'sk_rc_fake',
        WAKEUP_INAPP_API_URL: fake.url,
        WAKEUP_INAPP_PRODUCTS:
          'com.example.monthly=traveler_monthly,com.example.yearly=traveler_yearly',
      },
    });
  });
  after(async () => {
    await server.close();
    await fake.close();
  });

  it('syncs the signed-in account only; app_user_id must be the account id (400 otherwise)', async () => {
    const { token, account } = await signIn(server);
    const wrong = await call(server, 'POST', '/billing/inapp/sync', {
      token,
      body: { app_user_id: 'someone-else' },
    });
    assert.deepEqual([wrong.status, wrong.body.code], [400, 'validation_error']);
    const before = fake.asked.length;
    const r = await call(server, 'POST', '/billing/inapp/sync', {
      token,
      body: { app_user_id: account.id },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, {
      changed: false,
      plan: { code: 'trial', entitled: true, name: 'Free trial', source: null, status: 'trialing' },
    });
    assert.deepEqual(fake.asked.slice(before), [
      { path: `/v1/subscribers/${account.id}`, auth: 'Bearer sk_rc_fake' },
    ]);
    assert.equal(
      (await call(server, 'POST', '/billing/inapp/sync', { token })).status,
      200,
      'no body is fine',
    );
  });

  it('an App Store subscription becomes the plan (ios_store); unsubscribed → canceled; expired → gone', async () => {
    const { token, account } = await signIn(server);
    const now = server.running.deps.clock.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    fake.subscribers.set(account.id, {
      'com.example.monthly': {
        store: 'app_store',
        purchase_date: iso(now - 86_400_000),
        expires_date: iso(now + 29 * 86_400_000),
        unsubscribe_detected_at: null,
        billing_issues_detected_at: null,
      },
    });
    const r = await call(server, 'POST', '/billing/inapp/sync', { token, body: {} });
    assert.deepEqual(r.body, {
      changed: true,
      plan: {
        code: 'traveler_monthly',
        entitled: true,
        name: 'Traveler (monthly)',
        source: 'ios_store',
        status: 'active',
      },
    });
    const again = await call(server, 'POST', '/billing/inapp/sync', { token, body: {} });
    assert.equal(again.body.changed, false);
    assert.equal((await call(server, 'GET', '/me/usage', { token })).body.calls_included, 60);

    fake.subscribers.set(account.id, {
      'com.example.monthly': {
        store: 'app_store',
        purchase_date: iso(now - 86_400_000),
        expires_date: iso(now + 29 * 86_400_000),
        unsubscribe_detected_at: iso(now),
        billing_issues_detected_at: null,
      },
    });
    assert.equal(
      (await call(server, 'POST', '/billing/inapp/sync', { token })).body.plan.status,
      'canceled',
    );

    fake.subscribers.set(account.id, {
      'com.example.yearly': {
        store: 'play_store',
        purchase_date: iso(now - 400 * 86_400_000),
        expires_date: iso(now - 86_400_000),
      },
    });
    const gone = await call(server, 'POST', '/billing/inapp/sync', { token });
    assert.equal(gone.body.changed, true);
    assert.notEqual(gone.body.plan.source, 'ios_store');
  });

  it('a Play Store subscription gives source android_store; the same Idempotency-Key replays the first answer', async () => {
    const { token, account } = await signIn(server);
    const now = server.running.deps.clock.now();
    fake.subscribers.set(account.id, {
      'com.example.yearly': {
        store: 'play_store',
        purchase_date: new Date(now).toISOString(),
        expires_date: new Date(now + 365 * 86_400_000).toISOString(),
      },
    });
    const h = { 'Idempotency-Key': 'sync-1' };
    const a = await call(server, 'POST', '/billing/inapp/sync', { token, body: {}, headers: h });
    assert.deepEqual(
      [a.body.changed, a.body.plan.source, a.body.plan.code],
      [true, 'android_store', 'traveler_yearly'],
    );
    const b = await call(server, 'POST', '/billing/inapp/sync', { token, body: {}, headers: h });
    assert.deepEqual(b.body, a.body, 'replayed, changed still true');
  });

  it('503 provider_unavailable when the provider is unreachable or not set up', async () => {
    const down = await startTestServer({
      env: { WAKEUP_INAPP_API_KEY: 'k', WAKEUP_INAPP_API_URL: 'http://127.0.0.1:9' },
    });
    const off = await startTestServer();
    try {
      for (const s of [down, off]) {
        const { token } = await signIn(s);
        const r = await call(s, 'POST', '/billing/inapp/sync', { token, body: {} });
        assert.deepEqual([r.status, r.body.code], [503, 'provider_unavailable']);
      }
    } finally {
      await down.close();
      await off.close();
    }
  });
});
