/**
 * Issue 18, item 6: a deleted API key answers 401 api_key_revoked on every operation that
 * reads credentials, public ones included; POST /dev/clock refuses a jump beyond five years.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signIn, startTestServer } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { req } from '../helpers/http.js';

describe('a revoked API key', () => {
  let server: TestServer;
  let key: string;
  before(async () => {
    server = await startTestServer();
    const { token } = await signIn(server);
    const created = await req(server.api, 'POST', '/api-keys', {
      token,
      body: { name: 'soon gone' },
    });
    key = created.body.key;
    assert.equal(
      (await req(server.api, 'DELETE', `/api-keys/${created.body.id}`, { token })).status,
      204,
    );
  });
  after(() => server.close());

  it('answers 401 api_key_revoked on public operations too, not as an anonymous caller', async () => {
    const cases: Array<[string, string, unknown?]> = [
      ['GET', '/time'],
      ['GET', '/timezones?q=paris'],
      ['GET', '/countries'],
      ['GET', '/openapi.json'],
      ['GET', '/calls/00000000-0000-4000-8000-000000000000'],
      ['POST', '/auth/email/start', { email: 'someone@example.com' }],
    ];
    for (const [method, path, body] of cases) {
      const r = await req(server.api, method, path, { token: key, ...(body ? { body } : {}) });
      assert.equal(r.status, 401, `${method} ${path}`);
      assert.equal(r.body.code, 'api_key_revoked', `${method} ${path}`);
    }
  });

  it('an unknown key on a public operation still runs anonymously', async () => {
    const r = await req(server.api, 'GET', '/time', {
      token: 'wuk_unknownunknownunknownunknownunknownunknownunknown',
    });
    assert.equal(r.status, 200);
  });
});

describe('POST /dev/clock bound', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('refuses a jump beyond 1826 days (five years) with 400, quickly, and leaves the clock alone', async () => {
    const before = (await req(server.url, 'GET', '/dev/clock')).body.now;
    const started = Date.now();
    const far = await req(server.url, 'POST', '/dev/clock', {
      body: { to: '9999-12-31T00:00:00Z' },
    });
    assert.equal(far.status, 400);
    assert.equal(far.body.code, 'validation_error');
    assert.ok(
      Date.now() - started < 10_000,
      'answered without stepping the clock (that would take hours)',
    );
    const advance = await req(server.url, 'POST', '/dev/clock', {
      body: { advance_seconds: 1827 * 86_400 },
    });
    assert.equal(advance.status, 400);
    assert.equal((await req(server.url, 'GET', '/dev/clock')).body.now, before, 'unchanged');
  });

  it('allows a jump of up to five years', async () => {
    const now = Date.parse((await req(server.url, 'GET', '/dev/clock')).body.now);
    const to = new Date(now + 1800 * 86_400_000).toISOString();
    const r = await req(server.url, 'POST', '/dev/clock', { body: { to } });
    assert.equal(r.status, 200);
  });
});
