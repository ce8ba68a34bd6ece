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
 * Reads `NNNN_name.sql` files in version order; refuses duplicates. Numbers are reserved per
 * feature branch, so a branch may hold a later number before an earlier one has landed: a
 * gap is allowed, but a version at or below one already applied is never run (migrate()).
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
 * Applies every migration newer than `PRAGMA user_version`, each in its own transaction
 * together with the version bump, so a failed migration leaves the database as it was.
 * Returns the versions applied.
 */
export function migrate(db: Database, migrations: Migration[] = loadMigrations()): number[] {
  const current = db.pragma('user_version', { simple: true }) as number;
  const applied: number[] = [];
  for (const m of migrations) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    })();
    applied.push(m.version);
  }
  return applied;
}
