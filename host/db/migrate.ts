import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from 'better-sqlite3';
import { listAssets, readAssetText } from '../assets.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const NAME = /^(\d{4})_[a-z0-9_]+\.sql$/;

/** A numbered SQL file from `host/db/migrations/`. */
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
export function loadMigrations(dir?: string): Migration[] {
  // The server's own migrations come through host/assets.ts (files, or the single-file build's assets).
  const names = dir === undefined ? listAssets('migrations', MIGRATIONS_DIR) : readdirSync(dir);
  const read = (name: string) =>
    dir === undefined ? readAssetText(`migrations/${name}`, MIGRATIONS_DIR + name) : readFileSync(dir + name, 'utf8');
  const files = names.filter((f) => f.endsWith('.sql')).sort();
  let previous = 0;
  return files.map((name) => {
    const m = NAME.exec(name);
    if (!m) throw new Error(`migrations: ${name} is not named NNNN_name.sql`);
    const version = Number(m[1]);
    if (version <= previous) throw new Error(`migrations: version ${version} appears twice (${name})`);
    previous = version;
    return { version, name, sql: read(name) };
  });
}

/**
 * Applies every migration not yet recorded in `schema_migrations`, in version order, each in
 * its own transaction together with its record, so a failed migration leaves the database as
 * it was. Returns the versions applied.
 *
 * Recording each version (not only the highest, as `PRAGMA user_version` does) is what makes
 * gaps safe: a migration numbered below one already applied still runs once it lands. So a
 * migration must not depend on another whose number is higher. A database made before the
 * table existed counts every migration up to its `user_version` as applied; `user_version`
 * still holds the highest version applied, for tools that read it.
 */
export function migrate(db: Database, migrations: Migration[] = loadMigrations()): number[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  const record = db.prepare('INSERT INTO schema_migrations (version, name) VALUES (?, ?)');
  const done = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
  const legacy = db.pragma('user_version', { simple: true }) as number;
  if (done.size === 0 && legacy > 0) {
    db.transaction(() => {
      for (const m of migrations) if (m.version <= legacy) record.run(m.version, m.name);
    })();
    for (const m of migrations) if (m.version <= legacy) done.add(m.version);
  }
  const applied: number[] = [];
  for (const m of migrations) {
    if (done.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.version, m.name);
      const highest = db.pragma('user_version', { simple: true }) as number;
      if (m.version > highest) db.pragma(`user_version = ${m.version}`);
    })();
    applied.push(m.version);
  }
  return applied;
}
