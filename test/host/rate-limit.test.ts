import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { VirtualClock } from '../../engine/sim/index.js';
import { countLimit } from '../../host/http/rate-limit.js';
import { RateLimiter, tighter } from '../../host/rate-limit/limiter.js';
import { createMemoryWindowStore } from '../../host/rate-limit/windows.js';
import { realTimeWindows } from '../../host/rate-limit/real-time.js';
import * as auth from '../../host/http/routes/auth.js';
import type { RouteModule } from '../../host/http/registrar.js';
import { signIn, startTestServer } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { req } from '../helpers/http.js';

describe('RateLimiter', () => {
  it('allows `limit` hits per window per key, then refuses until the window resets', async () => {
    const clock = new VirtualClock(Date.parse('2027-01-01T00:00:00Z'));
    const store = createMemoryWindowStore();
    const limiter = new RateLimiter({ name: 't', limit: 2, windowSeconds: 60, clock, store });
    assert.deepEqual(await limiter.hit('a'), {
      allowed: true,
      limit: 2,
      remaining: 1,
      resetSeconds: 60,
      windowSeconds: 60,
    });
    await clock.advanceBy(10_500);
    assert.deepEqual(await limiter.hit('a'), {
      allowed: true,
      limit: 2,
      remaining: 0,
      resetSeconds: 50,
      windowSeconds: 60,
    });
    assert.equal((await limiter.hit('a')).allowed, false);
    assert.equal((await limiter.hit('b')).allowed, true, 'keys are independent');
    const other = new RateLimiter({ name: 'u', limit: 2, windowSeconds: 60, clock, store });
    assert.equal((await other.hit('a')).allowed, true, 'limiters are independent');
    await clock.advanceBy(49_500);
    assert.equal((await limiter.hit('a')).allowed, true, 'a new window');
  });

  it('tighter() picks a refused result, else the one with fewer requests left', () => {
    const r = (allowed: boolean, remaining: number) => ({
      allowed,
      limit: 10,
      remaining,
      resetSeconds: 5,
      windowSeconds: 60,
    });
    assert.equal(tighter([r(true, 5), r(true, 2)])!.remaining, 2);
    assert.equal(tighter([r(true, 5), r(false, 0)])!.allowed, false);
    assert.equal(tighter([]), undefined);
  });
});

describe('rate windows on real time (WAKEUP_CLOCK=virtual)', () => {
  it('reset when their seconds pass in real time while the service clock stands still, and when it is moved', async () => {
    const clock = new VirtualClock(Date.parse('2027-01-01T00:00:00Z'));
    let real = 5_000_000;
    const store = realTimeWindows(createMemoryWindowStore());
    store.countRealTime(() => real);
    const limiter = new RateLimiter({ name: 't', limit: 1, windowSeconds: 60, clock, store });
    assert.equal((await limiter.hit('a')).allowed, true);
    real += 15_000;
    const refused = await limiter.hit('a');
    assert.equal(refused.allowed, false);
    assert.equal(refused.resetSeconds, 45, 'Retry-After counts the real seconds already passed');
    real += 45_000;
    assert.equal((await limiter.hit('a')).allowed, true, 'a new window after 60 real seconds');
    await clock.advanceBy(60_000);
    assert.equal(
      (await limiter.hit('a')).allowed,
      true,
      'moving the clock past the window also resets it',
    );
    // Moving the clock while real time passes counts once, not twice.
    real += 30_000;
    await clock.advanceBy(30_000);
    assert.equal((await limiter.hit('a')).resetSeconds, 30);
  });

  it('count service time alone until told to count real time', async () => {
    const clock = new VirtualClock(Date.parse('2027-01-01T00:00:00Z'));
    const limiter = new RateLimiter({
      name: 't',
      limit: 1,
      windowSeconds: 60,
      clock,
      store: realTimeWindows(createMemoryWindowStore()),
    });
    assert.equal((await limiter.hit('a')).allowed, true);
    assert.equal((await limiter.hit('a')).resetSeconds, 60);
  });

  it('over HTTP: after a 429, waiting Retry-After real seconds is enough, without moving the clock', async () => {
    const own: RouteModule = {
      register(routes, services) {
        const limiter = new RateLimiter({
          name: 'test.short',
          limit: 1,
          windowSeconds: 2,
          clock: services.clock,
          store: services.shared.rateWindows,
        });
        routes.operation('getMe', async ({ ctx, principal }) => {
          await countLimit(ctx, limiter, principal!.accountId);
          return { status: 200, body: {} };
        });
      },
    };
    const server = await startTestServer({ modules: [auth, own] });
    try {
      const { token } = await signIn(server);
      assert.equal((await req(server.api, 'GET', '/me', { token })).status, 200);
      const over = await req(server.api, 'GET', '/me', { token });
      assert.equal(over.status, 429);
      assert.equal(over.body.code, 'rate_limited');
      const wait = Number(over.headers.get('retry-after'));
      assert.ok(wait >= 1 && wait <= 2, `Retry-After ${wait}`);
      await new Promise((res) => setTimeout(res, wait * 1000 + 100));
      assert.equal(
        (await req(server.api, 'GET', '/me', { token })).status,
        200,
        'the window reset in real time',
      );
    } finally {
      await server.close();
    }
  });
});

describe('general rate limits over HTTP', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer({
      env: { WAKEUP_RATE_LIMIT_ACCOUNT: '4', WAKEUP_RATE_LIMIT_IP: '12' },
    });
    token = (await signIn(server)).token; // two requests from this IP
  });
  after(() => server.close());

  it('describes the account limit for a signed-in caller, and refuses past it with 429 rate_limited', async () => {
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await req(server.api, 'GET', '/me', { token });
      assert.equal(r.status, 200);
      seen.push(
        `${r.headers.get('ratelimit-limit')}/${r.headers.get('ratelimit-remaining')}/${r.headers.get('ratelimit-policy')}`,
      );
      assert.ok(Number(r.headers.get('ratelimit-reset')) >= 1);
    }
    assert.deepEqual(seen, ['4/3/4;w=60', '4/2/4;w=60', '4/1/4;w=60', '4/0/4;w=60']);
    const over = await req(server.api, 'GET', '/me', { token });
    assert.equal(over.status, 429);
    assert.equal(over.body.code, 'rate_limited');
    assert.equal(over.headers.get('ratelimit-remaining'), '0');
    assert.ok(Number(over.headers.get('retry-after')) >= 1);
  });

  it('keeps counting the client IP, and describes it for anonymous requests', async () => {
    // So far this IP sent 2 (sign-in) + 5 requests.
    const r = await req(server.api, 'GET', '/openapi.json');
    assert.equal(r.headers.get('ratelimit-policy'), '12;w=60');
    assert.equal(r.headers.get('ratelimit-remaining'), String(12 - 8));
    for (let i = 0; i < 4; i++) await req(server.api, 'GET', '/openapi.json');
    const over = await req(server.api, 'GET', '/openapi.json');
    assert.equal(over.status, 429);
    assert.equal(over.body.code, 'rate_limited');
    assert.ok(Number(over.headers.get('retry-after')) >= 1);
    // The IP limit also stops unknown paths and signed-in callers.
    assert.equal((await req(server.api, 'GET', '/nope')).status, 429);
  });

  it('windows reset when the service clock passes them', async () => {
    await req(server.url, 'POST', '/dev/clock', { body: { advance_seconds: 60 } });
    const r = await req(server.api, 'GET', '/me', { token });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('ratelimit-remaining'), '3');
  });

  it('site pages are not limited', async () => {
    for (let i = 0; i < 15; i++)
      assert.equal((await req(server.url, 'GET', '/healthz')).status, 200);
  });
});

describe('client IP', () => {
  it('ignores X-Forwarded-For unless WAKEUP_TRUST_PROXY=1', async () => {
    const plain = await startTestServer({ env: { WAKEUP_RATE_LIMIT_IP: '2' } });
    try {
      await req(plain.api, 'GET', '/openapi.json', {
        headers: { 'x-forwarded-for': '203.0.113.1' },
      });
      await req(plain.api, 'GET', '/openapi.json', {
        headers: { 'x-forwarded-for': '203.0.113.2' },
      });
      const r = await req(plain.api, 'GET', '/openapi.json', {
        headers: { 'x-forwarded-for': '203.0.113.3' },
      });
      assert.equal(r.status, 429, 'all three came from the same socket address');
    } finally {
      await plain.close();
    }
  });

  it('keys on the address the nearest proxy saw with WAKEUP_TRUST_PROXY=1', async () => {
    const proxied = await startTestServer({
      env: { WAKEUP_RATE_LIMIT_IP: '2', WAKEUP_TRUST_PROXY: '1' },
    });
    try {
      const from = (ip: string) =>
        req(proxied.api, 'GET', '/openapi.json', { headers: { 'x-forwarded-for': ip } });
      assert.equal((await from('203.0.113.1')).status, 200);
      assert.equal((await from('203.0.113.1')).status, 200);
      assert.equal((await from('203.0.113.1')).status, 429);
      assert.equal((await from('203.0.113.9')).status, 200, 'another client');
    } finally {
      await proxied.close();
    }
  });

  it('a client-written leftmost X-Forwarded-For entry changes nothing (WAKEUP_TRUST_PROXY=1 and 2)', async () => {
    for (const hops of [1, 2]) {
      const limit = 20;
      const proxied = await startTestServer({
        env: { WAKEUP_RATE_LIMIT_IP: String(limit), WAKEUP_TRUST_PROXY: String(hops) },
      });
      try {
        // The client writes a new address of its choice on each request; the proxies append
        // what they saw: with 2 hops, the client's real address then the first proxy's.
        const seen = hops === 1 ? '198.51.100.7' : '198.51.100.7, 10.0.0.1';
        let admitted = 0;
        for (let i = 0; i < 50; i++) {
          const spoofed = `203.0.${i}.${i + 1}`;
          const r = await req(proxied.api, 'GET', '/openapi.json', {
            headers: { 'x-forwarded-for': `${spoofed}, ${seen}` },
          });
          if (r.status === 200) admitted++;
        }
        assert.equal(
          admitted,
          limit,
          `${hops} hop(s): only the limit passes, whatever the client writes`,
        );
        const other = await req(proxied.api, 'GET', '/openapi.json', {
          headers: { 'x-forwarded-for': hops === 1 ? '198.51.100.8' : '198.51.100.8, 10.0.0.1' },
        });
        assert.equal(other.status, 200, 'another real client is not limited');
      } finally {
        await proxied.close();
      }
    }
  });
});

describe('countLimit(ctx, limiter, key): an endpoint limit of its own', () => {
  it('answers 429 rate_limited past it, and the headers describe it when it is the tighter', async () => {
    const own: RouteModule = {
      register(routes, services) {
        const limiter = new RateLimiter({
          name: 'test.own',
          limit: 2,
          windowSeconds: 60,
          clock: services.clock,
          store: services.shared.rateWindows,
        });
        routes.operation('getMe', async ({ ctx, principal }) => {
          await countLimit(ctx, limiter, principal!.accountId, 'Two a minute.');
          return { status: 200, body: {} };
        });
      },
    };
    const server = await startTestServer({ modules: [auth, own] });
    try {
      const { token } = await signIn(server);
      const first = await req(server.api, 'GET', '/me', { token });
      assert.equal(first.headers.get('ratelimit-policy'), '2;w=60');
      assert.equal(first.headers.get('ratelimit-remaining'), '1');
      assert.equal((await req(server.api, 'GET', '/me', { token })).status, 200);
      const third = await req(server.api, 'GET', '/me', { token });
      assert.equal(third.status, 429);
      assert.equal(third.body.code, 'rate_limited');
      assert.equal(third.body.detail, 'Two a minute.');
      assert.equal(third.headers.get('ratelimit-policy'), '2;w=60');
    } finally {
      await server.close();
    }
  });
});
