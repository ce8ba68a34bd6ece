/**
 * Issue 9, host foundations, through the public surface: the composition root builds an app
 * that writes nothing until it starts; an EngineError escaping a handler answers its own
 * problem; problems carry `errors` only on validation_error; /dev/phones rings 1 to 3600 s.
 */
import type { SqliteDb } from '../../host/db/sql.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineError } from '../../engine/index.js';
import { createApp } from '../../host/app.js';
import { compose } from '../../host/compose.js';
import { loadConfig } from '../../host/config.js';
import type { RouteModule } from '../../host/http/registrar.js';
import { settledDb, signIn, startTestServer, type TestServer } from '../helpers/server.js';
import { req } from '../helpers/http.js';
import { PHONE_TEST_ENV } from '../helpers/phone.js';
import { account, create, withDatabase, START } from './schedules-fixture.js';

describe('compose(config) and createApp(services)', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'wakeup-compose-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('building the app writes nothing; start() runs the engine reconciliation (series without their next call)', async () => {
    const file = join(dir, 'wakeup.sqlite');
    const env = {
      ...PHONE_TEST_ENV,
      WAKEUP_CLOCK_START: START,
      WAKEUP_DB: file,
      WAKEUP_LOG_LEVEL: 'silent',
      WAKEUP_LOG_PRETTY: '0',
    };
    const server = await startTestServer({ env });
    const f = await account(server);
    const daily = await create(f, {
      kind: 'recurring',
      days_of_week: ['mon', 'tue', 'wed', 'thu', 'fri'],
      local_time: '07:00',
    });
    await settledDb(server); // the engine's journal folded into the tables the crash below edits
    await server.close();
    // A crash left the schedule's series without its next occurrence: the engine's start-up
    // reconciliation repairs that.
    withDatabase(file, (db) => {
      db.prepare(
        'UPDATE series SET next_occurrence_id = NULL, version = version + 1 WHERE id = ?',
      ).run(daily.id);
      db.prepare('DELETE FROM occurrences WHERE id = ?').run(daily.next_occurrence.id);
    });

    const composed = await compose(
      loadConfig({
        HOST: '127.0.0.1',
        PORT: '0',
        WAKEUP_DEV: '1',
        WAKEUP_CLOCK: 'virtual',
        ...env,
      }),
    );
    try {
      const db = (composed.deps.db as SqliteDb).raw;
      const changes = () => (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
      const next = () =>
        (
          db.prepare('SELECT next_occurrence_id AS id FROM series WHERE id = ?').get(daily.id) as {
            id: string | null;
          }
        ).id;
      const before = changes();
      const app = createApp(composed.services);
      assert.equal(typeof app.callback(), 'function');
      assert.equal(changes(), before, 'createApp wrote to the database');
      assert.equal(next(), null, 'the reconciliation did not run while building the app');
      assert.equal(
        'db' in composed.services,
        false,
        'route modules get services, not the database handle',
      );

      await composed.start();
      // The reconciliation runs behind start() (docs/decisions/0014); idle() waits for it.
      await composed.deps.runtime.idle();
      assert.notEqual(next(), null, 'start() ran the reconciliation');
      assert.ok(changes() > before);
    } finally {
      await composed.close();
    }
  });
});

describe('errors as problem+json', () => {
  let server: TestServer;
  let token: string;
  // getTime is public; these handlers stand in for domain code whose engine call throws.
  const thrower: RouteModule = {
    register(routes) {
      routes.operation<unknown, { zones?: string }>('getTime', ({ query }) => {
        if (query.zones === 'catalogued')
          throw new EngineError(
            'invalid_retry_policy',
            'offsets must increase.',
            'retry_policy.offsets_minutes.1',
          );
        throw new EngineError('store_conflict', 'an internal engine code');
      });
    },
  };

  before(async () => {
    server = await startTestServer({ env: PHONE_TEST_ENV });
    ({ token } = await signIn(server));
  });
  after(() => server.close());

  it('an EngineError escaping a handler answers its catalogue code, detail and field, not 500', async () => {
    const other = await startTestServer({ modules: [thrower] });
    try {
      const r = await req(other.api, 'GET', '/time?zones=catalogued');
      assert.equal(r.status, 400);
      assert.match(r.headers.get('content-type')!, /application\/problem\+json/);
      assert.equal(r.body.code, 'invalid_retry_policy');
      assert.equal(r.body.detail, 'offsets must increase.');
      assert.equal(r.body.field, 'retry_policy.offsets_minutes.1');
      assert.equal('errors' in r.body, false);

      const internal = await req(other.api, 'GET', '/time?zones=x');
      assert.equal(internal.status, 500, 'an engine code outside the catalogue stays internal');
      assert.equal(internal.body.code, 'internal_error');
      assert.doesNotMatch(internal.text, /internal engine code/);
    } finally {
      await other.close();
    }
  });

  it('a specific code decided by schema validation names its field and a sentence, without errors', async () => {
    const r = await req(server.api, 'PATCH', '/me', {
      token,
      body: { default_retry_policy: { offsets_minutes: [5, 500] } },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'invalid_retry_policy');
    assert.equal(r.body.field, 'default_retry_policy.offsets_minutes.1');
    assert.match(r.body.detail, /^default_retry_policy\.offsets_minutes\.1 .+\.$/);
    assert.equal('errors' in r.body, false, 'errors appears only on validation_error');

    const s = await req(server.api, 'POST', '/schedules', {
      token,
      body: { kind: 'in_minutes', in_minutes: 5000 },
    });
    assert.equal(s.body.code, 'in_minutes_out_of_range');
    assert.equal(s.body.field, 'in_minutes');
    assert.equal('errors' in s.body, false);
  });

  it('validation_error keeps its errors array, one item per problem', async () => {
    const r = await req(server.api, 'PATCH', '/me', {
      token,
      body: { display_name: 5, colour: 'red' },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'validation_error');
    assert.ok(Array.isArray(r.body.errors) && r.body.errors.length >= 2, JSON.stringify(r.body));
  });

  it('a code raised by domain code carries no errors array either', async () => {
    const r = await req(server.api, 'POST', '/me/resume-calls', {
      token,
      body: { consent: false },
    });
    assert.equal(r.body.code, 'confirmation_required');
    assert.equal(r.body.field, 'consent');
    assert.equal('errors' in r.body, false);
  });

  it('PUT /dev/phones/{e164} takes ring_seconds from 1 to 3600', async () => {
    const put = (ring: number) =>
      req(server.url, 'PUT', `/dev/phones/${encodeURIComponent('+12015550999')}`, {
        body: { answers: ['no_answer'], ring_seconds: ring },
      });
    assert.equal((await put(3600)).status, 204);
    assert.equal((await put(1)).status, 204);
    assert.equal((await put(121)).status, 204, 'beyond the old 120 s bound');
    for (const bad of [0, 3601]) {
      const r = await put(bad);
      assert.equal(r.status, 400, String(bad));
      assert.equal(r.body.code, 'validation_error');
      assert.equal(r.body.errors[0].field, 'ring_seconds');
    }
  });
});
