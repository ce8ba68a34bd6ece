/**
 * The SQLite store's tables (occurrences, attempts, series), rendered from their definitions
 * (engine/tables), created when absent: an embedder's database, and a new database of the
 * service's (host/db/migrate.ts runs it before the service's migrations). The store creates
 * its journal table (`engine_journal`, ./journal.ts) itself.
 * @module
 */
import type { Database } from 'better-sqlite3';
import { attempts } from '../tables/attempts.js';
import { occurrences } from '../tables/occurrences.js';
import { renderTables } from '../tables/render.js';
import { series } from '../tables/series.js';

/** The schema, as idempotent statements. */
export const ENGINE_SCHEMA_SQL: string = renderTables([occurrences, attempts, series], 'sqlite');

/** Creates the store's tables and indexes when absent (safe to call at every start). */
export function ensureEngineSchema(db: Database): void {
  db.exec(ENGINE_SCHEMA_SQL);
}
