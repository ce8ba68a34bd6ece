import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { COMPONENTS_ID, createAjv } from '../../schema/load.js';
import { signIn, startTestServer } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { req } from '../helpers/http.js';

const ajv = createAjv();
const createdSchema = ajv.compile<any>({ $ref: `${COMPONENTS_ID}#/$defs/ApiKeyCreatedOut` });
const pageSchema = ajv.compile<any>({ $ref: `${COMPONENTS_ID}#/$defs/ApiKeyPage` });

describe('API keys: GET, POST /api-keys, DELETE /api-keys/{key_id}', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = (await signIn(server)).token;
  });
  after(() => server.close());

  it('POST creates a key with scopes [read, write] by default; the full key begins with its prefix', async () => {
    const r = await req(server.api, 'POST', '/api-keys', { token, body: { name: 'laptop' } });
    assert.equal(r.status, 201);
    assert.ok(createdSchema(r.body), JSON.stringify(createdSchema.errors));
    assert.deepEqual(r.body.scopes, ['read', 'write']);
    assert.equal(r.body.name, 'laptop');
    assert.match(r.body.prefix, /^wuk_[A-Za-z0-9]{8}$/);
    assert.ok(r.body.key.startsWith(r.body.prefix));
    assert.ok(r.body.key.length >= 50, 'high entropy');
    assert.equal(r.body.last_used_at, null);
  });

  it('the full key is shown once: never in the list', async () => {
    const r = await req(server.api, 'POST', '/api-keys', { token, body: { name: 'once' } });
    const list = await req(server.api, 'GET', '/api-keys', { token });
    assert.ok(!list.text.includes(r.body.key));
    const item = list.body.items.find((i: any) => i.id === r.body.id);
    assert.equal(item.key, undefined);
    assert.equal(item.prefix, r.body.prefix);
  });

  it('export is opt-in and needs read', async () => {
    const ok = await req(server.api, 'POST', '/api-keys', {
      token,
      body: { name: 'export', scopes: ['export', 'read'] },
    });
    assert.equal(ok.status, 201);
    assert.deepEqual(ok.body.scopes, ['read', 'export']);
    const bad = await req(server.api, 'POST', '/api-keys', {
      token,
      body: { name: 'bad', scopes: ['export'] },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'validation_error');
    assert.equal(bad.body.field, 'scopes');
  });

  it('refuses unknown scopes, empty or duplicate scope lists, unknown fields and a missing name', async () => {
    for (const body of [
      { name: 'x', scopes: ['admin'] },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['read', 'read'] },
      { name: 'x', colour: 'red' },
      { scopes: ['read'] },
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(101) },
    ]) {
      const r = await req(server.api, 'POST', '/api-keys', { token, body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.code, 'validation_error', JSON.stringify(body));
      assert.ok(r.body.errors.length >= 1);
    }
  });

  it('scopes null gives the default', async () => {
    const r = await req(server.api, 'POST', '/api-keys', {
      token,
      body: { name: 'null', scopes: null },
    });
    assert.deepEqual(r.body.scopes, ['read', 'write']);
  });

  it('GET pages newest first with an opaque cursor, and never repeats or skips', async () => {
    const own = (await signIn(server)).token;
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(
        (await req(server.api, 'POST', '/api-keys', { token: own, body: { name: `k${i}` } })).body
          .id,
      );
      if (i === 2) await req(server.url, 'POST', '/dev/clock', { body: { advance_seconds: 1 } });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await req(
        server.api,
        'GET',
        `/api-keys?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        { token: own },
      );
      assert.equal(r.status, 200);
      assert.ok(pageSchema(r.body), JSON.stringify(pageSchema.errors));
      assert.ok(r.body.items.length <= 2);
      seen.push(...r.body.items.map((i: any) => i.id));
      cursor = r.body.next_cursor;
      if (cursor) assert.match(cursor, /^[A-Za-z0-9_-]+$/);
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.equal(new Set(seen).size, 5);
    // Newest first: the two made after the clock moved come first.
    assert.deepEqual(new Set(seen.slice(0, 2)), new Set(made.slice(3)));
    const all = (await req(server.api, 'GET', '/api-keys', { token: own })).body.items;
    const created = all.map((i: any) => i.created_at);
    assert.deepEqual(created, [...created].sort().reverse());
    assert.equal(all.length, 5, 'default limit 50 holds all');
  });

  it('limit is 1 to 200 and a bad cursor is refused, with validation_error', async () => {
    for (const q of [
      'limit=0',
      'limit=201',
      'limit=abc',
      'cursor=%25%25%25',
      'cursor=bm90LWpzb24',
      'cursor=WyJ4Il0',
    ]) {
      const r = await req(server.api, 'GET', `/api-keys?${q}`, { token });
      assert.equal(r.status, 400, q);
      assert.equal(r.body.code, 'validation_error', q);
      assert.equal(r.body.errors[0].in, 'query', q);
    }
    assert.equal((await req(server.api, 'GET', '/api-keys?limit=200', { token })).status, 200);
    assert.equal(
      (await req(server.api, 'GET', '/api-keys?cursor=', { token })).status,
      200,
      'empty cursor = first page',
    );
  });

  it('DELETE revokes: 204, then the key answers 401 api_key_revoked and leaves the list; again 404', async () => {
    const k = (await req(server.api, 'POST', '/api-keys', { token, body: { name: 'gone' } })).body;
    const del = await req(server.api, 'DELETE', `/api-keys/${k.id}`, { token });
    assert.equal(del.status, 204);
    assert.equal(
      (await req(server.api, 'GET', '/me', { token: k.key })).body.code,
      'api_key_revoked',
    );
    const list = await req(server.api, 'GET', '/api-keys?limit=200', { token });
    assert.ok(!list.body.items.some((i: any) => i.id === k.id));
    const again = await req(server.api, 'DELETE', `/api-keys/${k.id}`, { token });
    assert.equal(again.status, 404);
    assert.equal(again.body.code, 'not_found');
  });

  it('DELETE with an id that is not a UUID answers 404 not_found', async () => {
    const r = await req(server.api, 'DELETE', '/api-keys/not-a-uuid', { token });
    assert.equal(r.status, 404);
    assert.equal(r.body.code, 'not_found');
  });
});
