import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as auth from '../../host/http/routes/auth.js';
import type { RouteModule } from '../../host/http/registrar.js';
import { problem } from '../../host/errors.js';
import { queryDatabase, signIn, startTestServer } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { req } from '../helpers/http.js';

/**
 * A stand-in handler on an Idem operation of the schema (POST /me/onboarding, x-idempotent),
 * counting its runs. `gate` holds runs until released, to make requests overlap; a body with
 * `done: false` fails with a 4xx; the reply carries a secret field to check it is never kept.
 */
let runs = 0;
let gate: Promise<void> | null = null;
/** Called when a run starts (tests wait on it instead of sleeping). */
let onRun: (() => void) | null = null;
const probe: RouteModule = {
  register(routes) {
    routes.operation<{ step: string; done?: boolean }>('setOnboardingStep', async ({ body }) => {
      runs++;
      const n = runs;
      onRun?.();
      if (gate) await gate;
      if (body.done === false)
        throw problem('confirmation_required', { detail: 'probe refuses done=false' });
      return {
        status: 200,
        body: { run: n, step: body.step, secret: `secret-${n}-do-not-keep` },
        secretFields: ['secret'],
      };
    });
  },
};

describe('Idempotency-Key', () => {
  let server: TestServer;
  let token: string;
  const post = (key: string | undefined, body: unknown, t = token) =>
    req(server.api, 'POST', '/me/onboarding', {
      token: t,
      body,
      headers: key === undefined ? {} : { 'idempotency-key': key },
    });

  before(async () => {
    server = await startTestServer({ modules: [auth, probe] });
    token = (await signIn(server)).token;
  });
  after(() => server.close());

  it('runs every time without a key', async () => {
    const a = await post(undefined, { step: 'contact_saved' });
    const b = await post(undefined, { step: 'contact_saved' });
    assert.notEqual(a.body.run, b.body.run);
  });

  it('replays the first 2xx for the same key and request, without running again', async () => {
    const first = await post('k-replay', { step: 'contact_saved', done: true });
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const before = runs;
    // Same request: key order and whitespace do not matter.
    const again = await req(server.api, 'POST', '/me/onboarding', {
      token,
      body: '{ "done": true,\n "step": "contact_saved" }',
      headers: { 'idempotency-key': 'k-replay' },
    });
    assert.equal(runs, before);
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.run, first.body.run);
    assert.ok(again.headers.get('ratelimit-limit'), 'a replay still carries rate headers');
  });

  it('never keeps a secret field for the replay, in the response or the database', async () => {
    const first = await post('k-secret', { step: 'dnd_acknowledged' });
    assert.match(first.body.secret, /^secret-\d+-do-not-keep$/);
    const replay = await post('k-secret', { step: 'dnd_acknowledged' });
    assert.equal(replay.body.secret, undefined);
    assert.equal(replay.body.run, first.body.run);
    const rows = await queryDatabase<{ body: string }>(
      server.dbFile,
      'SELECT body FROM idempotency_keys',
    );
    assert.ok(rows.length > 0);
    assert.ok(rows.every((r) => !r.body.includes('do-not-keep')));
  });

  it('gives 409 idempotency_key_reused for the same key with another request', async () => {
    await post('k-reuse', { step: 'contact_saved' });
    const r = await post('k-reuse', { step: 'dnd_acknowledged' });
    assert.equal(r.status, 409);
    assert.equal(r.body.code, 'idempotency_key_reused');
  });

  it('does not keep an error: a retry with the same key runs again', async () => {
    const before = runs;
    const a = await post('k-error', { step: 'contact_saved', done: false });
    assert.equal(a.status, 400);
    const b = await post('k-error', { step: 'contact_saved', done: false });
    assert.equal(b.status, 400);
    assert.equal(runs, before + 2);
  });

  it('keys are per account', async () => {
    const other = (await signIn(server)).token;
    const a = await post('k-shared', { step: 'contact_saved' });
    const b = await post('k-shared', { step: 'dnd_acknowledged' }, other);
    assert.equal(b.status, 200);
    assert.notEqual(a.body.run, b.body.run);
  });

  it('keeps a response 24 hours', async () => {
    const first = await post('k-ttl', { step: 'contact_saved' });
    await req(server.url, 'POST', '/dev/clock', { body: { advance_seconds: 24 * 3600 - 1 } });
    assert.equal((await post('k-ttl', { step: 'contact_saved' })).body.run, first.body.run);
    await req(server.url, 'POST', '/dev/clock', { body: { advance_seconds: 1 } });
    const later = await post('k-ttl', { step: 'dnd_acknowledged' });
    assert.equal(later.status, 200, 'expired: the key is free again');
    assert.notEqual(later.body.run, first.body.run);
  });

  it('a concurrent duplicate waits for the first and replays it: one run', async () => {
    let release!: () => void;
    gate = new Promise<void>((r) => (release = r));
    const before = runs;
    const running = new Promise<void>((r) => (onRun = r));
    const pending = [1, 2, 3, 4].map(() => post('k-concurrent', { step: 'contact_saved' }));
    // Once one run holds the key, give the others a moment to arrive and wait; any that arrive
    // later find the kept response instead. Either way the handler must run once.
    await running;
    onRun = null;
    await new Promise((r) => setTimeout(r, 50));
    release();
    gate = null;
    const results = await Promise.all(pending);
    assert.equal(runs, before + 1);
    assert.deepEqual(
      results.map((r) => r.status),
      [200, 200, 200, 200],
    );
    assert.equal(new Set(results.map((r) => r.body.run)).size, 1);
    assert.equal(results.filter((r) => r.headers.get('idempotent-replayed') === 'true').length, 3);
  });

  it('a concurrent request with the same key and another body gets 409 while the first runs', async () => {
    let release!: () => void;
    gate = new Promise<void>((r) => (release = r));
    const running = new Promise<void>((r) => (onRun = r));
    const first = post('k-concurrent-2', { step: 'contact_saved' });
    await running; // the first holds the key now
    onRun = null;
    const second = await post('k-concurrent-2', { step: 'dnd_acknowledged' });
    release();
    gate = null;
    assert.equal(second.status, 409);
    assert.equal((await first).status, 200);
  });

  it('refuses a key of 0 or more than 200 characters with 400 validation_error on the header', async () => {
    for (const key of ['', 'x'.repeat(201)]) {
      const r = await post(key, { step: 'contact_saved' });
      assert.equal(r.status, 400, `length ${key.length}`);
      assert.equal(r.body.code, 'validation_error');
      assert.equal(r.body.errors[0].field, 'Idempotency-Key');
      assert.equal(r.body.errors[0].in, 'header');
    }
    assert.equal((await post('x'.repeat(200), { step: 'contact_saved' })).status, 200);
  });

  it('stores records in the database, keyed by account and key', async () => {
    await post('k-stored', { step: 'contact_saved' });
    const [row] = await queryDatabase<{ scope: string; key: string; fingerprint: string }>(
      server.dbFile,
      "SELECT scope, key, fingerprint FROM idempotency_keys WHERE key = 'k-stored'",
    );
    assert.ok(row);
    assert.match(row.scope, /^account:[0-9a-f-]{36}$/);
    assert.match(row.fingerprint, /^[0-9a-f]{64}$/);
  });
});
