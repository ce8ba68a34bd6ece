import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { requestCode, signIn, startTestServer } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { req } from '../helpers/http.js';

describe('authentication and per-operation rules', () => {
  let server: TestServer;
  let token: string;
  let accountId: string;
  const key = async (scopes?: string[]) => {
    const r = await req(server.api, 'POST', '/api-keys', {
      token,
      body: { name: 'k', ...(scopes ? { scopes } : {}) },
    });
    assert.equal(r.status, 201, r.text);
    return r.body as { id: string; key: string };
  };
  const webSession = async (email: string) => {
    const v = await req(server.api, 'POST', '/auth/email/verify', {
      body: { email, code: await requestCode(server, email), client: 'web' },
    });
    return {
      cookie: v.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; '),
      csrf: v.body.csrf_token as string,
    };
  };

  const relogin = async () => {
    const s = await signIn(server);
    token = s.token;
    accountId = s.account.id;
  };

  before(async () => {
    server = await startTestServer();
    await relogin();
  });
  after(() => server.close());

  describe('401', () => {
    it('unauthenticated without credentials', async () => {
      const r = await req(server.api, 'GET', '/me');
      assert.equal(r.status, 401);
      assert.equal(r.body.code, 'unauthenticated');
    });

    it('unauthenticated for a malformed Authorization header, an unknown token and a forged one', async () => {
      for (const authorization of [
        'Basic dXNlcjpwYXNz',
        'Bearer',
        'Bearer nonsense',
        `Bearer wus_${'A'.repeat(51)}`,
        `Bearer wuk_${'B'.repeat(51)}`,
        `Bearer ${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`, // right lookup, wrong secret
      ]) {
        const r = await req(server.api, 'GET', '/me', { headers: { authorization } });
        assert.equal(r.status, 401, authorization);
        assert.equal(r.body.code, 'unauthenticated', authorization);
      }
    });

    it('unauthenticated for a credential sent where its kind does not go', async () => {
      const { cookie } = await webSession('kinds@example.com');
      const webToken = cookie.match(/sessionid=([^;]+)/)![1]!;
      const k = await key();
      const cases: Array<Record<string, string>> = [
        { authorization: `Bearer ${webToken}` }, // web session as Bearer
        { 'x-session-token': k.key }, // API key in X-Session-Token
        { cookie: `sessionid=${token}` }, // app token as cookie
      ];
      for (const headers of cases) {
        const r = await req(server.api, 'GET', '/me', { headers });
        assert.equal(r.status, 401, JSON.stringify(headers));
        assert.equal(r.body.code, 'unauthenticated');
      }
    });

    it('does not fall back to another credential when the first one is bad', async () => {
      const r = await req(server.api, 'GET', '/me', {
        headers: { authorization: 'Bearer nonsense', 'x-session-token': token },
      });
      assert.equal(r.status, 401);
    });

    it('api_key_revoked for a deleted key', async () => {
      const k = await key();
      assert.equal((await req(server.api, 'GET', '/me', { token: k.key })).status, 200);
      assert.equal((await req(server.api, 'DELETE', `/api-keys/${k.id}`, { token })).status, 204);
      const r = await req(server.api, 'GET', '/me', { token: k.key });
      assert.equal(r.status, 401);
      assert.equal(r.body.code, 'api_key_revoked');
    });

    it('session_expired for an app session idle more than 90 days, not before', async () => {
      const s = await signIn(server);
      await req(server.url, 'POST', '/dev/clock', { body: { advance_seconds: 89 * 86_400 } });
      assert.equal(
        (await req(server.api, 'GET', '/me', { token: s.token })).status,
        200,
        'used on day 89: slides',
      );
      await req(server.url, 'POST', '/dev/clock', { body: { advance_seconds: 90 * 86_400 + 1 } });
      const r = await req(server.api, 'GET', '/me', { token: s.token });
      assert.equal(r.status, 401);
      assert.equal(r.body.code, 'session_expired');
      await relogin(); // the shared session expired too
    });

    it('session_expired for a web session idle more than 14 days', async () => {
      const w = await webSession('idle-web@example.com');
      await req(server.url, 'POST', '/dev/clock', { body: { advance_seconds: 14 * 86_400 + 1 } });
      const r = await req(server.api, 'GET', '/me', { headers: { cookie: w.cookie } });
      assert.equal(r.status, 401);
      assert.equal(r.body.code, 'session_expired');
      await relogin();
    });
  });

  describe('the three credentials', () => {
    it('accepts the app session token as Bearer and as X-Session-Token', async () => {
      assert.equal((await req(server.api, 'GET', '/me', { token })).status, 200);
      assert.equal(
        (await req(server.api, 'GET', '/me', { headers: { 'x-session-token': token } })).status,
        200,
      );
    });

    it('accepts an API key as Bearer and sets its last_used_at', async () => {
      const k = await key();
      const before = (await req(server.api, 'GET', '/api-keys', { token })).body.items.find(
        (i: any) => i.id === k.id,
      );
      assert.equal(before.last_used_at, null);
      await req(server.url, 'POST', '/dev/clock', { body: { advance_seconds: 5 } });
      assert.equal((await req(server.api, 'GET', '/me', { token: k.key })).status, 200);
      const now = (await req(server.url, 'GET', '/dev/clock')).body.now;
      const afterUse = (await req(server.api, 'GET', '/api-keys', { token })).body.items.find(
        (i: any) => i.id === k.id,
      );
      assert.equal(afterUse.last_used_at, now);
    });

    it('accepts the web session cookie; unsafe methods need X-CSRFToken', async () => {
      const w = await webSession('csrf@example.com');
      assert.equal(
        (await req(server.api, 'GET', '/me', { headers: { cookie: w.cookie } })).status,
        200,
        'GET needs no CSRF',
      );
      const none = await req(server.api, 'PATCH', '/me', {
        headers: { cookie: w.cookie },
        body: { display_name: 'X' },
      });
      assert.equal(none.status, 403);
      assert.equal(none.body.code, 'insufficient_scope');
      const bad = await req(server.api, 'PATCH', '/me', {
        headers: { cookie: w.cookie, 'x-csrftoken': 'wrong' },
        body: { display_name: 'X' },
      });
      assert.equal(bad.status, 403);
      const good = await req(server.api, 'PATCH', '/me', {
        headers: { cookie: w.cookie, 'x-csrftoken': w.csrf },
        body: { display_name: 'X' },
      });
      assert.equal(good.status, 200);
      assert.equal(good.body.display_name, 'X');
    });
  });

  describe('403 insufficient_scope', () => {
    it('a read-only key cannot change anything', async () => {
      const k = await key(['read']);
      assert.equal((await req(server.api, 'GET', '/me', { token: k.key })).status, 200);
      const r = await req(server.api, 'PATCH', '/me', {
        token: k.key,
        body: { display_name: 'No' },
      });
      assert.equal(r.status, 403);
      assert.equal(r.body.code, 'insufficient_scope');
    });

    it('a write-only key cannot read', async () => {
      const k = await key(['write']);
      const r = await req(server.api, 'GET', '/me', { token: k.key });
      assert.equal(r.status, 403);
      assert.equal(r.body.code, 'insufficient_scope');
    });

    it('API keys cannot manage API keys or log out', async () => {
      const k = await key(['read', 'write', 'export']);
      for (const [method, path, body] of [
        ['POST', '/api-keys', { name: 'escalate' }],
        ['DELETE', `/api-keys/${k.id}`, undefined],
        ['POST', '/auth/logout', undefined],
      ] as const) {
        const r = await req(server.api, method, path, { token: k.key, ...(body ? { body } : {}) });
        assert.equal(r.status, 403, `${method} ${path}`);
        assert.equal(r.body.code, 'insufficient_scope');
      }
      assert.equal(
        (await req(server.api, 'GET', '/api-keys', { token: k.key })).status,
        200,
        'listing is a read',
      );
    });
  });

  describe('404 for another account', () => {
    it("deleting another account's key answers 404 not_found, and the key keeps working", async () => {
      const k = await key();
      const other = await signIn(server);
      const r = await req(server.api, 'DELETE', `/api-keys/${k.id}`, { token: other.token });
      assert.equal(r.status, 404);
      assert.equal(r.body.code, 'not_found');
      assert.equal((await req(server.api, 'GET', '/me', { token: k.key })).body.id, accountId);
    });
  });

  describe('public operations', () => {
    it('answer without credentials and ignore bad ones', async () => {
      assert.equal((await req(server.api, 'GET', '/openapi.json')).status, 200);
      assert.equal(
        (
          await req(server.api, 'GET', '/openapi.json', {
            headers: { authorization: 'Bearer junk' },
          })
        ).status,
        200,
      );
    });
  });
});
