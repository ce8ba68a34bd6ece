/**
 * Issue 27: what a request reads of its credential and account (session or API key, the
 * account, its plan and readiness) is never answered from a copy older than the last write,
 * on any host. Two servers on one database (PostgreSQL: a test schema shared by both; SQLite:
 * one file, two connections): a revoked API key, an ended session or a deleted account is
 * refused on the very next request on the other host, and a change made on one host shows on
 * the next GET /me of the other. Each credential is used on the other host first, so that
 * anything it could keep between requests is warm.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { req } from '../helpers/http.js';
import { signIn, startTestServer, testDbIsPostgres, type TestServer } from '../helpers/server.js';

let a: TestServer;
let b: TestServer;

before(async () => {
  a = await startTestServer();
  // The second host on the first one's database (its schema on PostgreSQL), not a fresh one.
  b = await startTestServer({ env: { WAKEUP_DB: a.dbFile } });
});
after(async () => {
  await b?.close();
  await a?.close();
});

async function apiKey(server: TestServer, token: string): Promise<{ id: string; key: string }> {
  const r = await req(server.api, 'POST', '/api-keys', { token, body: { name: 'script' } });
  assert.equal(r.status, 201, r.text);
  return { id: r.body.id, key: r.body.key };
}

async function deletionCode(server: TestServer, email: string): Promise<string> {
  const r = await fetch(`${server.url}/dev/outbox?channel=email&to=${encodeURIComponent(email)}`);
  const { items } = (await r.json()) as { items: Array<{ subject: string; code: string | null }> };
  const code = items.find((i) => /deletion/i.test(i.subject))?.code;
  assert.ok(code, `no deletion code emailed to ${email}`);
  return code;
}

describe(`credentials across two hosts on one ${testDbIsPostgres() ? 'PostgreSQL' : 'SQLite'} database`, () => {
  it('refuses an API key revoked on host A on the very next request on host B (401 api_key_revoked)', async () => {
    const { token } = await signIn(a);
    const key = await apiKey(a, token);
    assert.equal((await req(b.api, 'GET', '/me', { token: key.key })).status, 200);
    assert.equal((await req(b.api, 'GET', '/me', { token: key.key })).status, 200);
    assert.equal((await req(a.api, 'DELETE', `/api-keys/${key.id}`, { token })).status, 204);
    const me = await req(b.api, 'GET', '/me', { token: key.key });
    assert.equal(me.status, 401);
    assert.equal(me.body.code, 'api_key_revoked');
    // Public operations refuse a deleted key too.
    assert.equal(
      (await req(b.api, 'GET', '/time', { token: key.key })).body.code,
      'api_key_revoked',
    );
  });

  it('refuses a session ended on host A (logout) on the very next request on host B (401 session_expired)', async () => {
    const { token } = await signIn(a);
    assert.equal((await req(b.api, 'GET', '/me', { token })).status, 200);
    assert.equal((await req(b.api, 'GET', '/me', { token })).status, 200);
    assert.equal((await req(a.api, 'POST', '/auth/logout', { token })).status, 204);
    const me = await req(b.api, 'GET', '/me', { token });
    assert.equal(me.status, 401);
    assert.equal(me.body.code, 'session_expired');
  });

  it('refuses the session and the API key of an account deleted on host A on the very next request on host B', async () => {
    const { token, email } = await signIn(a);
    const key = await apiKey(a, token);
    assert.equal((await req(b.api, 'GET', '/me', { token })).status, 200);
    assert.equal((await req(b.api, 'GET', '/me', { token: key.key })).status, 200);
    assert.equal((await req(a.api, 'POST', '/me/deletion-code', { token })).status, 202);
    const code = await deletionCode(a, email);
    const del = await req(a.api, 'DELETE', '/me', { token, body: { confirm: 'DELETE', code } });
    assert.equal(del.status, 202, del.text);
    const s = await req(b.api, 'GET', '/me', { token });
    assert.equal(s.status, 401);
    assert.equal(s.body.code, 'session_expired');
    const k = await req(b.api, 'GET', '/me', { token: key.key });
    assert.equal(k.status, 401);
    assert.equal(k.body.code, 'api_key_revoked');
  });

  it('shows a change made on host A on the next GET /me on host B', async () => {
    const { token } = await signIn(a);
    assert.equal((await req(b.api, 'GET', '/me', { token })).body.home_timezone, null);
    const patch = await req(a.api, 'PATCH', '/me', {
      token,
      body: { home_timezone: 'Europe/Paris', display_name: 'Ana' },
    });
    assert.equal(patch.status, 200, patch.text);
    const me = await req(b.api, 'GET', '/me', { token });
    assert.equal(me.body.home_timezone, 'Europe/Paris');
    assert.equal(me.body.display_name, 'Ana');
  });
});
