/**
 * Billing through HTTP with the built-in payment simulator (dev mode default):
 * GET /billing/plans, POST /billing/checkout (409 already_subscribed, validation, Idem replay),
 * paying through POST /dev/checkout/{id}/complete (the simulator's signed notification to the
 * real webhook), usage and entitlement following the plan, packs and credits, the portal,
 * and WAKEUP_PAYMENTS=none (503 provider_unavailable, billing null).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { call } from '../helpers/phone.js';
import { advance, newAccount, startCallsServer, type CallsAccount } from './calls-fixture.js';
import { assertSchema } from './schedules-fixture.js';

/** Buys `plan` through the simulator; returns the checkout url. */
export async function buy(
  server: TestServer,
  f: { api: CallsAccount['api'] },
  plan: string,
): Promise<string> {
  const r = await f.api('POST', '/billing/checkout', { plan });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const id = new URL(r.body.url).pathname.split('/').pop()!;
  const paid = await call(server, 'POST', `/dev/checkout/${id}/complete`);
  assert.equal(paid.status, 204, JSON.stringify(paid.body));
  return r.body.url;
}

async function testCall(server: TestServer, f: CallsAccount): Promise<number> {
  const r = await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`);
  if (r.status === 201) await advance(server, 60);
  return r.status;
}

describe('billing with the payment simulator', () => {
  let server: TestServer;
  before(async () => {
    server = await startCallsServer();
  });
  after(() => server.close());

  it('GET /billing/plans is public and lists the catalogue cheapest first', async () => {
    const r = await call(server, 'GET', '/billing/plans');
    assert.equal(r.status, 200);
    assertSchema('BillingPlanList', r.body);
    const prices = r.body.items.map((p: any) => p.price_cents);
    assert.deepEqual(
      prices,
      [...prices].sort((a: number, b: number) => a - b),
    );
    const codes = r.body.items.map((p: any) => p.code);
    for (const c of ['trial', 'traveler_monthly', 'traveler_yearly', 'pack_10'])
      assert.ok(codes.includes(c), c);
    const trial = r.body.items.find((p: any) => p.code === 'trial');
    assert.deepEqual(
      [trial.purchasable, trial.interval, trial.included_calls_per_period],
      [false, 'none', 5],
    );
  });

  it('checkout: unknown or unsold plan 400; paid through the simulator the plan is active, then 409 already_subscribed', async () => {
    const f = await newAccount(server);
    for (const plan of ['gold', 'trial']) {
      const bad = await f.api('POST', '/billing/checkout', { plan });
      assert.deepEqual([bad.status, bad.body.code], [400, 'validation_error'], plan);
    }
    const r = await f.api('POST', '/billing/checkout', { plan: 'traveler_monthly' });
    assert.equal(r.status, 200);
    assert.match(r.body.url, /\/dev\/payments\/checkout\/cs_sim_[0-9a-f]+$/);
    // Nothing changes before the provider's notification.
    assert.equal((await f.api('GET', '/me')).body.plan.status, 'trialing');
    const id = r.body.url.split('/').pop();
    assert.equal((await call(server, 'POST', `/dev/checkout/${id}/complete`)).status, 204);
    assert.equal(
      (await call(server, 'POST', `/dev/checkout/${id}/complete`)).status,
      404,
      'paid once',
    );
    const me = await f.api('GET', '/me');
    assert.deepEqual(me.body.plan, {
      code: 'traveler_monthly',
      entitled: true,
      name: 'Traveler (monthly)',
      source: 'web',
      status: 'active',
    });
    assert.deepEqual(me.body.billing, { web_checkout_link: false, web_checkout_plans: [] });
    const u = (await f.api('GET', '/me/usage')).body;
    assertSchema('UsageOut', u);
    assert.equal(u.calls_included, 60);
    assert.equal(u.calls_used, 0);
    assert.equal(Date.parse(u.period_start), server.running.deps.clock.now());
    assert.equal(
      new Date(u.period_end).getUTCMonth(),
      (new Date(u.period_start).getUTCMonth() + 1) % 12,
      'a calendar month',
    );
    const again = await f.api('POST', '/billing/checkout', { plan: 'traveler_yearly' });
    assert.deepEqual([again.status, again.body.code], [409, 'already_subscribed']);
    // A pack is not a subscription: it can be bought on top.
    await buy(server, f, 'pack_10');
    assert.equal((await f.api('GET', '/me/usage')).body.credits_remaining, 10);
  });

  it('Idempotency-Key: the same checkout request replays the same url; a different body gives 409 idempotency_key_reused', async () => {
    const f = await newAccount(server);
    const h = { 'Idempotency-Key': 'checkout-1' };
    const a = await f.api('POST', '/billing/checkout', { plan: 'traveler_monthly' }, h);
    const b = await f.api('POST', '/billing/checkout', { plan: 'traveler_monthly' }, h);
    assert.equal(a.status, 200);
    assert.equal(b.body.url, a.body.url);
    const c = await f.api('POST', '/billing/checkout', { plan: 'traveler_yearly' }, h);
    assert.deepEqual([c.status, c.body.code], [409, 'idempotency_key_reused']);
  });

  it('after the trial, 402 no_entitlement until a plan is bought; then calls are placed and counted in the period', async () => {
    const f = await newAccount(server);
    for (let i = 0; i < 5; i++) assert.equal(await testCall(server, f), 201);
    assert.equal(await testCall(server, f), 402);
    assert.equal((await f.api('GET', '/me')).body.plan.entitled, false);
    await buy(server, f, 'traveler_monthly');
    assert.equal((await f.api('GET', '/me')).body.plan.entitled, true);
    assert.equal(await testCall(server, f), 201);
    const u = (await f.api('GET', '/me/usage')).body;
    // trial_calls_used counts every call inside the trial's window, the paid one included.
    assert.deepEqual(
      [u.calls_used, u.calls_included, u.trial_calls_used, u.near_limit],
      [1, 60, 6, false],
    );
  });

  it('pack credits pay for calls once the trial is used up, one per call, then 402', async () => {
    const f = await newAccount(server);
    for (let i = 0; i < 5; i++) assert.equal(await testCall(server, f), 201);
    await buy(server, f, 'pack_10');
    const me = (await f.api('GET', '/me')).body;
    assert.deepEqual(me.plan, {
      code: 'pack_10',
      entitled: true,
      name: '10-call pack',
      source: null,
      status: 'active',
    });
    // Still offered the web checkout: credits are not a plan.
    assert.equal(me.billing.web_checkout_link, true);
    for (let i = 0; i < 10; i++) assert.equal(await testCall(server, f), 201, `credit ${i + 1}`);
    assert.equal((await f.api('GET', '/me/usage')).body.credits_remaining, 0);
    assert.equal(await testCall(server, f), 402);
  });

  it('portal: 400 before any purchase; cancel at period end keeps the plan until then; end now expires it', async () => {
    const f = await newAccount(server);
    const none = await f.api('POST', '/billing/portal');
    assert.deepEqual([none.status, none.body.code], [400, 'validation_error']);
    await buy(server, f, 'traveler_monthly');
    const portal = await f.api('POST', '/billing/portal', undefined, {
      'Idempotency-Key': 'portal-1',
    });
    assert.equal(portal.status, 200);
    const replay = await f.api('POST', '/billing/portal', undefined, {
      'Idempotency-Key': 'portal-1',
    });
    assert.equal(replay.body.url, portal.body.url, 'Idem replay');
    const path = new URL(portal.body.url).pathname;
    assert.match(path, /^\/dev\/payments\/portal\//);
    const page = await fetch(server.url + path);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Traveler \(monthly\)/);
    const cancel = await fetch(`${server.url}${path}/cancel`, {
      method: 'POST',
      redirect: 'manual',
    });
    assert.equal(cancel.status, 303);
    const canceled = (await f.api('GET', '/me')).body.plan;
    assert.deepEqual(
      [canceled.status, canceled.entitled, canceled.code],
      ['canceled', true, 'traveler_monthly'],
    );
    assert.deepEqual(
      (await f.api('POST', '/billing/checkout', { plan: 'traveler_monthly' })).body.code,
      'already_subscribed',
    );
    await fetch(`${server.url}${path}/cancel_now`, { method: 'POST', redirect: 'manual' });
    // The trial (7 days) still runs for this new account; move past it to see the plain expiry.
    await advance(server, 8 * 86_400);
    const ended = (await f.api('GET', '/me')).body.plan;
    assert.deepEqual(ended, {
      code: null,
      entitled: false,
      name: null,
      source: null,
      status: 'expired',
    });
  });

  it('a canceled subscription runs to the end of its period, then expires', async () => {
    const f = await newAccount(server);
    await buy(server, f, 'traveler_monthly');
    const path = new URL((await f.api('POST', '/billing/portal')).body.url).pathname;
    await fetch(`${server.url}${path}/cancel`, { method: 'POST', redirect: 'manual' });
    const end = Date.parse((await f.api('GET', '/me/usage')).body.period_end);
    await f.clockTo(new Date(end - 60_000).toISOString());
    assert.equal((await f.api('GET', '/me')).body.plan.status, 'canceled');
    await f.clockTo(new Date(end + 1000).toISOString());
    assert.equal((await f.api('GET', '/me')).body.plan.status, 'expired');
    assert.equal((await f.api('GET', '/me')).body.billing.web_checkout_link, true, 'offered again');
  });
});

describe('billing without payments (WAKEUP_PAYMENTS=none)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { WAKEUP_PAYMENTS: 'none' } });
  });
  after(() => server.close());

  it('checkout and portal answer 503 provider_unavailable; GET /me billing is null; web checkout 403 web_checkout_disabled', async () => {
    const { signIn, bearer } = await import('../helpers/server.js');
    const { token } = await signIn(server);
    for (const [path, body] of [
      ['/billing/checkout', { plan: 'traveler_monthly' }],
      ['/billing/portal', undefined],
    ] as const) {
      const r = await call(server, 'POST', path, { token, ...(body ? { body } : {}) });
      assert.deepEqual([r.status, r.body.code], [503, 'provider_unavailable'], path);
    }
    assert.equal((await call(server, 'GET', '/me', { token })).body.billing, null);
    const w = await fetch(`${server.api}/billing/web-checkout`, {
      method: 'POST',
      headers: bearer(token),
      body: JSON.stringify({ plan: 'traveler_monthly' }),
    });
    assert.equal(((await w.json()) as any).code, 'web_checkout_disabled');
    assert.equal((await call(server, 'GET', '/billing/plans')).status, 200);
  });
});

describe('Tier B calls under a plan', () => {
  let server: TestServer;
  before(async () => {
    server = await startCallsServer();
  });
  after(() => server.close());

  it('a call to a Tier B number uses tier_b_multiplier included calls; the trial counts it as one', async () => {
    const { account } = await import('./schedules-fixture.js');
    const f = (await account(server, {
      number: '+821012345678',
      home: 'UTC',
    })) as unknown as CallsAccount;
    assert.equal(await testCall(server, f), 201);
    assert.equal(
      (await f.api('GET', '/me/usage')).body.trial_calls_used,
      1,
      'the trial counts every call as one',
    );
    await buy(server, f, 'traveler_monthly');
    assert.equal(await testCall(server, f), 201);
    const u = (await f.api('GET', '/me/usage')).body;
    assert.deepEqual([u.calls_used, u.calls_included], [3, 60]);
  });
});

describe('plans from WAKEUP_BILLING_PLANS', () => {
  let server: TestServer;
  before(async () => {
    server = await startCallsServer({
      WAKEUP_BILLING_PLANS: JSON.stringify([
        {
          code: 'trial',
          name: 'Free trial',
          price_cents: 0,
          currency: 'EUR',
          interval: 'none',
          included_calls_per_period: 5,
        },
        {
          code: 'tiny',
          name: 'Tiny',
          price_cents: 100,
          currency: 'EUR',
          interval: 'month',
          included_calls_per_period: 2,
          tier_b_multiplier: 2,
        },
      ]),
    });
  });
  after(() => server.close());

  it('lists the configured catalogue; the period’s included calls run out into 402 no_entitlement', async () => {
    const plans = (await call(server, 'GET', '/billing/plans')).body.items;
    assert.deepEqual(
      plans.map((p: any) => [p.code, p.purchasable]),
      [
        ['trial', false],
        ['tiny', true],
      ],
    );
    const f = await newAccount(server);
    await buy(server, f, 'tiny');
    assert.equal(await testCall(server, f), 201);
    const near = (await f.api('GET', '/me/usage')).body;
    assert.deepEqual([near.calls_used, near.near_limit, near.plan.entitled], [1, false, true]);
    assert.equal(await testCall(server, f), 201);
    assert.equal(await testCall(server, f), 402);
    const u = (await f.api('GET', '/me/usage')).body;
    assert.deepEqual(
      [u.calls_used, u.calls_included, u.near_limit, u.plan.entitled, u.plan.status],
      [2, 2, true, false, 'active'],
    );
    // The next period brings the included calls back.
    await f.clockTo(new Date(Date.parse(u.period_end) + 1000).toISOString());
    assert.equal(await testCall(server, f), 201);
  });
});
