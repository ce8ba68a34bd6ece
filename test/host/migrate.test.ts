/**
 * The migration runner: every migration not yet recorded runs once, in version order, even one
 * whose number is below a version already applied (parallel work reserves numbers ahead); a
 * database made before the record table keeps what its user_version says it has; a failing
 * migration leaves nothing behind.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Sqlite from 'better-sqlite3';
import { loadMigrations, migrateSqlite as migrate } from '../../host/db/migrate.js';

const dir = mkdtempSync(join(tmpdir(), 'wakeup-migrate-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A folder of migrations, each creating a table named after it. */
function folder(name: string, versions: number[], extra: Record<string, string> = {}): string {
  const d = join(dir, name) + '/';
  mkdirSync(d);
  for (const v of versions)
    writeFileSync(
      join(d, `${String(v).padStart(4, '0')}_t${v}.sql`),
      `CREATE TABLE t${v} (x INTEGER);`,
    );
  for (const [file, sql] of Object.entries(extra)) writeFileSync(join(d, file), sql);
  return d;
}
const tables = (db: Sqlite.Database) =>
  (
    db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 't%' ORDER BY name",
      )
      .pluck()
      .all() as string[]
  ).sort();

describe('migrate', () => {
  it('runs a migration numbered below one already applied once it lands, and only once', () => {
    const db = new Sqlite(':memory:');
    assert.deepEqual(migrate(db, loadMigrations(folder('a', [1, 2, 4]))), [1, 2, 4]);
    assert.deepEqual(migrate(db, loadMigrations(folder('b', [1, 2, 3, 4]))), [3]);
    assert.deepEqual(migrate(db, loadMigrations(folder('c', [1, 2, 3, 4]))), []);
    assert.deepEqual(tables(db), ['t1', 't2', 't3', 't4']);
    assert.equal(db.pragma('user_version', { simple: true }), 4);
  });

  it('a database made before the record table keeps what its user_version says', () => {
    const db = new Sqlite(':memory:');
    db.exec('CREATE TABLE t1 (x INTEGER); CREATE TABLE t2 (x INTEGER);');
    db.pragma('user_version = 2');
    assert.deepEqual(migrate(db, loadMigrations(folder('d', [1, 2, 3]))), [3]);
    assert.deepEqual(tables(db), ['t1', 't2', 't3']);
  });

  it('a failing migration leaves no table and no record; the next run tries it again', () => {
    const db = new Sqlite(':memory:');
    const bad = folder('e', [1], {
      '0002_bad.sql': 'CREATE TABLE t2 (x INTEGER); INSERT INTO nowhere VALUES (1);',
    });
    assert.throws(() => migrate(db, loadMigrations(bad)), /nowhere/);
    assert.deepEqual(tables(db), ['t1']);
    assert.deepEqual(db.prepare('SELECT version FROM schema_migrations').pluck().all(), [1]);
    assert.deepEqual(migrate(db, loadMigrations(folder('f', [1, 2]))), [2]);
  });
});
