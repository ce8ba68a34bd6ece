/**
 * The Stripe-compatible payment provider against a local fake of its REST API (loopback,
 * never the network), and the signed notifications at POST /webhooks/payments: good,
 * unsigned, wrongly signed, stale, malformed and replayed events; each event applied once.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { signPayload } from '../../host/billing/signature.js';
import { startTestServer, signIn, type TestServer } from '../helpers/server.js';
import { call } from '../helpers/phone.js';

const SECRET = 'whsec_test_0123456789';

interface Recorded {
  path: string;
  auth: string | undefined;
  form: URLSearchParams;
}

/** A fake of the provider's REST API: records requests, answers like the real one. */
async function startFakeStripe(): Promise<{
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}> {
  const requests: Recorded[] = [];
  let n = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      requests.push({ path: req.url!, auth: req.headers.authorization, form });
      res.setHeader('content-type', 'application/json');
      if (req.headers.authorization !== 'Bearer sk_test_fake') {
        res.statusCode = 401;
        return res.end(JSON.stringify({ error: { message: 'Invalid API Key provided' } }));
      }
      n++;
      if (req.url === '/v1/customers')
        return res.end(
          JSON.stringify({ id: `cus_fake${n}`, object: 'customer', email: form.get('email') }),
        );
      if (req.url === '/v1/checkout/sessions') {
        return res.end(
          JSON.stringify({
            id: `cs_test_${n}`,
            object: 'checkout.session',
            url: `https://checkout.fake.test/c/pay/cs_test_${n}`,
          }),
        );
      }
      if (req.url === '/v1/billing_portal/sessions') {
        return res.end(
          JSON.stringify({
            id: `bps_${n}`,
            object: 'billing_portal.session',
            url: `https://billing.fake.test/p/session/${n}`,
          }),
        );
      }
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { message: 'Unrecognized request URL' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function stripeEnv(apiUrl: string): Record<string, string> {
  return {
    WAKEUP_PAYMENTS: 'stripe',
    WAKEUP_STRIPE_SECRET_KEY: 'sk_test_fake',
    WAKEUP_STRIPE_API_URL: apiUrl,
    WAKEUP_PAYMENTS_WEBHOOK_SECRET: SECRET,
    WAKEUP_STRIPE_PRICES:
      'traveler_monthly=price_m,traveler_yearly=price_y,pack_10=price_p10,pack_30=price_p30',
  };
}

let seq = 0;
/** Posts a signed event; `sign` overrides the header (null: none). */
async function notify(
  server: TestServer,
  type: string,
  object: Record<string, unknown>,
  opts: { id?: string; sign?: string | null; secret?: string; at?: number } = {},
) {
  const body = JSON.stringify({
    id: opts.id ?? `evt_test_${++seq}`,
    object: 'event',
    type,
    created: 1,
    data: { object },
  });
  const at = opts.at ?? server.running.deps.clock.now();
  const sig = opts.sign === undefined ? signPayload(opts.secret ?? SECRET, body, at) : opts.sign;
  const res = await fetch(`${server.url}/webhooks/payments`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(sig === null ? {} : { 'Stripe-Signature': sig }),
    },
    body,
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('Stripe-compatible provider (local fake)', () => {
  let fake: Awaited<ReturnType<typeof startFakeStripe>>;
  let server: TestServer;
  before(async () => {
    fake = await startFakeStripe();
    server = await startTestServer({ env: stripeEnv(fake.url) });
  });
  after(async () => {
    await server.close();
    await fake.close();
  });

  it('checkout creates one customer per account and a subscription Checkout Session with the account and plan in metadata', async () => {
    const { token, account } = await signIn(server);
    const r = await call(server, 'POST', '/billing/checkout', {
      token,
      body: { plan: 'traveler_monthly' },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.match(r.body.url, /^https:\/\/checkout\.fake\.test\/c\/pay\/cs_test_\d+$/);
    const [customer, session] = fake.requests.slice(-2);
    assert.equal(customer!.path, '/v1/customers');
    assert.equal(customer!.auth, 'Bearer sk_test_fake');
    assert.equal(customer!.form.get('metadata[account_id]'), account.id);
    assert.equal(session!.path, '/v1/checkout/sessions');
    const f = session!.form;
    assert.deepEqual(
      [
        f.get('mode'),
        f.get('line_items[0][price]'),
        f.get('line_items[0][quantity]'),
        f.get('client_reference_id'),
      ],
      ['subscription', 'price_m', '1', account.id],
    );
    assert.equal(f.get('subscription_data[metadata][account_id]'), account.id);
    assert.equal(f.get('subscription_data[metadata][plan]'), 'traveler_monthly');
    assert.match(f.get('success_url')!, /\/app\/subscribe\/done$/);
    const customerId = f.get('customer');
    await call(server, 'POST', '/billing/checkout', { token, body: { plan: 'pack_10' } });
    assert.equal(fake.requests.at(-1)!.form.get('customer'), customerId, 'the same customer');
    assert.equal(fake.requests.at(-1)!.form.get('mode'), 'payment');
    assert.equal(fake.requests.filter((q) => q.path === '/v1/customers').length, 1);

    const portal = await call(server, 'POST', '/billing/portal', { token });
    assert.equal(portal.status, 200);
    assert.match(portal.body.url, /^https:\/\/billing\.fake\.test\//);
    assert.equal(fake.requests.at(-1)!.form.get('customer'), customerId);
  });

  it('notifications drive the subscription: created → active, past_due, cancel at period end → canceled, deleted → expired', async () => {
    const { token, account } = await signIn(server);
    await call(server, 'POST', '/billing/checkout', { token, body: { plan: 'traveler_yearly' } });
    const customer = fake.requests.at(-1)!.form.get('customer')!;
    const now = Math.floor(server.running.deps.clock.now() / 1000);
    const sub = {
      id: 'sub_1',
      object: 'subscription',
      customer,
      status: 'active',
      current_period_start: now,
      current_period_end: now + 365 * 86_400,
      cancel_at_period_end: false,
      items: { data: [{ price: { id: 'price_y' } }] },
    };
    const plan = async () => (await call(server, 'GET', '/me', { token })).body.plan;
    assert.deepEqual((await notify(server, 'customer.subscription.created', sub)).body, {
      received: true,
      applied: true,
    });
    assert.deepEqual(await plan(), {
      code: 'traveler_yearly',
      entitled: true,
      name: 'Traveler (yearly)',
      source: 'web',
      status: 'active',
    });
    const usage = (await call(server, 'GET', '/me/usage', { token })).body;
    assert.deepEqual([usage.calls_included, Date.parse(usage.period_start)], [730, now * 1000]);
    await notify(server, 'customer.subscription.updated', { ...sub, status: 'past_due' });
    assert.deepEqual([(await plan()).status, (await plan()).entitled], ['past_due', true]);
    await notify(server, 'customer.subscription.updated', { ...sub, cancel_at_period_end: true });
    assert.equal((await plan()).status, 'canceled');
    await notify(server, 'customer.subscription.deleted', {
      ...sub,
      status: 'canceled',
      ended_at: now,
    });
    const ended = await plan();
    assert.equal(ended.source, null);
    assert.notEqual(ended.code, 'traveler_yearly');
    assert.ok(['trialing', 'expired'].includes(ended.status));
    assert.equal(account.id.length, 36);
  });

  it('refuses unsigned, wrongly signed, malformed and stale notifications (400, nothing applied); a replayed event id is not applied again', async () => {
    const { token } = await signIn(server);
    await call(server, 'POST', '/billing/checkout', { token, body: { plan: 'pack_10' } });
    const customer = fake.requests.at(-1)!.form.get('customer')!;
    const session = {
      id: 'cs_pack_1',
      object: 'checkout.session',
      mode: 'payment',
      payment_status: 'paid',
      customer,
      metadata: { plan: 'pack_10' },
    };
    const credits = async () =>
      (await call(server, 'GET', '/me/usage', { token })).body.credits_remaining;
    const now = server.running.deps.clock.now();
    for (const [label, opts] of [
      ['unsigned', { sign: null }],
      ['wrong secret', { secret: 'whsec_other' }],
      ['malformed', { sign: 't=abc,v1=zz' }],
      ['stale', { at: now - 301_000 }],
      ['from the future', { at: now + 301_000 }],
    ] as const) {
      const r = await notify(server, 'checkout.session.completed', session, opts);
      assert.equal(r.status, 400, label);
      assert.equal(await credits(), 0, label);
    }
    const tampered = await fetch(`${server.url}/webhooks/payments`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'Stripe-Signature': signPayload(SECRET, '{"id":"x"}', now),
      },
      body: JSON.stringify({
        id: 'evt_x',
        type: 'checkout.session.completed',
        data: { object: session },
      }),
    });
    assert.equal(tampered.status, 400, 'a signature of another body');
    const first = await notify(server, 'checkout.session.completed', session, { id: 'evt_pack_1' });
    assert.deepEqual([first.status, first.body.applied], [200, true]);
    assert.equal(await credits(), 10);
    const replay = await notify(server, 'checkout.session.completed', session, {
      id: 'evt_pack_1',
    });
    assert.deepEqual([replay.status, replay.body.applied], [200, false]);
    // Another event for the same paid checkout does not credit it twice either.
    await notify(server, 'checkout.session.completed', session);
    assert.equal(await credits(), 10);
  });

  it('an unreachable provider gives 503 provider_unavailable', async () => {
    const down = await startTestServer({ env: stripeEnv('http://127.0.0.1:9') });
    try {
      const { token } = await signIn(down);
      const r = await call(down, 'POST', '/billing/checkout', {
        token,
        body: { plan: 'traveler_monthly' },
      });
      assert.deepEqual([r.status, r.body.code], [503, 'provider_unavailable']);
    } finally {
      await down.close();
    }
  });
});
