/**
 * Webhook targets and secrets (issue 39, item 4), through HTTP on SQLite and PostgreSQL:
 * IPv4-mapped IPv6 is judged by its IPv4 and only global unicast IPv6 is public; saving an
 * endpoint resolves nothing and its answers never name an address; the 2,000-character limit
 * holds for the URL as stored; signing secrets are sealed at rest with the server's key (the
 * database never holds them readable, deliveries still verify), and a previous secret is erased
 * once its grace period ends.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { req } from '../helpers/http.js';
import {
  signIn,
  startTestServer,
  storedText,
  testDbIsPostgres,
  withTestDb,
  type TestServer,
} from '../helpers/server.js';
import { startReceiver, verifyDelivery, type Receiver } from '../helpers/webhook-receiver.js';

const KEY = randomBytes(32).toString('base64');

describe('webhook targets when saved', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { WAKEUP_SECRETS_KEY: KEY } });
  });
  after(() => server?.close());

  const post = async (token: string, url: string) =>
    req(server.api, 'POST', '/webhook-endpoints', { token, body: { url } });

  it('judges ::ffff:0:0/96 by its IPv4, refuses IPv6 outside 2000::/3, and names no address', async () => {
    const { token } = await signIn(server);
    for (const host of [
      '[::ffff:169.254.169.254]',
      '[::ffff:a9fe:a9fe]',
      '[::ffff:0:7f00:1]',
      '[::127.0.0.1]',
      '[4000::1]',
      '[2001:2::1]',
      '[3fff::1]',
      '[64:ff9b::a00:1]',
    ]) {
      const r = await post(token, `https://${host}/hook`);
      assert.deepEqual(
        [r.status, r.body.code, r.body.field],
        [400, 'webhook_target_not_allowed', 'url'],
        host,
      );
      assert.doesNotMatch(r.body.detail, /\d+\.\d+\.\d+\.\d+|::/, 'the answer names no address');
    }
    for (const host of ['[::ffff:8.8.8.8]', '[2a00:1450:4001::1]', '8.8.8.8']) {
      assert.equal((await post(token, `https://${host}/hook`)).status, 201, host);
    }
  });

  it('resolves no name when saving: local names are refused as such, any other name is accepted', async () => {
    const { token } = await signIn(server);
    for (const name of ['localhost', 'db.internal', 'printer.local', 'router.lan', 'intranet']) {
      const r = await post(token, `https://${name}/hook`);
      assert.deepEqual([r.status, r.body.code], [400, 'webhook_target_not_allowed'], name);
    }
    // A name that does not resolve is saved like any other: the answer tells nothing of DNS.
    const r = await post(token, 'https://hooks.no-such-name.invalid/hook');
    assert.equal(r.status, 201, r.text);
    const test = await req(server.api, 'POST', `/webhook-endpoints/${r.body.id}/test`, { token });
    assert.equal(test.status, 202);
    // Its delivery fails with the words a name resolving to a private address gets too.
    const until = Date.now() + 15_000;
    let error: string | null = null;
    while (Date.now() < until && error === null) {
      const d = await req(server.api, 'GET', `/webhook-endpoints/${r.body.id}/deliveries`, {
        token,
      });
      error = d.body.items?.[0]?.error ?? null;
      if (error === null) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(error, 'host did not resolve to public addresses only');
  });

  it('applies the 2,000-character limit to the URL as stored', async () => {
    const { token } = await signIn(server);
    // 1,990 characters as typed; each é is stored as %C3%A9.
    const typed = `https://example.com/${'é'.repeat(1990 - 'https://example.com/'.length)}`;
    assert.equal(typed.length, 1990);
    const r = await post(token, typed);
    assert.deepEqual([r.status, r.body.code, r.body.field], [400, 'invalid_webhook_url', 'url']);
    assert.match(r.body.detail, /2000 characters once encoded/);
    const fits = await post(token, `https://example.com/${'é'.repeat(300)}`);
    assert.equal(fits.status, 201);
    assert.ok(fits.body.url.length <= 2000);
  });
});

describe('webhook signing secrets at rest', () => {
  let server: TestServer;
  let receiver: Receiver;
  before(async () => {
    server = await startTestServer({
      env: {
        WAKEUP_SECRETS_KEY: KEY,
        WAKEUP_WEBHOOK_ALLOW_PRIVATE: '1',
        WAKEUP_WEBHOOK_ALLOW_HTTP: '1',
      },
    });
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver?.close();
    await server?.close();
  });

  it('seals secrets with the server key: never readable in the database; deliveries verify; the old secret is erased after its grace', async () => {
    const { token } = await signIn(server);
    const created = await req(server.api, 'POST', '/webhook-endpoints', {
      token,
      body: { url: `${receiver.url}/sealed` },
    });
    assert.equal(created.status, 201);
    const first = created.body.secret as string;
    const rotated = await req(
      server.api,
      'POST',
      `/webhook-endpoints/${created.body.id}/rotate-secret`,
      { token },
    );
    assert.equal(rotated.status, 200, rotated.text);
    const second = rotated.body.secret as string;
    assert.equal(rotated.body.secret_hint, second.slice(0, 10));

    const stored = await storedText(server);
    for (const s of [first, second]) {
      assert.ok(!stored.includes(s.slice('whsec_'.length)), 'no secret is stored readable');
    }
    const rows = await withTestDb(server, (db) =>
      db.all<{ secret: string; previous_secret: string | null }>(
        'SELECT secret, previous_secret FROM webhook_endpoints WHERE id = ?',
        [created.body.id],
      ),
    );
    assert.match(rows[0]!.secret, /^sealed:v1:/);
    assert.match(rows[0]!.previous_secret ?? '', /^sealed:v1:/);

    // A delivery is signed with both, and each verifies.
    const sent = await req(server.api, 'POST', `/webhook-endpoints/${created.body.id}/test`, {
      token,
    });
    assert.equal(sent.status, 202);
    const got = await receiver.waitFor((r) => r.some((x) => x.id === sent.body.event_id));
    const delivery = got.find((x) => x.id === sent.body.event_id)!;
    verifyDelivery(first, delivery);
    verifyDelivery(second, delivery);

    // After its 24-hour grace the previous secret is erased (the worker's hourly pass).
    assert.equal(
      (await req(server.url, 'POST', '/dev/clock', { body: { advance_seconds: 86_400 + 3_601 } }))
        .status,
      200,
    );
    const until = Date.now() + 15_000;
    for (;;) {
      const row = await withTestDb(server, (db) =>
        db.get<{ previous_secret: string | null; previous_secret_until: number | null }>(
          'SELECT previous_secret, previous_secret_until FROM webhook_endpoints WHERE id = ?',
          [created.body.id],
        ),
      );
      if (row!.previous_secret === null && row!.previous_secret_until === null) break;
      assert.ok(Date.now() < until, 'the previous secret was erased');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(
      (await req(server.api, 'GET', `/webhook-endpoints/${created.body.id}`, { token })).body
        .previous_secret_expires_at,
      null,
    );
  });

  it('seals a secret stored readable before (the hourly pass of the worker)', async () => {
    const { token } = await signIn(server);
    const created = await req(server.api, 'POST', '/webhook-endpoints', {
      token,
      body: { url: `${receiver.url}/legacy` },
    });
    const secret = created.body.secret as string;
    // As a row written before sealing existed.
    await withTestDb(server, (db) =>
      db.run('UPDATE webhook_endpoints SET secret = ? WHERE id = ?', [secret, created.body.id]),
    );
    assert.equal(
      (await req(server.url, 'POST', '/dev/clock', { body: { advance_seconds: 3_601 } })).status,
      200,
    );
    const until = Date.now() + 15_000;
    for (;;) {
      const row = await withTestDb(server, (db) =>
        db.get<{ secret: string }>('SELECT secret FROM webhook_endpoints WHERE id = ?', [
          created.body.id,
        ]),
      );
      if (row!.secret.startsWith('sealed:v1:')) break;
      assert.ok(Date.now() < until, 'sealed by the worker');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(
      (await req(server.api, 'GET', `/webhook-endpoints/${created.body.id}`, { token })).body
        .secret_hint,
      secret.slice(0, 10),
    );
  });
});

describe(
  'webhook signing secrets on SQLite without WAKEUP_SECRETS_KEY',
  { skip: testDbIsPostgres() && 'a key file is the SQLite default' },
  () => {
    it('seals them with a key file made beside the database', async () => {
      const server = await startTestServer();
      try {
        assert.ok(existsSync(`${server.dbFile}.key`));
        const { token } = await signIn(server);
        const created = await req(server.api, 'POST', '/webhook-endpoints', {
          token,
          body: { url: 'https://example.com/hook' },
        });
        assert.equal(created.status, 201);
        assert.ok(!(await storedText(server)).includes(created.body.secret.slice('whsec_'.length)));
      } finally {
        await server.close();
      }
    });
  },
);
