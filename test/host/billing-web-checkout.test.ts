/**
 * POST /billing/web-checkout and its pages over plain HTTP: credentials (app session only),
 * web_checkout_disabled, already_subscribed, 5 a minute, Idem replay, and the one-time link:
 * continue as <email> (signs the browser in, on to the simulated checkout), done, used,
 * expired and unknown links.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { requestCode, signIn, startTestServer, type TestServer } from '../helpers/server.js';
import { call } from '../helpers/phone.js';

async function link(
  server: TestServer,
  token: string,
  plan = 'traveler_monthly',
  headers: Record<string, string> = {},
) {
  return call(server, 'POST', '/billing/web-checkout', { token, body: { plan }, headers });
}

describe('web checkout', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('only the app session token may ask: an API key and the web session get 403 insufficient_scope', async () => {
    const { token, email } = await signIn(server);
    const key = await call(server, 'POST', '/api-keys', { token, body: { name: 'script' } });
    const byKey = await link(server, key.body.key);
    assert.deepEqual([byKey.status, byKey.body.code], [403, 'insufficient_scope']);
    const code = await requestCode(server, email);
    const web = await fetch(`${server.api}/auth/email/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, code, client: 'web' }),
    });
    const csrf = ((await web.json()) as any).csrf_token;
    const cookie = web.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const byWeb = await fetch(`${server.api}/billing/web-checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, 'x-csrftoken': csrf },
      body: JSON.stringify({ plan: 'traveler_monthly' }),
    });
    assert.equal(byWeb.status, 403);
    assert.equal(((await byWeb.json()) as any).code, 'insufficient_scope');
  });

  it('returns a one-time link valid 10 minutes; packs are not sold there; 5 a minute; Idem replays', async () => {
    const { token } = await signIn(server);
    const now = server.running.deps.clock.now();
    const r = await link(server, token);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.match(r.body.url, new RegExp(`^${server.url}/app/subscribe/[A-Za-z0-9]{43}$`));
    assert.equal(Date.parse(r.body.expires_at) - now, 10 * 60_000);
    assert.equal((await link(server, token, 'pack_10')).status, 400);
    const h = { 'Idempotency-Key': 'web-1' };
    const a = await link(server, token, 'traveler_yearly', h);
    const b = await link(server, token, 'traveler_yearly', h);
    assert.equal(b.body.url, a.body.url);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await link(server, token)).status);
    assert.deepEqual(
      statuses,
      [200, 200, 200, 429],
      'the 400, the first, the replayed pair counted once: 5 a minute',
    );
  });

  it('the link: continue as <email> signs the browser in and goes to checkout; paid, done shows the plan; used, expired, unknown pages', async () => {
    const { token, email } = await signIn(server);
    const url = (await link(server, token)).body.url as string;
    const page = await fetch(url);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.ok(html.includes(`Continue as ${email}`), html);
    assert.equal((await fetch(url)).status, 200, 'opening does not use it');
    const go = await fetch(url, { method: 'POST', redirect: 'manual' });
    assert.equal(go.status, 303);
    const checkout = go.headers.get('location')!;
    assert.match(checkout, /\/dev\/payments\/checkout\/cs_sim_/);
    const cookie = go.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    assert.match(cookie, /sessionid=wuw_/);
    const used = await fetch(url);
    assert.equal(used.status, 410);
    assert.match(await used.text(), /already used/);
    assert.equal((await fetch(url, { method: 'POST', redirect: 'manual' })).status, 410);
    const pay = await fetch(checkout.replace(/$/, '/pay'), { method: 'POST', redirect: 'manual' });
    assert.equal(pay.status, 303);
    assert.equal(new URL(pay.headers.get('location')!).pathname, '/app/subscribe/done');
    const done = await fetch(pay.headers.get('location')!, { headers: { cookie } });
    assert.match(await done.text(), /Traveler \(monthly\) is <strong id="status">active<\/strong>/);
    // The browser's web session works on the API too.
    assert.equal((await fetch(`${server.api}/me`, { headers: { cookie } })).status, 200);
    assert.deepEqual((await link(server, token)).body.code, 'already_subscribed');

    const other = await signIn(server);
    const late = (await link(server, other.token)).body.url as string;
    await call(server, 'POST', '/dev/clock', { body: { advance_seconds: 601 } });
    const expired = await fetch(late);
    assert.equal(expired.status, 410);
    assert.match(await expired.text(), /expired/);
    assert.equal((await fetch(`${server.url}/app/subscribe/${'x'.repeat(43)}`)).status, 404);
  });

  it('403 web_checkout_disabled when the switch is off, and GET /me says so', async () => {
    const off = await startTestServer({ env: { WAKEUP_WEB_CHECKOUT: '0' } });
    try {
      const { token } = await signIn(off);
      const r = await link(off, token);
      assert.deepEqual([r.status, r.body.code], [403, 'web_checkout_disabled']);
      assert.deepEqual((await call(off, 'GET', '/me', { token })).body.billing, {
        web_checkout_link: false,
        web_checkout_plans: [],
      });
    } finally {
      await off.close();
    }
  });
});
