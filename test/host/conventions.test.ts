import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { getErrorCatalogue } from '../../schema/load.js';
import { signIn, startTestServer } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { req } from '../helpers/http.js';

/** Sends raw bytes (fetch cannot send some malformed requests). */
function raw(url: string, method: string, headers: Record<string, string>, body?: Buffer | string) {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: string;
  }>((resolve, reject) => {
    const r = request(url, { method, headers }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (data += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: data }));
    });
    r.on('error', reject);
    if (body !== undefined) r.write(body);
    r.end();
  });
}

describe('HTTP conventions', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer({ env: { WAKEUP_MAX_BODY_BYTES: '2048' } });
    token = (await signIn(server)).token;
  });
  after(() => server.close());

  describe('problem+json', () => {
    it('answers an unknown API path with 404 not_found as a full problem', async () => {
      const r = await req(server.api, 'GET', '/no-such-thing');
      assert.equal(r.status, 404);
      assert.match(r.headers.get('content-type')!, /^application\/problem\+json/);
      assert.deepEqual(Object.keys(r.body).sort(), [
        'code',
        'detail',
        'instance',
        'status',
        'title',
        'type',
      ]);
      assert.equal(r.body.code, 'not_found');
      assert.equal(r.body.status, 404);
      assert.equal(r.body.title, 'Not found');
      assert.equal(r.body.type, `${server.url}/docs/errors#not_found`);
      assert.equal(r.body.instance, '/api/v1/no-such-thing');
    });

    it('answers an unknown site path with 404 not_found too', async () => {
      const r = await req(server.url, 'GET', '/nothing/here');
      assert.equal(r.status, 404);
      assert.equal(r.body.code, 'not_found');
      assert.equal(r.body.instance, '/nothing/here');
    });

    it('uses WAKEUP_SITE_URL for the type link when set', async () => {
      const other = await startTestServer({
        env: { WAKEUP_SITE_URL: 'https://wake.example.com/ignored/path' },
      });
      try {
        const r = await req(other.api, 'GET', '/nope');
        assert.equal(r.body.type, 'https://wake.example.com/docs/errors#not_found');
      } finally {
        await other.close();
      }
    });

    it('every code of the catalogue has a status and a title the error handler can use', () => {
      for (const e of getErrorCatalogue()) {
        assert.ok(e.status >= 400 && e.status <= 599, e.code);
        assert.ok(e.title.length > 0, e.code);
      }
    });
  });

  describe('405 method_not_allowed', () => {
    it('answers a known path with another method 405 and Allow, before auth runs', async () => {
      // No credentials: a handler or auth step would have answered 401.
      const r = await req(server.api, 'PUT', '/me');
      assert.equal(r.status, 405);
      assert.equal(r.body.code, 'method_not_allowed');
      assert.equal(r.headers.get('allow'), 'GET, HEAD, PATCH, DELETE');
    });

    it('lists the methods of a templated path', async () => {
      const r = await req(server.api, 'GET', '/api-keys/7d3c3e7e-1a54-4c0e-9a4e-2b6f1f1d8b1a', {
        token,
      });
      assert.equal(r.status, 405);
      assert.equal(r.headers.get('allow'), 'DELETE');
    });

    it('answers HEAD on a GET route like GET without a body', async () => {
      const r = await fetch(`${server.api}/me`, {
        method: 'HEAD',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(r.status, 200);
      assert.equal(await r.text(), '');
    });
  });

  describe('request bodies', () => {
    it('answers malformed JSON with 400 validation_error naming the body', async () => {
      const r = await req(server.api, 'PATCH', '/me', { token, body: '{"display_name": ' });
      assert.equal(r.status, 400);
      assert.equal(r.body.code, 'validation_error');
      assert.equal(r.body.errors.length, 1);
      assert.deepEqual(
        { ...r.body.errors[0], message: undefined },
        { field: '', in: 'body', code: 'invalid', message: undefined },
      );
    });

    it('answers bytes that are not UTF-8 with 400 validation_error', async () => {
      const r = await raw(
        `${server.api}/me`,
        'PATCH',
        {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
        },
        Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      );
      assert.equal(r.status, 400);
      assert.equal(JSON.parse(r.body).code, 'validation_error');
    });

    it('answers a body over the limit with 413 payload_too_large (declared length)', async () => {
      const r = await req(server.api, 'PATCH', '/me', {
        token,
        body: JSON.stringify({ display_name: 'x'.repeat(5000) }),
      });
      assert.equal(r.status, 413);
      assert.equal(r.body.code, 'payload_too_large');
    });

    it('answers a chunked body over the limit with 413 too', async () => {
      const r = await raw(
        `${server.api}/me`,
        'PATCH',
        {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'transfer-encoding': 'chunked',
        },
        JSON.stringify({ display_name: 'y'.repeat(5000) }),
      );
      assert.equal(r.status, 413);
      assert.equal(JSON.parse(r.body).code, 'payload_too_large');
    });

    it('answers a body that is not JSON with 415 unsupported_media_type', async () => {
      for (const type of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=latin1',
      ]) {
        const r = await req(server.api, 'PATCH', '/me', {
          token,
          body: 'display_name=Ada',
          headers: { 'content-type': type },
        });
        assert.equal(r.status, 415, type);
        assert.equal(r.body.code, 'unsupported_media_type');
      }
    });

    it('accepts application/json with charset utf-8 and +json types', async () => {
      for (const type of ['application/json; charset=utf-8', 'application/merge-patch+json']) {
        const r = await req(server.api, 'PATCH', '/me', {
          token,
          body: { display_name: 'Ada' },
          headers: { 'content-type': type },
        });
        assert.equal(r.status, 200, type);
      }
    });

    it('answers a missing required body with 400 validation_error', async () => {
      const r = await req(server.api, 'PATCH', '/me', { token });
      assert.equal(r.status, 400);
      assert.equal(r.body.code, 'validation_error');
      assert.equal(r.body.errors[0].code, 'required');
    });
  });

  describe('headers', () => {
    it('returns a generated X-Request-Id, and honours a sensible incoming one', async () => {
      const a = await req(server.api, 'GET', '/me', { token });
      assert.match(a.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/);
      const b = await req(server.api, 'GET', '/me', {
        token,
        headers: { 'x-request-id': 'trace-123.abc' },
      });
      assert.equal(b.headers.get('x-request-id'), 'trace-123.abc');
      const c = await req(server.api, 'GET', '/me', {
        token,
        headers: { 'x-request-id': 'bad id with spaces' },
      });
      assert.notEqual(c.headers.get('x-request-id'), 'bad id with spaces');
    });

    it('puts RateLimit-* headers on every API response, errors included', async () => {
      for (const [method, path, t] of [
        ['GET', '/me', token],
        ['GET', '/me', undefined],
        ['GET', '/nope', undefined],
        ['DELETE', '/me', token],
        ['GET', '/openapi.json', undefined],
      ] as const) {
        const r = await req(server.api, method, path, t ? { token: t } : {});
        for (const h of [
          'ratelimit-limit',
          'ratelimit-remaining',
          'ratelimit-reset',
          'ratelimit-policy',
        ]) {
          assert.ok(r.headers.get(h), `${method} ${path} ${r.status}: ${h}`);
        }
      }
    });

    it('does not put RateLimit-* headers on site pages', async () => {
      const r = await req(server.url, 'GET', '/healthz');
      assert.equal(r.headers.get('ratelimit-limit'), null);
    });
  });

  describe('instants', () => {
    it('writes every instant it produces in UTC ending in Z', async () => {
      const me = await req(server.api, 'POST', '/api-keys', { token, body: { name: 'instants' } });
      assert.match(me.body.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
      const clock = await req(server.url, 'GET', '/dev/clock');
      assert.match(clock.body.now, /Z$/);
    });
  });
});

describe('500 internal_error', () => {
  it('never shows the cause of an unplanned failure', async () => {
    const server = await startTestServer();
    try {
      const { token } = await signIn(server);
      await server.running.deps.db.close(); // every query now throws "The database connection is not open"
      const r = await req(server.api, 'GET', '/me', { token });
      assert.equal(r.status, 500);
      assert.equal(r.body.code, 'internal_error');
      assert.equal(r.body.title, 'Internal error');
      assert.doesNotMatch(r.text, /database|connection|sqlite|Error:|at /i);
      const ready = await req(server.url, 'GET', '/readyz');
      assert.equal(ready.status, 503);
    } finally {
      await server.close();
    }
  });
});
