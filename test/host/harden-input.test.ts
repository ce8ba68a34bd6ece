/**
 * Issue 18, item 4: input limits. JSON nested deeper than 32 levels, compressed bodies that do
 * not decompress, unsupported encodings and non-finite numbers are refused with 4xx problems
 * before any clone or fingerprint, on authenticated and public endpoints alike.
 */
import assert from 'node:assert/strict';
import { gzipSync, deflateSync, brotliCompressSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { signIn, startTestServer } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { addVerifiedNumber, PHONE_TEST_ENV } from '../helpers/phone.js';
import { req } from '../helpers/http.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

async function raw(
  url: string,
  method: string,
  body: Buffer | string,
  headers: Record<string, string>,
) {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe('input limits', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer({ env: PHONE_TEST_ENV });
    token = (await signIn(server)).token;
    await addVerifiedNumber(server, token, '+12015550123');
  });
  after(() => server.close());

  it('JSON nested deeper than 32 answers 400 validation_error, on public and idempotent endpoints', async () => {
    for (const text of [nested(4000), nestedObject(4000), `{"email": ${nested(33)}}`]) {
      for (const [path, auth] of [
        ['/auth/email/start', {}],
        ['/auth/email/verify', {}],
        ['/schedules', { authorization: `Bearer ${token}`, 'idempotency-key': 'deep-1' }],
        ['/api-keys', { authorization: `Bearer ${token}` }],
      ] as const) {
        const r = await raw(server.api + path, 'POST', text, auth);
        assert.equal(r.status, 400, `${path} ${text.slice(0, 20)}`);
        assert.equal(r.body.code, 'validation_error');
        assert.match(r.body.detail, /deeper than 32/);
      }
    }
    // 32 levels are read (and then judged by the schema as usual).
    const ok = await raw(server.api + '/api-keys', 'POST', `{"name": "k", "x": ${nested(31)}}`, {
      authorization: `Bearer ${token}`,
    });
    assert.equal(ok.status, 400);
    assert.equal(ok.body.errors[0].code, 'unknown_field');
  });

  it('a string holding brackets is not nesting', async () => {
    const r = await raw(
      server.api + '/auth/email/start',
      'POST',
      JSON.stringify({ email: `${'['.repeat(100)}@example.com` }),
      {},
    );
    assert.equal(r.status, 400);
    assert.doesNotMatch(r.body.detail, /deeper than/);
  });

  it('compressed bodies: gzip, deflate and br decompress; garbage answers 400; other encodings 415; a bomb 413', async () => {
    const json = JSON.stringify({ email: 'zip@example.com' });
    for (const [enc, bytes] of [
      ['gzip', gzipSync(json)],
      ['deflate', deflateSync(json)],
      ['br', brotliCompressSync(json)],
    ] as const) {
      const r = await raw(server.api + '/auth/email/start', 'POST', bytes, {
        'content-encoding': enc,
      });
      assert.equal(r.status, 202, enc);
      const bad = await raw(server.api + '/auth/email/start', 'POST', json, {
        'content-encoding': enc,
      });
      assert.equal(bad.status, 400, `${enc}: not compressed`);
      assert.equal(bad.body.code, 'validation_error');
      const truncated = await raw(
        server.api + '/auth/email/start',
        'POST',
        bytes.subarray(0, bytes.length - 4),
        {
          'content-encoding': enc,
        },
      );
      assert.equal(truncated.status, 400, `${enc}: truncated`);
    }
    const odd = await raw(server.api + '/auth/email/start', 'POST', json, {
      'content-encoding': 'compress',
    });
    assert.equal(odd.status, 415);
    assert.equal(odd.body.code, 'unsupported_media_type');
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20));
    const big = await raw(server.api + '/auth/email/start', 'POST', bomb, {
      'content-encoding': 'gzip',
    });
    assert.equal(big.status, 413);
    const deep = await raw(server.api + '/auth/email/start', 'POST', gzipSync(nested(5000)), {
      'content-encoding': 'gzip',
    });
    assert.equal(deep.status, 400);
  });

  it('non-finite numbers fail validation: ?limit=Infinity, ?count=1e400, a body number 1e400', async () => {
    const schedule = await req(server.api, 'POST', '/schedules', {
      token,
      body: {
        kind: 'recurring',
        days_of_week: ['mon'],
        local_time: '07:00',
        timezone: 'Europe/Paris',
      },
    });
    assert.equal(schedule.status, 201, schedule.text);
    for (const path of [
      '/timezones?limit=Infinity',
      '/timezones?limit=-Infinity',
      '/timezones?limit=1e400',
      `/schedules/${schedule.body.id}/upcoming?count=1e400`,
      `/schedules/${schedule.body.id}/upcoming?count=Infinity`,
      '/api-keys?limit=Infinity',
    ]) {
      const r = await req(server.api, 'GET', path, { token });
      assert.equal(r.status, 400, path);
      assert.equal(r.body.code, 'validation_error', path);
    }
    const body = await raw(server.api + '/me', 'PATCH', '{"max_snoozes": 1e400}', {
      authorization: `Bearer ${token}`,
    });
    assert.equal(body.status, 400);
    assert.ok(
      ['validation_error', 'invalid_retry_policy'].includes(body.body.code),
      body.body.code,
    );
    // q is a string: "Infinity" is text to search for.
    assert.equal((await req(server.api, 'GET', '/timezones?q=Infinity', { token })).status, 200);
  });

  it('a NUL character anywhere in the input is refused alike on SQLite and PostgreSQL, and nothing is stored', async () => {
    for (const path of ['/timezones?q=%00', '/calls?status=%00']) {
      const r = await req(server.api, 'GET', path, { token });
      assert.equal(r.status, 400, `${path}: ${r.text}`);
      assert.equal(r.body.code, 'validation_error', path);
      assert.match(r.body.detail, /NUL/, path);
    }
    const before = await req(server.api, 'GET', '/me', { token });
    const body = await raw(
      server.api + '/me',
      'PATCH',
      JSON.stringify({ home_timezone: 'Europe/Paris\u0000' }),
      {
        authorization: `Bearer ${token}`,
      },
    );
    assert.equal(body.status, 400);
    assert.equal(body.body.code, 'validation_error');
    assert.equal(body.body.field, 'home_timezone');
    assert.deepEqual((await req(server.api, 'GET', '/me', { token })).body, before.body);
    assert.equal((await req(server.api, 'GET', '/schedules/sch_%00', { token })).status, 404);
  });
});
