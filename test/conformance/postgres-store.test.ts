/**
 * The PostgreSQL store against the shared Store conformance suite (leases included), on the
 * server named by WAKEUP_TEST_PG_URL (`scripts/with-pg.sh` starts one; `.ci/run` uses it).
 * Each test gets its own schema, dropped afterwards. Without the variable, the suite reports
 * itself skipped and says why.
 */
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import pg from 'pg';
import { createPostgresStore, ensurePostgresEngineSchema } from '../../engine/postgres/index.js';
import { runStoreConformance } from '../../engine/testing/index.js';

const url = process.env.WAKEUP_TEST_PG_URL;

if (!url) {
  describe('Store conformance: PostgresStore', () => {
    it('runs on PostgreSQL', (t) => {
      t.skip('WAKEUP_TEST_PG_URL is not set: no PostgreSQL server (run `scripts/with-pg.sh npm test`, as .ci/run does)');
    });
  });
} else {
  runStoreConformance('PostgresStore', async () => {
    const schema = `conf_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const pools: pg.Pool[] = [];
    const open = () => {
      const pool = new pg.Pool({ connectionString: url, options: `-c search_path=${schema}`, max: 4 });
      pools.push(pool);
      return pool;
    };
    const main = open();
    await ensurePostgresEngineSchema(main);
    return {
      store: createPostgresStore(main),
      another: () => createPostgresStore(open()),
      close: async () => {
        await Promise.all(pools.map((p) => p.end()));
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.end();
      },
    };
  });
}
