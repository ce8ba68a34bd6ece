/**
 * Issue 10, item 4: POST /me/idp-authorization against a local fake of the identity
 * provider (token, revoke and keys endpoints on loopback, identity tokens signed ES256 with
 * a key this test makes): exchange, subject check, refresh token sealed at rest, revoked when
 * the account is deleted (and retried at the purge when the provider was down), 204 without
 * a provider, 400 for refused codes or another identity, 503 when unreachable, 10 a minute.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { queryDatabase, signIn, type TestServer } from '../helpers/server.js';
import { call } from '../helpers/phone.js';
import { advance, nowMs, startCallsServer } from './calls-fixture.js';

const ISSUER = 'https://idp.example.test';
const CLIENT_ID = 'com.example.wakeup';
const CLIENT_SECRET = 'test-secret';

/** The fake provider: codes it will accept, tokens it revoked. */
class FakeIdp {
  server!: Server;
  url = '';
  down = false;
  readonly codes = new Map<string, { sub: string; refresh: string; signWith?: KeyObject }>();
  readonly revoked: string[] = [];
  readonly key = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  now: () => number = () => Date.now();

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        if (this.down) {
          res.writeHead(503).end();
          return;
        }
        const form = new URLSearchParams(raw);
        const json = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        };
        if (req.url === '/keys')
          return json(200, {
            keys: [
              {
                ...this.key.publicKey.export({ format: 'jwk' }),
                kid: 'k1',
                alg: 'ES256',
                use: 'sig',
              },
            ],
          });
        if (form.get('client_id') !== CLIENT_ID || form.get('client_secret') !== CLIENT_SECRET)
          return json(401, { error: 'invalid_client' });
        if (req.url === '/token') {
          const grant = this.codes.get(form.get('code') ?? '');
          if (!grant || form.get('grant_type') !== 'authorization_code')
            return json(400, { error: 'invalid_grant' });
          this.codes.delete(form.get('code')!);
          const iat = Math.floor(this.now() / 1000);
          return json(200, {
            access_token: 'at-' + grant.refresh,
            token_type: 'Bearer',
            expires_in: 3600,
            refresh_token: grant.refresh,
            id_token: this.idToken(
              { iss: ISSUER, aud: CLIENT_ID, sub: grant.sub, iat, exp: iat + 600 },
              grant.signWith,
            ),
          });
        }
        if (req.url === '/revoke') {
          this.revoked.push(form.get('token') ?? '');
          return json(200, {});
        }
        json(404, {});
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  idToken(claims: Record<string, unknown>, signWith?: KeyObject): string {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const data = `${b64({ alg: 'ES256', kid: 'k1' })}.${b64(claims)}`;
    const sig = sign('sha256', Buffer.from(data), {
      key: signWith ?? this.key.privateKey,
      dsaEncoding: 'ieee-p1363',
    });
    return `${data}.${sig.toString('base64url')}`;
  }

  /** A new single-use code for `sub`, with its refresh token. */
  grant(sub: string, signWith?: KeyObject): { code: string; refresh: string } {
    const code = 'c' + randomBytes(12).toString('hex');
    const refresh = 'r' + randomBytes(16).toString('hex');
    this.codes.set(code, { sub, refresh, ...(signWith ? { signWith } : {}) });
    return { code, refresh };
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

const link = (server: TestServer, token: string, code: string, headers?: Record<string, string>) =>
  call(server, 'POST', '/me/idp-authorization', {
    token,
    body: { authorization_code: code },
    ...(headers ? { headers } : {}),
  });

function links(server: TestServer): Promise<any[]> {
  return queryDatabase(server.dbFile, 'SELECT * FROM idp_links');
}

describe('POST /me/idp-authorization without a provider', () => {
  it('answers 204 and keeps nothing; the body is still validated', async () => {
    const server = await startCallsServer();
    try {
      const { token } = await signIn(server);
      const r = await link(server, token, 'anything');
      assert.equal(r.status, 204);
      assert.deepEqual(await links(server), []);
      for (const body of [
        {},
        { authorization_code: '' },
        { authorization_code: 'x'.repeat(1025) },
        { authorization_code: 'a', extra: 1 },
      ]) {
        const bad = await call(server, 'POST', '/me/idp-authorization', { token, body });
        assert.equal(bad.status, 400, JSON.stringify(body));
        assert.equal(bad.body.code, 'validation_error');
      }
    } finally {
      await server.close();
    }
  });
});

describe('POST /me/idp-authorization with a provider', () => {
  const idp = new FakeIdp();
  let server: TestServer;
  before(async () => {
    await idp.start();
    server = await startCallsServer({
      WAKEUP_IDP_CLIENT_ID: CLIENT_ID,
      WAKEUP_IDP_CLIENT_SECRET: CLIENT_SECRET,
      WAKEUP_IDP_TOKEN_URL: `${idp.url}/token`,
      WAKEUP_IDP_REVOKE_URL: `${idp.url}/revoke`,
      WAKEUP_IDP_KEYS_URL: `${idp.url}/keys`,
      WAKEUP_IDP_ISSUER: ISSUER,
      WAKEUP_IDP_TOKEN_KEY: randomBytes(32).toString('base64'),
      WAKEUP_IDP_TIMEOUT_MS: '2000',
    });
    idp.now = () => nowMs(server);
  });
  after(async () => {
    await server.close();
    await idp.close();
  });

  it('exchanges the code, links the subject and keeps the refresh token sealed', async () => {
    const { token, account } = await signIn(server);
    const g = idp.grant('subject-a');
    const r = await link(server, token, g.code);
    assert.equal(r.status, 204, JSON.stringify(r.body));
    const row = (await links(server)).find((l) => l.account_id === account.id);
    assert.equal(row.subject, 'subject-a');
    assert.ok(Buffer.isBuffer(row.refresh_token_sealed));
    assert.ok(
      !row.refresh_token_sealed.toString('latin1').includes(g.refresh),
      'not stored in the clear',
    );
    // The same identity again: 204 (token replaced).
    assert.equal((await link(server, token, idp.grant('subject-a').code)).status, 204);
  });

  it('400 validation_error for a refused code, a badly signed token, another identity or a subject linked elsewhere', async () => {
    const a = await signIn(server);
    const b = await signIn(server);
    assert.equal((await link(server, a.token, idp.grant('subject-b').code)).status, 204);
    const refused = await link(server, a.token, 'never-issued');
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'validation_error');
    assert.equal(refused.body.field, 'authorization_code');
    const used = idp.grant('subject-b');
    await link(server, a.token, used.code);
    assert.equal((await link(server, a.token, used.code)).status, 400, 'single use');
    const forged = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    assert.equal(
      (await link(server, a.token, idp.grant('subject-b', forged).code)).status,
      400,
      'bad signature',
    );
    const other = idp.grant('subject-other');
    const mismatch = await link(server, a.token, other.code);
    assert.equal(mismatch.status, 400);
    assert.ok(
      idp.revoked.includes(other.refresh),
      'a token of the wrong identity is revoked, not kept',
    );
    const stolen = await link(server, b.token, idp.grant('subject-b').code);
    assert.equal(stolen.status, 400, "another account's identity");
    assert.equal((await links(server)).filter((l) => l.subject === 'subject-b').length, 1);
  });

  it('503 provider_unavailable with Retry-After when the provider is down', async () => {
    const { token } = await signIn(server);
    idp.down = true;
    try {
      const r = await link(server, token, idp.grant('subject-c').code);
      assert.equal(r.status, 503);
      assert.equal(r.body.code, 'provider_unavailable');
      assert.ok(Number(r.headers.get('retry-after')) > 0);
    } finally {
      idp.down = false;
    }
  });

  it('at most 10 requests a minute per account (429 rate_limited)', async () => {
    const { token } = await signIn(server);
    for (let i = 0; i < 10; i++) assert.equal((await link(server, token, `bad-${i}`)).status, 400);
    const r = await link(server, token, 'bad-11');
    assert.equal(r.status, 429);
    assert.equal(r.body.code, 'rate_limited');
    await advance(server, 61);
    assert.equal((await link(server, token, 'bad-12')).status, 400);
  });

  async function deleteAccount(token: string, email: string) {
    assert.equal((await call(server, 'POST', '/me/deletion-code', { token })).status, 202);
    const mail = await call(
      server,
      'GET',
      `/dev/outbox?channel=email&to=${encodeURIComponent(email)}`,
    );
    const code = mail.body.items.find((i: any) => /deletion/i.test(i.subject)).code;
    return call(server, 'DELETE', '/me', { token, body: { confirm: 'DELETE', code } });
  }

  it('deleting the account revokes the refresh token at the provider', async () => {
    const { token, email } = await signIn(server);
    const g = idp.grant('subject-d');
    assert.equal((await link(server, token, g.code)).status, 204);
    assert.equal((await deleteAccount(token, email)).status, 202);
    assert.ok(idp.revoked.includes(g.refresh));
  });

  it('a revocation the provider could not take at deletion is retried by the purge', async () => {
    const { token, email } = await signIn(server);
    const g = idp.grant('subject-e');
    assert.equal((await link(server, token, g.code)).status, 204);
    idp.down = true;
    try {
      assert.equal(
        (await deleteAccount(token, email)).status,
        202,
        'deletion does not wait for the provider',
      );
    } finally {
      idp.down = false;
    }
    assert.ok(!idp.revoked.includes(g.refresh));
    await advance(server, 30 * 86_400);
    assert.ok(idp.revoked.includes(g.refresh), 'revoked before the purge');
  });
});
