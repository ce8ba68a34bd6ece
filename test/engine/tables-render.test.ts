/**
 * The engine's tables rendered from their definitions (engine/tables) make the same schema
 * as the DDL written by hand before (test/engine/fixtures/engine-schema-46f3547.ts), in both
 * dialects: same tables, columns (order, types, NOT NULL, defaults, collations), primary and
 * foreign keys, CHECK constraints, indexes and their predicates. Existing databases are not
 * migrated, so nothing else would do. On SQLite as the database reports it (PRAGMA
 * table_xinfo, index_list, index_xinfo, the CHECK clauses and CREATE INDEX statements), on
 * PostgreSQL through information_schema.columns, pg_indexes and pg_constraint (needs
 * WAKEUP_TEST_PG_URL; skipped without it). Since then the definitions changed as the
 * migrations that bring a database along say (0019: a series' attributes, the read model's
 * indexes, and on PostgreSQL the insertion order `rowid` the host's 0015 had added to
 * occurrences and attempts): the DDL written before, with those changes, is the rendered one.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import {
  ensurePostgresEngineSchema,
  POSTGRES_ENGINE_SCHEMA_SQL,
} from '../../engine/postgres/index.js';
import { ENGINE_SCHEMA_SQL, ensureEngineSchema } from '../../engine/sqlite/index.js';
import { JOURNAL_SQL } from '../../engine/sqlite/journal.js';
import { postgresSchema, sqliteSchema } from '../helpers/schema.js';
import {
  POSTGRES_SCHEMA_BEFORE,
  SQLITE_JOURNAL_BEFORE,
  SQLITE_SCHEMA_BEFORE,
} from './fixtures/engine-schema-46f3547.js';

const TABLES = ['attempts', 'engine_journal', 'occurrences', 'series'];

/** What changed in the definitions since the DDL of 46f3547, as the migrations change a database. */
const SQLITE_SINCE = `
ALTER TABLE series ADD COLUMN attributes TEXT;
CREATE INDEX series_account ON series (account_id, created_at);
CREATE INDEX series_phone ON series (phone_number_id) WHERE status = 'active';`;
const POSTGRES_SINCE = `
ALTER TABLE occurrences ADD COLUMN rowid bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE attempts ADD COLUMN rowid bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE series ADD COLUMN attributes text;
ALTER TABLE series ADD COLUMN rowid bigint GENERATED ALWAYS AS IDENTITY;
CREATE INDEX series_account ON series (account_id, created_at);
CREATE INDEX series_phone ON series (phone_number_id) WHERE status = 'active';`;
const PG_URL = process.env['WAKEUP_TEST_PG_URL'];

describe('the engine tables rendered from their definitions', () => {
  it('SQLite: the same schema as the DDL written before', () => {
    const before = new Sqlite(':memory:');
    before.exec(SQLITE_SCHEMA_BEFORE + SQLITE_JOURNAL_BEFORE + SQLITE_SINCE);
    const now = new Sqlite(':memory:');
    now.exec(ENGINE_SCHEMA_SQL + JOURNAL_SQL);
    const expected = sqliteSchema(before);
    assert.deepEqual(Object.keys(expected), TABLES);
    assert.deepEqual(sqliteSchema(now), expected);
    // A database made by the old DDL is left as it is by the new (every statement IF NOT EXISTS).
    const sql = () =>
      before.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all();
    const was = sql();
    ensureEngineSchema(before);
    before.exec(JOURNAL_SQL);
    assert.deepEqual(sql(), was);
  });

  it(
    'PostgreSQL: the same schema as the DDL written before',
    { skip: PG_URL ? false : 'WAKEUP_TEST_PG_URL is not set: no PostgreSQL server' },
    async () => {
      const id = randomBytes(6).toString('hex');
      const [before, now] = [`render_before_${id}`, `render_now_${id}`];
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      const pool = new pg.Pool({
        connectionString: PG_URL,
        options: `-c search_path=${now}`,
        max: 1,
      });
      try {
        await client.query(`CREATE SCHEMA ${before}; CREATE SCHEMA ${now}`);
        await client.query(
          `SET search_path TO ${before}; ${POSTGRES_SCHEMA_BEFORE}; ${POSTGRES_SINCE}`,
        );
        await ensurePostgresEngineSchema(pool);
        const expected = await postgresSchema(client, before);
        assert.deepEqual(
          [
            ...new Set((expected.columns as { table_name: string }[]).map((c) => c.table_name)),
          ].sort(),
          ['attempts', 'occurrences', 'series'],
        );
        assert.deepEqual(await postgresSchema(client, now), expected);
        // Applying the render again to the old schema changes nothing.
        await client.query(`SET search_path TO ${before}; ${POSTGRES_ENGINE_SCHEMA_SQL}`);
        assert.deepEqual(await postgresSchema(client, before), expected);
      } finally {
        await pool.end();
        await client.query(
          `DROP SCHEMA IF EXISTS ${before} CASCADE; DROP SCHEMA IF EXISTS ${now} CASCADE`,
        );
        await client.end();
      }
    },
  );
});
