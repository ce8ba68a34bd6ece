/**
 * The service's SQLite database and the engine's tables (host/db/migrate.ts, ENGINE_HISTORY):
 * a new database gets them from the engine's definitions and ends with exactly the schema the
 * migrations alone made before (every migration run in order, as the runner did); a database
 * made before them still upgrades through the migrations that made them, and ends the same;
 * the service's engine tables are an embedder's, plus the host's own index; the database of
 * commit 7b5c6cd (test/host/fixtures) is left as it is.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Sqlite from 'better-sqlite3';
import { ensureEngineSchema } from '../../engine/sqlite/index.js';
import { ENGINE_HISTORY, loadMigrations, migrateSqlite } from '../../host/db/migrate.js';
import { sqliteSchema } from '../helpers/schema.js';

const ENGINE = ['attempts', 'occurrences', 'series'];
const FIXTURE = new URL('./fixtures/db-7b5c6cd.sqlite', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'wakeup-engine-tables-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Every migration's SQL run in order, recorded as the runner records it: the runner before the engine made its tables. */
function migratedTheOldWay(): Sqlite.Database {
  const db = new Sqlite(':memory:');
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)',
  );
  for (const m of loadMigrations()) {
    db.exec(m.sql);
    db.prepare('INSERT INTO schema_migrations (version, name) VALUES (?, ?)').run(
      m.version,
      m.name,
    );
    db.pragma(`user_version = ${m.version}`);
  }
  return db;
}

function fresh(): Sqlite.Database {
  const db = new Sqlite(':memory:');
  db.pragma('foreign_keys = ON');
  migrateSqlite(db);
  return db;
}

/** What a database holds besides its schema's shape: the statements of the host's own objects, the records. */
function records(db: Sqlite.Database) {
  return {
    migrations: db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all(),
    userVersion: db.pragma('user_version', { simple: true }),
    hostObjects: db
      .prepare(
        `SELECT type, name, sql FROM sqlite_master WHERE tbl_name NOT IN (${ENGINE.map((t) => `'${t}'`).join(', ')}) OR name = 'attempts_provider_call' ORDER BY name`,
      )
      .all(),
  };
}

describe('the engine tables of the service database', () => {
  it('the migrations name the engine history that exists', () => {
    const names = new Set(loadMigrations().map((m) => m.name));
    for (const name of ENGINE_HISTORY) assert.ok(names.has(name), name);
  });

  it('a new database gets them from the definitions and ends with the schema the migrations made before', () => {
    const before = migratedTheOldWay();
    const db = new Sqlite(':memory:');
    db.pragma('foreign_keys = ON');
    const applied = migrateSqlite(db);
    assert.deepEqual(
      applied,
      loadMigrations().map((m) => m.version),
      'every migration recorded, the history ones too',
    );
    assert.deepEqual(migrateSqlite(db), [], 'and once');
    assert.deepEqual(sqliteSchema(db), sqliteSchema(before));
    assert.deepEqual(records(db), records(before));
    // The engine made them: 0010 rebuilt attempts under another name and renamed it ("attempts").
    const sql = (d: Sqlite.Database) =>
      d.prepare("SELECT sql FROM sqlite_master WHERE name = 'attempts'").pluck().get() as string;
    assert.match(sql(before), /^CREATE TABLE "attempts" \(/);
    assert.match(sql(db), /^CREATE TABLE attempts \(/);
  });

  it("are an embedder's tables, plus the host's indexes (provider call ids, the operator's view)", () => {
    const embedded = new Sqlite(':memory:');
    ensureEngineSchema(embedded);
    const service = sqliteSchema(fresh(), ENGINE) as Record<
      string,
      { indexes: { name: string }[] }
    >;
    const hosts = (ix: { name: string }) =>
      ix.name === 'attempts_provider_call' || ix.name.startsWith('ops_');
    assert.ok(service['attempts']!.indexes.some((ix) => ix.name === 'attempts_provider_call'));
    assert.ok(
      service['occurrences']!.indexes.some((ix) => ix.name === 'ops_occurrences_in_flight'),
    );
    for (const table of Object.values(service))
      table.indexes = table.indexes.filter((ix) => !hosts(ix));
    assert.deepEqual(service, sqliteSchema(embedded));
  });

  it('a database made before them upgrades through the migrations that made them and ends the same', () => {
    const db = new Sqlite(':memory:');
    db.pragma('foreign_keys = ON');
    const all = loadMigrations();
    migrateSqlite(
      db,
      all.filter((m) => m.version <= 5),
    );
    db.prepare(
      `INSERT INTO attempts (id, kind, n, status, to_e164, due_at, created_at, idempotency_key, ring_timeout_seconds, updated_at)
       VALUES ('c1', 'test', 1, 'canceled', '+12015550123', 1, 1, 'c1', 45, 1)`,
    ).run();
    assert.deepEqual(
      migrateSqlite(db, all),
      all.filter((m) => m.version > 5).map((m) => m.version),
    );
    assert.equal(
      db.prepare("SELECT status FROM attempts WHERE id = 'c1'").pluck().get(),
      'cancelled',
    );
    const expected = fresh();
    assert.deepEqual(sqliteSchema(db), sqliteSchema(expected));
    assert.deepEqual(records(db).migrations, records(expected).migrations);
  });

  it('the database of commit 7b5c6cd gets only the migrations written after it, and the schema of a new one', () => {
    const file = join(dir, 'db-7b5c6cd.sqlite');
    copyFileSync(FIXTURE, file);
    const db = new Sqlite(file);
    const all = loadMigrations();
    const had = db.prepare('SELECT max(version) FROM schema_migrations').pluck().get() as number;
    assert.deepEqual(
      migrateSqlite(db),
      all.filter((m) => m.version > had).map((m) => m.version),
    );
    assert.deepEqual(sqliteSchema(db), sqliteSchema(fresh()));
    db.close();
  });
});
