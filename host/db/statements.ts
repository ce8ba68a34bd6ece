/**
 * Prepared-statement cache: query modules call `sql(db, text)` instead of `db.prepare`, so
 * each statement is compiled once per database handle.
 * @module
 */
import type { Database, Statement } from 'better-sqlite3';

const caches = new WeakMap<Database, Map<string, Statement<unknown[], unknown>>>();

/** The prepared statement for `text` on `db`, compiled on first use; `R` is the row type. */
export function sql<R = unknown>(db: Database, text: string): Statement<unknown[], R> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let stmt = cache.get(text);
  if (!stmt) {
    stmt = db.prepare<unknown[], unknown>(text);
    cache.set(text, stmt);
  }
  return stmt as Statement<unknown[], R>;
}
