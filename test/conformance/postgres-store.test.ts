/**
 * The PostgreSQL store against the shared Store conformance suite (leases included), on the
 * server named by WAKEUP_TEST_PG_URL (`scripts/with-pg.sh` starts one; `.ci/run` uses it).
 * Each test gets its own schema, dropped afterwards. Without the variable, the suite reports
 * itself skipped and says why.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { createRuntime } from '../../engine/index.js';
import {
  createPostgresStore,
  ensurePostgresEngineSchema,
  type Queryable,
} from '../../engine/postgres/index.js';
import { MemoryTelephony, VirtualClock } from '../../engine/sim/index.js';
import { runStoreConformance } from '../../engine/testing/index.js';
import { throwawaySchema } from '../helpers/pg-schema.js';

const url = process.env.WAKEUP_TEST_PG_URL;

if (!url) {
  describe('Store conformance: PostgresStore', () => {
    it('runs on PostgreSQL', (t) => {
      t.skip(
        'WAKEUP_TEST_PG_URL is not set: no PostgreSQL server (run `scripts/with-pg.sh npm test`, as .ci/run does)',
      );
    });
  });
} else {
  describe('the runtime on the PostgreSQL store', () => {
    it('places a weekly series’ calls, and a restarted runtime on the same database carries on', async () => {
      const schema = await throwawaySchema(url);
      const pool = new pg.Pool({ connectionString: schema.url, max: 4 });
      try {
        await ensurePostgresEngineSchema(pool);
        await ensurePostgresEngineSchema(pool); // idempotent
        const clock = new VirtualClock(Date.parse('2027-03-01T00:00:00Z'));
        let n = 0;
        const ids = { uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` };
        const phones = new MemoryTelephony({ clock });
        const rule = {
          kind: 'weekly' as const,
          timezone: 'America/New_York',
          localTime: '07:00',
          daysOfWeek: ['mon' as const, 'wed' as const],
          startDate: null,
          endDate: '2027-03-20',
          pausedUntil: null,
          skipDates: [],
        };
        const first = createRuntime({
          clock,
          ids,
          store: createPostgresStore(pool),
          telephony: phones,
        });
        await first.start();
        const saved = await first.saveSeries({ accountId: 'a1', to: '+14155550123', rule });
        assert.ok(saved.occurrence);
        assert.equal(
          new Date(saved.occurrence.scheduledAt).toISOString(),
          '2027-03-01T12:00:00.000Z',
        );
        await clock.advance(Date.parse('2027-03-04T00:00:00Z'));
        await first.stop();
        assert.equal(phones.calls.length, 2, 'Monday and Wednesday');
        // A second runtime (another process, in production) picks the series up from the database.
        const second = createRuntime({
          clock,
          ids,
          store: createPostgresStore(pool),
          telephony: phones,
        });
        await second.start();
        await clock.advance(Date.parse('2027-03-21T00:00:00Z'));
        await second.stop();
        assert.deepEqual(
          phones.calls.map((c) => new Date(c.placedAt).toISOString().slice(0, 10)),
          ['2027-03-01', '2027-03-03', '2027-03-08', '2027-03-10', '2027-03-15', '2027-03-17'],
        );
      } finally {
        await pool.end();
        await schema.drop();
      }
    });
  });

  runStoreConformance('PostgresStore', async () => {
    const schema = await throwawaySchema(url);
    const pools: pg.Pool[] = [];
    const open = () => {
      const pool = new pg.Pool({ connectionString: schema.url, max: 4 });
      pools.push(pool);
      return pool;
    };
    const main = open();
    await ensurePostgresEngineSchema(main);
    await main.query('CREATE TABLE conformance_writes (seq serial PRIMARY KEY, tag text NOT NULL)');
    return {
      store: createPostgresStore(main),
      writes: {
        write: (tag) => (client) =>
          (client as Queryable).query({
            text: 'INSERT INTO conformance_writes (tag) VALUES ($1)',
            values: [tag],
          }),
        written: async () =>
          (
            await main.query<{ tag: string }>('SELECT tag FROM conformance_writes ORDER BY seq')
          ).rows.map((r) => r.tag),
      },
      another: () => createPostgresStore(open()),
      close: async () => {
        await Promise.all(pools.map((p) => p.end()));
        await schema.drop();
      },
    };
  });
}
