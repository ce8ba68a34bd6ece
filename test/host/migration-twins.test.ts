/**
 * Every SQLite migration has its PostgreSQL twin (docs/development/schema-change.md). The
 * PostgreSQL tree (host/db/migrations-pg/) starts with one consolidated migration,
 * `0015_initial.sql`: the SQLite schema after 0001–0015. So a SQLite migration numbered 0015 or
 * below has no twin of its own, and each later one, `NNNN_name.sql`, has a twin of the same
 * file name; a PostgreSQL migration after 0015 has its SQLite twin likewise. A missing twin
 * fails here, with its path; test/host/pg-schema.test.ts then compares what the two trees make
 * (it needs a PostgreSQL server, this test does not).
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadMigrations, type Migration } from '../../host/db/migrate.js';

/** The PostgreSQL tree's first migration, which stands for every SQLite migration up to it. */
const PG_BASE = { version: 15, name: '0015_initial.sql' };
const SQLITE_DIR = 'host/db/migrations/';
const PG_DIR = 'host/db/migrations-pg/';

/** One line per migration whose twin is missing, naming the file to add. */
function missingTwins(sqlite: readonly Migration[], pg: readonly Migration[]): string[] {
  const out: string[] = [];
  if (pg[0]?.name !== PG_BASE.name)
    out.push(`${PG_DIR}${PG_BASE.name} must be the PostgreSQL tree's first migration`);
  const pgNames = new Set(pg.map((m) => m.name));
  const sqliteNames = new Set(sqlite.map((m) => m.name));
  for (const m of sqlite)
    if (m.version > PG_BASE.version && !pgNames.has(m.name))
      out.push(`${SQLITE_DIR}${m.name} has no PostgreSQL twin: add ${PG_DIR}${m.name}`);
  for (const m of pg)
    if (m.version > PG_BASE.version && !sqliteNames.has(m.name))
      out.push(`${PG_DIR}${m.name} has no SQLite twin: add ${SQLITE_DIR}${m.name}`);
  return out;
}

const scratch = mkdtempSync(join(tmpdir(), 'wakeup-twins-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A copy of one of the service's migration trees, without the files named in `leave`. */
function copyTree(tree: string, leave: readonly string[] = []): string {
  const from = fileURLToPath(new URL(`../../${tree}`, import.meta.url));
  const to = join(scratch, tree.replaceAll('/', '_'));
  mkdirSync(to);
  for (const name of readdirSync(from))
    if (!leave.includes(name)) copyFileSync(join(from, name), join(to, name));
  return to + '/';
}

describe('SQLite and PostgreSQL migration twins', () => {
  it('every SQLite migration after 0015 has its PostgreSQL twin, and the other way round', () => {
    const missing = missingTwins(loadMigrations(), loadMigrations(undefined, 'postgres'));
    assert.equal(missing.length, 0, missing.join('\n'));
  });

  it('names the missing twin when a SQLite migration has none', () => {
    const newest = loadMigrations().at(-1)!.name;
    const sqlite = loadMigrations(copyTree(SQLITE_DIR));
    const pg = loadMigrations(copyTree(PG_DIR, [newest]), 'postgres');
    assert.deepEqual(missingTwins(sqlite, pg), [
      `${SQLITE_DIR}${newest} has no PostgreSQL twin: add ${PG_DIR}${newest}`,
    ]);
  });
});
