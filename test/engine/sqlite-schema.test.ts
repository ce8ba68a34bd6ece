/**
 * The SQLite store's own schema (engine/sqlite/schema.ts, for embedders) and the service's
 * migrations describe the same engine tables twice; this test keeps the two from drifting:
 * every column the store's schema declares exists in the migrated service database with the
 * same type, NOT NULL and primary-key position.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Sqlite from 'better-sqlite3';
import { ensureEngineSchema } from '../../engine/sqlite/schema.js';
import { migrateSqlite as migrate } from '../../host/db/migrate.js';

type Column = { name: string; type: string; notnull: number; pk: number };
const columns = (db: Sqlite.Database, table: string) =>
  new Map((db.prepare(`PRAGMA table_info(${table})`).all() as Column[]).map((c) => [c.name, `${c.type} notnull=${c.notnull} pk=${c.pk}`]));

describe('engine/sqlite schema against the service migrations', () => {
  for (const table of ['occurrences', 'attempts', 'series']) {
    it(`${table}: the store's columns exist in the service database, alike`, () => {
      const embedded = new Sqlite(':memory:');
      ensureEngineSchema(embedded);
      const service = new Sqlite(':memory:');
      service.pragma('foreign_keys = ON');
      migrate(service);
      const mine = columns(embedded, table);
      const theirs = columns(service, table);
      assert.ok(mine.size > 5, `${table} has columns in the store's schema`);
      for (const [name, shape] of mine) assert.equal(theirs.get(name), shape, `${table}.${name}`);
    });
  }
});
