import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from 'better-sqlite3';
import { ensurePostgresEngineSchema } from '../../engine/postgres/index.js';
import { ensureEngineSchema } from '../../engine/sqlite/index.js';
import { listAssets, readAssetText } from '../assets.js';
import type { Db, Dialect, PostgresDb, SqliteDb } from './sql.js';

/**
 * Migrations per dialect: `host/db/migrations/` (SQLite) and `host/db/migrations-pg/`
 * (PostgreSQL). EVERY NEW MIGRATION NEEDS ITS POSTGRESQL TWIN: a SQLite migration
 * `NNNN_name.sql` comes with `migrations-pg/NNNN_name.sql` making the same tables and columns
 * in PostgreSQL types (`bigint` epoch ms, `integer` 0/1 flags, `text` JSON, a
 * `rowid bigint GENERATED ALWAYS AS IDENTITY` column where code orders by rowid);
 * test/host/migration-twins.test.ts fails on a migration without its twin, and
 * test/host/pg-schema.test.ts compares the schemas the two make. The PostgreSQL set starts with one
 * consolidated migration (the SQLite schema after 0001–0015) numbered 0015, so the twin of
 * a later SQLite migration takes the same number.
 *
 * The engine's own tables (occurrences, attempts, series) are defined once, in engine/tables
 * (docs/decisions/0018), and are not written here: on PostgreSQL they come from
 * `ensurePostgresEngineSchema`, run before the host's migrations; on SQLite from
 * `ensureEngineSchema`, see {@link ENGINE_HISTORY}. A host migration may add its own indexes or
 * columns to them (0014, `rowid` on PostgreSQL).
 */
const DIRS: Record<Dialect, { key: string; dir: string }> = {
  sqlite: { key: 'migrations', dir: fileURLToPath(new URL('./migrations/', import.meta.url)) },
  postgres: {
    key: 'migrations-pg',
    dir: fileURLToPath(new URL('./migrations-pg/', import.meta.url)),
  },
};
const NAME = /^(\d{4})_[a-z0-9_]+\.sql$/;

/**
 * The SQLite migrations that made the engine's tables before the engine defined them
 * (engine/tables): history, run only on a database made before that, whose tables they
 * bring to today's shape with their data. A database with none of the engine's tables, on
 * which all of them are still to run, gets the tables from `ensureEngineSchema` instead (the
 * same shape: test/host/migrate-engine-tables.test.ts) and records them without running them,
 * all in one transaction at the first one's turn. A later change to an engine table's
 * definition comes with a migration for the databases made before it, named here too when it
 * does nothing else; one that also changes the host's tables runs on every database instead and
 * so must suit a new one too (0019 makes the series table again, whatever shape it found).
 */
export const ENGINE_HISTORY: ReadonlySet<string> = new Set([
  '0002_engine.sql',
  '0005_calls.sql',
  '0010_engine_series.sql',
]);
const ENGINE_TABLES = ['occurrences', 'attempts', 'series'];

/** A numbered SQL file from `host/db/migrations/` (or `migrations-pg/`). */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Reads `NNNN_name.sql` files in version order; refuses duplicates. Gaps are allowed: numbers
 * are reserved per piece of work, so a later number may land before an earlier one (see
 * {@link migrate}: every migration not yet recorded runs, whatever its number).
 */
export function loadMigrations(dir?: string, dialect: Dialect = 'sqlite'): Migration[] {
  // The server's own migrations come through host/assets.ts (files, or the single-file build's assets).
  const own = DIRS[dialect];
  const names = dir === undefined ? listAssets(own.key, own.dir) : readdirSync(dir);
  const read = (name: string) =>
    dir === undefined
      ? readAssetText(`${own.key}/${name}`, own.dir + name)
      : readFileSync(dir + name, 'utf8');
  const files = names.filter((f) => f.endsWith('.sql')).sort();
  let previous = 0;
  return files.map((name) => {
    const m = NAME.exec(name);
    if (!m) throw new Error(`migrations: ${name} is not named NNNN_name.sql`);
    const version = Number(m[1]);
    if (version <= previous)
      throw new Error(`migrations: version ${version} appears twice (${name})`);
    previous = version;
    return { version, name, sql: read(name) };
  });
}

/**
 * Applies every migration not yet recorded in `schema_migrations`, in version order, each in
 * its own transaction together with its record, so a failed migration leaves the database as
 * it was. Returns the versions applied. `migrations` defaults to the dialect's own set.
 *
 * Recording each version (not only the highest, as `PRAGMA user_version` does) is what makes
 * gaps safe: a migration numbered below one already applied still runs once it lands. So a
 * migration must not depend on another whose number is higher. On SQLite, a database made
 * before the table existed counts every migration up to its `user_version` as applied;
 * `user_version` still holds the highest version applied, for tools that read it; on a new
 * database the engine's tables come from the engine ({@link ENGINE_HISTORY}). On
 * PostgreSQL the engine's tables are ensured first, and each migration takes a
 * transaction-scoped advisory lock, so hosts starting together apply each migration once.
 */
export async function migrate(db: Db, migrations?: Migration[]): Promise<number[]> {
  return db.dialect === 'sqlite'
    ? Promise.resolve(migrateSqlite((db as SqliteDb).raw, migrations ?? loadMigrations()))
    : migratePostgres(db as PostgresDb, migrations ?? loadMigrations(undefined, 'postgres'));
}

/** {@link migrate} on a better-sqlite3 connection, synchronously (tests and tools). */
export function migrateSqlite(raw: Database, migrations: Migration[] = loadMigrations()): number[] {
  raw.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)',
  );
  const record = raw.prepare('INSERT INTO schema_migrations (version, name) VALUES (?, ?)');
  const done = new Set(
    raw.prepare('SELECT version FROM schema_migrations').pluck().all() as number[],
  );
  const legacy = raw.pragma('user_version', { simple: true }) as number;
  if (done.size === 0 && legacy > 0) {
    raw.transaction(() => {
      for (const m of migrations) if (m.version <= legacy) record.run(m.version, m.name);
    })();
    for (const m of migrations) if (m.version <= legacy) done.add(m.version);
  }
  const history = migrations.filter((m) => ENGINE_HISTORY.has(m.name));
  const hasTable = raw
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
    .pluck();
  const fromEngine =
    history.length === ENGINE_HISTORY.size &&
    history.every((m) => !done.has(m.version)) &&
    ENGINE_TABLES.every((t) => hasTable.get(t) === undefined);
  const applied: number[] = [];
  for (const m of migrations) {
    if (done.has(m.version)) continue;
    // The engine's tables from their definitions, and every history migration recorded with them.
    const batch = fromEngine && ENGINE_HISTORY.has(m.name) ? history : [m];
    raw.transaction(() => {
      if (batch === history) ensureEngineSchema(raw);
      else raw.exec(m.sql);
      for (const b of batch) record.run(b.version, b.name);
      const top = Math.max(...batch.map((b) => b.version));
      const highest = raw.pragma('user_version', { simple: true }) as number;
      if (top > highest) raw.pragma(`user_version = ${top}`);
    })();
    for (const b of batch) {
      done.add(b.version);
      applied.push(b.version);
    }
  }
  return applied.sort((a, b) => a - b);
}

// pg_advisory_xact_lock key of the host's migrations ('wkmg').
const MIGRATION_LOCK = 0x776b6d67;

async function migratePostgres(db: PostgresDb, migrations: Migration[]): Promise<number[]> {
  await ensurePostgresEngineSchema(db.pool);
  await db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL)',
  );
  const applied: number[] = [];
  for (const m of migrations) {
    const ran = await db.tx(async (tx) => {
      await tx.get('SELECT pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
      if (await tx.get('SELECT 1 FROM schema_migrations WHERE version = ?', [m.version]))
        return false;
      await tx.exec(m.sql);
      await tx.run('INSERT INTO schema_migrations (version, name) VALUES (?, ?)', [
        m.version,
        m.name,
      ]);
      return true;
    });
    if (ran) applied.push(m.version);
  }
  return applied;
}
