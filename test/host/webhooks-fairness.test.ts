/**
 * Webhook delivery fair across accounts (issue 39, item 1), through HTTP on SQLite and
 * PostgreSQL: one account's endpoints that never answer hold a bounded share of the sending
 * (at most 2 attempts in flight per endpoint, 8 per account), so another account's delivery
 * leaves while all of theirs still hang; an endpoint in the slow lane gets one attempt at a
 * time; an endpoint takes 5 test events an hour (429 rate_limited with Retry-After), and a timed
 * out attempt is counted toward the slow lane. The figure for the attack itself (how long the
 * other account waits) comes from test/load/webhook-fairness.ts, not from here.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { req } from '../helpers/http.js';
import { signIn, startTestServer, withTestDb, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const ENV = { WAKEUP_WEBHOOK_ALLOW_PRIVATE: '1', WAKEUP_WEBHOOK_ALLOW_HTTP: '1' };

/** A receiver that never answers, counting the requests open at once (per path and in all) and those that ended. */
interface Silent {
  url: string;
  open: Map<string, number>;
  total(): number;
  peak: Map<string, number>;
  peakTotal: number;
  ended: number;
  got: number;
  close(): Promise<void>;
}

async function startSilent(): Promise<Silent> {
  const s: Omit<Silent, 'url' | 'close'> = {
    open: new Map(),
    total: () => [...s.open.values()].reduce((a, b) => a + b, 0),
    peak: new Map(),
    peakTotal: 0,
    ended: 0,
    got: 0,
  };
  const server: Server = createServer((request) => {
    const path = request.url ?? '/';
    s.got += 1;
    s.open.set(path, (s.open.get(path) ?? 0) + 1);
    s.peak.set(path, Math.max(s.peak.get(path) ?? 0, s.open.get(path)!));
    s.peakTotal = Math.max(s.peakTotal, s.total());
    request.socket.once('close', () => {
      s.open.set(path, s.open.get(path)! - 1);
      s.ended += 1;
    });
    request.resume(); // never answered
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    ...s,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get ended() {
      return s.ended;
    },
    get got() {
      return s.got;
    },
    get peakTotal() {
      return s.peakTotal;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const waitUntil = async (what: string, check: () => boolean | Promise<boolean>, ms = 20_000) => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe('webhook delivery fair across accounts', () => {
  let server: TestServer;
  let silent: Silent;
  let healthy: Receiver;
  before(async () => {
    server = await startTestServer({ env: ENV });
    silent = await startSilent();
    healthy = await startReceiver();
  });
  after(async () => {
    await silent?.close();
    await healthy?.close();
    await server?.close();
  });

  const create = async (token: string, url: string): Promise<string> => {
    const r = await req(server.api, 'POST', '/webhook-endpoints', { token, body: { url } });
    assert.equal(r.status, 201, r.text);
    return r.body.id as string;
  };
  const test = (token: string, id: string) =>
    req(server.api, 'POST', `/webhook-endpoints/${id}/test`, { token });

  it("another account's delivery leaves while one account's silent endpoints all hang, each held to its share", async () => {
    const attacker = await signIn(server);
    const victim = await signIn(server);
    const silentIds: string[] = [];
    for (let i = 0; i < 10; i++)
      silentIds.push(await create(attacker.token, `${silent.url}/a/${i}`));
    const victimId = await create(victim.token, `${healthy.url}/victim`);
    for (const id of silentIds)
      for (let k = 0; k < 5; k++) assert.equal((await test(attacker.token, id)).status, 202);
    // The pool fills with the attacker's attempts as far as its share allows.
    await waitUntil('the attacker to hold its share', () => silent.total() >= 8);

    assert.equal((await test(victim.token, victimId)).status, 202);
    await healthy.waitFor(
      (got) => got.some((r) => r.path === '/victim'),
      20_000,
      "the victim's delivery",
    );
    // The attacker's first wave hangs until its 10 s timeout; on a loaded machine that may pass
    // before the victim's delivery leaves. Fair means the victim never waits behind a second
    // wave: claim-and-wait batches (16 at once, then the next 16) fail this.
    assert.ok(
      silent.ended <= 8,
      `the victim's delivery left before the attacker's second wave ended (${silent.ended} ended)`,
    );
    assert.ok(
      silent.peakTotal <= 8,
      `at most 8 of one account's attempts in flight (saw ${silent.peakTotal})`,
    );
    for (const [path, n] of silent.peak)
      assert.ok(n <= 2, `at most 2 attempts in flight to ${path} (saw ${n})`);
  });

  it('an endpoint in the slow lane gets one attempt at a time', async () => {
    const { token } = await signIn(server);
    const id = await create(token, `${silent.url}/slow`);
    await withTestDb(server, (db) =>
      db.run('UPDATE webhook_endpoints SET timeouts = 3 WHERE id = ?', [id]),
    );
    for (let k = 0; k < 4; k++) assert.equal((await test(token, id)).status, 202);
    await waitUntil(
      'the slow endpoint to get an attempt',
      () => (silent.open.get('/slow') ?? 0) >= 1,
    );
    // Poll for a while: the worker's 1 s poll and every ending attempt would claim a second one.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    assert.equal(silent.peak.get('/slow'), 1);
  });

  it('an attempt that times out counts toward the slow lane; an answer resets the count', async () => {
    // The first test's attempts time out after 10 s.
    await waitUntil('a timed-out attempt', () => silent.ended > 0, 30_000);
    await waitUntil(
      'the count of timeouts',
      async () =>
        withTestDb(server, async (db) => {
          const row = await db.get<{ n: number }>(
            "SELECT MAX(timeouts) AS n FROM webhook_endpoints WHERE url LIKE '%/a/%'",
          );
          return Number(row?.n ?? 0) >= 1;
        }),
      5_000,
    );
    const { token } = await signIn(server);
    const id = await create(token, `${healthy.url}/reset`);
    await withTestDb(server, (db) =>
      db.run('UPDATE webhook_endpoints SET timeouts = 2 WHERE id = ?', [id]),
    );
    assert.equal((await test(token, id)).status, 202);
    await healthy.waitFor((got) => got.some((r) => r.path === '/reset'), 20_000, 'the delivery');
    await waitUntil('the count reset', async () =>
      withTestDb(
        server,
        async (db) =>
          Number(
            (await db.get<{ n: number }>(
              'SELECT timeouts AS n FROM webhook_endpoints WHERE id = ?',
              [id],
            ))!.n,
          ) === 0,
      ),
    );
  });

  it('an endpoint takes 5 test events an hour: the sixth is 429 rate_limited with Retry-After', async () => {
    const { token } = await signIn(server);
    const id = await create(token, `${healthy.url}/limit`);
    const answers = await Promise.all(Array.from({ length: 7 }, () => test(token, id)));
    assert.deepEqual(answers.map((r) => r.status).sort(), [202, 202, 202, 202, 202, 429, 429]);
    const refused = answers.find((r) => r.status === 429)!;
    assert.equal(refused.body.code, 'rate_limited');
    assert.match(refused.headers.get('content-type') ?? '', /application\/problem\+json/);
    const wait = Number(refused.headers.get('retry-after'));
    assert.ok(wait > 0 && wait <= 3600, `Retry-After ${wait}`);
    // Another endpoint of the same account is counted apart.
    const other = await create(token, `${healthy.url}/limit-other`);
    assert.equal((await test(token, other)).status, 202);
    // An hour later the endpoint takes test events again.
    assert.equal(
      (await req(server.url, 'POST', '/dev/clock', { body: { advance_seconds: 3601 } })).status,
      200,
    );
    assert.equal((await test(token, id)).status, 202);
  });
});
