/**
 * The two dialects' schemas agree: every table of the migrated SQLite database exists on the
 * migrated PostgreSQL database with the same columns, and PostgreSQL has no other table. The
 * only columns PostgreSQL adds are its real `rowid` (SQLite's is implicit) and the engine
 * store's lease columns. A new SQLite migration without its PostgreSQL twin
 * (host/db/migrations-pg/, see host/db/migrate.ts) fails here. Needs WAKEUP_TEST_PG_URL.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { migrate, migrateSqlite } from '../../host/db/migrate.js';
import { openPostgresDb } from '../../host/db/sql.js';

const PG_URL = process.env['WAKEUP_TEST_PG_URL'];
const PG_ONLY = new Set(['rowid', 'lease_owner', 'lease_until']);

function sqliteTables(): Map<string, Set<string>> {
  const db = new Sqlite(':memory:');
  try {
    migrateSqlite(db);
    const names = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .pluck()
      .all() as string[];
    return new Map(
      names.map((t) => [
        t,
        new Set(
          (db.prepare(`PRAGMA table_info("${t}")`).all() as Array<{ name: string }>).map(
            (c) => c.name,
          ),
        ),
      ]),
    );
  } finally {
    db.close();
  }
}

describe(
  'PostgreSQL schema against the SQLite migrations',
  { skip: PG_URL ? false : 'WAKEUP_TEST_PG_URL is not set: no PostgreSQL server' },
  () => {
    it('has the same tables and columns', async () => {
      const schema = `schema_test_${randomUUID().replaceAll('-', '')}`;
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      const db = openPostgresDb({
        connectionString: PG_URL,
        options: `-c search_path=${schema}`,
        max: 2,
      });
      try {
        const applied = await migrate(db);
        assert.ok(applied.length > 0, 'the PostgreSQL migrations ran');
        assert.deepEqual(await migrate(db), [], 'and run once');
        const rows = await db.all<{ table_name: string; column_name: string }>(
          'SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = ? ORDER BY table_name, ordinal_position',
          [schema],
        );
        const theirs = new Map<string, Set<string>>();
        for (const r of rows) {
          if (PG_ONLY.has(r.column_name)) continue;
          if (!theirs.has(r.table_name)) theirs.set(r.table_name, new Set());
          theirs.get(r.table_name)!.add(r.column_name);
        }
        const mine = sqliteTables();
        assert.deepEqual([...theirs.keys()].sort(), [...mine.keys()].sort(), 'tables');
        for (const [table, columns] of mine) {
          assert.deepEqual(
            [...theirs.get(table)!].sort(),
            [...columns].sort(),
            `columns of ${table}`,
          );
        }
      } finally {
        await db.close();
        await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await admin.end();
      }
    });
  },
);
