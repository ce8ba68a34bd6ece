/**
 * ensurePostgresEngineSchema beside a host that is already writing: it must not take the
 * tables' locks when the schema is there (CREATE INDEX IF NOT EXISTS takes a SHARE lock before
 * it finds the index, and a second host starting next to a dispatching one deadlocked with its
 * commits), and when an index is missing, the DDL that loses a deadlock is run again. On the
 * server named by WAKEUP_TEST_PG_URL (`scripts/with-pg.sh`); skipped without it.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import pg from 'pg';
import { ensurePostgresEngineSchema } from '../../engine/postgres/index.js';
import { throwawaySchema } from '../helpers/pg-schema.js';

const url = process.env.WAKEUP_TEST_PG_URL;

/** A fresh schema with the engine's tables, a pool on it, and a client holding a transaction. */
async function database(options = '') {
  const schema = await throwawaySchema(url!, options);
  const pool = new pg.Pool({ connectionString: schema.url, max: 2 });
  await ensurePostgresEngineSchema(pool);
  const writer = new pg.Client({ connectionString: schema.url });
  await writer.connect();
  return {
    pool,
    writer,
    close: async () => {
      await writer.end();
      await pool.end();
      await schema.drop();
    },
  };
}

if (!url) {
  describe('the PostgreSQL engine schema beside a writing host', () => {
    it('runs on PostgreSQL', (t) => {
      t.skip(
        'WAKEUP_TEST_PG_URL is not set: no PostgreSQL server (run `scripts/with-pg.sh npm test`, as .ci/run does)',
      );
    });
  });
} else {
  describe('the PostgreSQL engine schema beside a writing host', () => {
    it('takes no lock on the tables when every table and index is there', async () => {
      // lock_timeout: were the tables' locks taken, the writer's open transaction would make
      // this fail rather than wait.
      const db = await database('-c lock_timeout=1000');
      try {
        await db.writer.query('BEGIN');
        await db.writer.query('LOCK TABLE attempts, occurrences, series IN ROW EXCLUSIVE MODE');
        await ensurePostgresEngineSchema(db.pool);
        await db.writer.query('COMMIT');
      } finally {
        await db.close();
      }
    });

    it('creates a missing index, trying again when PostgreSQL ends it as a deadlock victim', async () => {
      const db = await database();
      try {
        await db.pool.query('DROP INDEX attempts_account');
        // A commit's order: attempts first, then occurrences. The DDL locks occurrences first
        // (its indexes), then waits for attempts; the writer then asks for occurrences.
        await db.writer.query('BEGIN');
        await db.writer.query('LOCK TABLE attempts IN ROW EXCLUSIVE MODE');
        const ensured = ensurePostgresEngineSchema(db.pool);
        const waiting = async () => {
          const { rows } = await db.pool.query(
            `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
              WHERE NOT l.granted AND c.relname = 'attempts' AND c.relnamespace = current_schema()::regnamespace`,
          );
          return rows[0].n > 0;
        };
        while (!(await waiting())) await sleep(20);
        let writerLost = false;
        try {
          await db.writer.query('LOCK TABLE occurrences IN ROW EXCLUSIVE MODE');
        } catch (err) {
          assert.equal((err as { code?: string }).code, '40P01');
          writerLost = true;
        }
        await db.writer.query(writerLost ? 'ROLLBACK' : 'COMMIT');
        await ensured;
        const { rows } = await db.pool.query(
          `SELECT count(*)::int AS n FROM pg_class
            WHERE relname = 'attempts_account' AND relnamespace = current_schema()::regnamespace`,
        );
        assert.equal(rows[0].n, 1);
      } finally {
        await db.close();
      }
    });
  });
}
