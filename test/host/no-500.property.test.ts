import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { signIn, startTestServer } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { req } from '../helpers/http.js';

const SCALE = Number(process.env.WAKEUP_PROPERTY_SCALE ?? 1);
const RUNS = Math.max(1, Math.round(40 * SCALE));

/** Any JSON value, biased towards objects carrying the fields the endpoints read. */
const fieldNames = [
  'email',
  'code',
  'client',
  'installation_id',
  'name',
  'scopes',
  'display_name',
  'greeting_name',
  'home_timezone',
  'time_format',
  'locale',
  'voice',
  'marketing_opt_in',
  'digest_opt_in',
  'default_backup_alarm',
  'default_retry_policy',
  'max_snoozes',
  'offsets_minutes',
  'ring_timeout_seconds',
  'snooze_minutes',
  'advance_seconds',
  'to',
  '__proto__',
  'constructor',
];
const body = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(
    fc.constantFrom(...fieldNames),
    fc.oneof(fc.jsonValue(), fc.dictionary(fc.constantFrom(...fieldNames), fc.jsonValue())),
  ),
);
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', '%', '%E0%A4%A', '..', '\u0000', 'x'.repeat(300)),
);

describe('no input to the platform endpoints gives a 500', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = (await signIn(server)).token;
  });
  after(() => server.close());

  const endpoints: Array<[string, string, boolean]> = [
    ['POST', '/api/v1/auth/email/start', false],
    ['POST', '/api/v1/auth/email/verify', false],
    ['POST', '/api/v1/auth/logout', true],
    ['PATCH', '/api/v1/me', true],
    ['POST', '/api/v1/api-keys', true],
    ['POST', '/dev/clock', false],
  ];
  for (const [method, path, authed] of endpoints) {
    it(`${method} ${path} with any JSON body`, async () => {
      await fc.assert(
        fc.asyncProperty(body, async (value) => {
          const r = await req(server.url, method, path, {
            body: JSON.stringify(value),
            ...(authed ? { token } : {}),
          });
          assert.ok(r.status < 500, `${r.status} for ${JSON.stringify(value)}: ${r.text}`);
          if (r.status >= 400) assert.match(r.headers.get('content-type') ?? '', /problem\+json/);
        }),
        { numRuns: RUNS },
      );
      if (path === '/api/v1/auth/logout') token = (await signIn(server)).token; // a lucky run may have logged out
    });
  }

  it('any query on GET /api/v1/api-keys and /dev/outbox', async () => {
    await fc.assert(
      fc.asyncProperty(
        text,
        text,
        fc.constantFrom('/api/v1/api-keys', '/dev/outbox'),
        async (a, b, path) => {
          const q = `?limit=${encodeURIComponent(a)}&cursor=${encodeURIComponent(b)}&to=${encodeURIComponent(a)}&channel=${encodeURIComponent(b)}`;
          const r = await req(server.url, 'GET', path + q, { token });
          assert.ok(r.status < 500, `${r.status} for ${q}`);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('any path segment and credential header', async () => {
    await fc.assert(
      fc.asyncProperty(
        text,
        text,
        fc.constantFrom(
          'authorization',
          'x-session-token',
          'cookie',
          'x-csrftoken',
          'idempotency-key',
        ),
        async (seg, cred, header) => {
          const value = cred.replace(/[^\x20-\x7e]/g, '');
          const r = await req(server.url, 'DELETE', `/api/v1/api-keys/${encodeURIComponent(seg)}`, {
            headers: { [header]: value },
          });
          assert.ok(r.status < 500, `${r.status} for ${seg} ${header}: ${value}`);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
