import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getErrorCatalogue, loadOpenApi } from '../../schema/load.js';
import { startTestServer, PRODUCTION_ENV } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { req } from '../helpers/http.js';

describe('site pages', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('GET /healthz and /readyz answer 200', async () => {
    assert.deepEqual((await req(server.url, 'GET', '/healthz')).body, { status: 'ok' });
    const ready = await req(server.url, 'GET', '/readyz');
    assert.equal(ready.status, 200);
    assert.equal(ready.body.status, 'ready');
  });

  it('GET /api/v1/openapi.json serves the schema, with an ETag that answers 304', async () => {
    const r = await req(server.api, 'GET', '/openapi.json');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, loadOpenApi());
    const etag = r.headers.get('etag')!;
    assert.ok(etag);
    const again = await req(server.api, 'GET', '/openapi.json', {
      headers: { 'if-none-match': etag },
    });
    assert.equal(again.status, 304);
  });

  it('GET /docs is a reference page served locally (no CDN) reading /docs/openapi.json', async () => {
    const page = await req(server.url, 'GET', '/docs');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type')!, /text\/html/);
    const srcs = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(srcs.length >= 3);
    for (const src of srcs) {
      assert.ok(src.startsWith('/docs/'), `${src} is local`);
      const asset = await fetch(server.url + src);
      assert.equal(asset.status, 200, src);
    }
    const init = await req(server.url, 'GET', '/docs/init.js');
    assert.match(init.text, /url: '\/docs\/openapi.json'/);
  });

  it('GET /docs/openapi.json (what Swagger UI shows) has no jsonSchemaDialect and marks the operations not served yet', async () => {
    const r = await req(server.url, 'GET', '/docs/openapi.json');
    assert.equal(r.status, 200);
    // Swagger UI warns about any jsonSchemaDialect other than the OpenAPI base dialect.
    assert.equal('jsonSchemaDialect' in r.body, false);
    assert.ok('jsonSchemaDialect' in loadOpenApi(), 'the API document itself keeps it');
    const source = loadOpenApi() as any;
    let marked = 0;
    for (const [path, item] of Object.entries<any>(r.body.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        if (typeof op !== 'object' || !op.operationId) continue;
        const original = source.paths[path][method];
        if (original['x-implemented'] === false) {
          marked++;
          assert.equal(op.summary, `[Not served yet] ${original.summary}`, op.operationId);
          assert.match(op.description, /^\*\*Not served yet\*\*/, op.operationId);
        } else {
          assert.equal(op.summary, original.summary, op.operationId);
        }
      }
    }
    // Every operation of this version is served (marked is 0); the loop above checks both cases.
    assert.equal(marked, 0, 'x-implemented: false marks left in the schema');
    // A served operation is really served; a marked one really answers 404.
    const served = await req(server.api, 'GET', '/time');
    assert.equal(served.status, 200);
  });

  it('GET /docs/errors lists every code with its status, meaning and an anchor', async () => {
    const page = await req(server.url, 'GET', '/docs/errors');
    assert.equal(page.status, 200);
    for (const e of getErrorCatalogue()) {
      const row = new RegExp(`<tr id="${e.code}">.*?<td>${e.status}</td>`);
      assert.match(page.text, row, e.code);
    }
  });

  it('GET / links to the docs', async () => {
    const r = await req(server.url, 'GET', '/');
    assert.match(r.text, /href="\/docs"/);
  });
});

describe('dev endpoints', () => {
  it('answer 404 without dev mode', async () => {
    const server = await startTestServer({ env: PRODUCTION_ENV });
    try {
      for (const [method, path] of [
        ['GET', '/dev/outbox'],
        ['GET', '/dev/clock'],
        ['POST', '/dev/clock'],
        ['GET', '/dev/anything'],
      ] as const) {
        const r = await req(
          server.url,
          method,
          path,
          method === 'POST' ? { body: { advance_seconds: 1 } } : {},
        );
        assert.equal(r.status, 404, `${method} ${path}`);
        assert.equal(r.body.code, 'not_found');
      }
    } finally {
      await server.close();
    }
  });

  it('GET /dev/clock shows system mode, and POST /dev/clock then answers a clear 400', async () => {
    const server = await startTestServer({ env: { WAKEUP_CLOCK: 'system' } });
    try {
      const state = await req(server.url, 'GET', '/dev/clock');
      assert.equal(state.body.mode, 'system');
      assert.match(state.body.now, /Z$/);
      const r = await req(server.url, 'POST', '/dev/clock', { body: { advance_seconds: 60 } });
      assert.equal(r.status, 400);
      assert.equal(r.body.code, 'validation_error');
      assert.match(r.body.detail, /WAKEUP_CLOCK=virtual/);
    } finally {
      await server.close();
    }
  });

  describe('virtual clock', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ env: { WAKEUP_CLOCK_START: '2027-03-14T06:00:00Z' } });
    });
    after(() => server.close());

    it('starts where configured and moves by advance_seconds or to', async () => {
      assert.deepEqual((await req(server.url, 'GET', '/dev/clock')).body, {
        now: '2027-03-14T06:00:00Z',
        mode: 'virtual',
      });
      assert.deepEqual(
        (await req(server.url, 'POST', '/dev/clock', { body: { advance_seconds: 90 } })).body,
        {
          now: '2027-03-14T06:01:30Z',
        },
      );
      assert.deepEqual(
        (await req(server.url, 'POST', '/dev/clock', { body: { to: '2027-03-15T08:00:00+01:00' } }))
          .body,
        {
          now: '2027-03-15T07:00:00Z',
        },
      );
    });

    it('runs every timer due up to the new now, in due order, before answering', async () => {
      const clock = server.running.deps.clock;
      const fired: string[] = [];
      const t0 = clock.now();
      clock.setTimer(t0 + 120_000, () => void fired.push('second'));
      clock.setTimer(t0 + 60_000, async () => {
        await new Promise((r) => setTimeout(r, 5));
        fired.push('first');
      });
      clock.setTimer(t0 + 3_600_000, () => void fired.push('later'));
      const r = await req(server.url, 'POST', '/dev/clock', { body: { advance_seconds: 120 } });
      assert.equal(r.status, 200);
      assert.deepEqual(fired, ['first', 'second']);
    });

    it('never moves back, and wants exactly one of advance_seconds or to', async () => {
      for (const body of [
        { to: '2000-01-01T00:00:00Z' },
        {},
        { advance_seconds: 1, to: '2030-01-01T00:00:00Z' },
        { advance_seconds: -5 },
      ]) {
        const r = await req(server.url, 'POST', '/dev/clock', { body });
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.equal(r.body.code, 'validation_error');
      }
    });

    it('GET /dev/outbox filters by recipient and channel, newest first', async () => {
      for (const email of ['one@example.com', 'two@example.com', 'one@example.com']) {
        await req(server.api, 'POST', '/auth/email/start', { body: { email } });
      }
      const all = (await req(server.url, 'GET', '/dev/outbox')).body.items;
      assert.ok(all.length >= 3);
      const one = (await req(server.url, 'GET', '/dev/outbox?to=ONE@example.com&channel=email'))
        .body.items;
      assert.equal(one.length, 2);
      assert.ok(
        one.every(
          (m: any) => m.to === 'one@example.com' && m.channel === 'email' && /^\d{6}$/.test(m.code),
        ),
      );
      assert.equal(all[0].to, 'one@example.com', 'newest first');
      assert.equal((await req(server.url, 'GET', '/dev/outbox?channel=sms')).body.items.length, 0);
      assert.equal((await req(server.url, 'GET', '/dev/outbox?channel=fax')).status, 400);
    });
  });
});
