/**
 * Reading the engine's records (occurrences, attempts) in host queries, on either dialect.
 * The engine's tables differ by dialect (SQLite: integers and JSON text, read by the SQLite
 * store's positional mappers; PostgreSQL: booleans and jsonb, read by the PostgreSQL store's
 * mappers; both made from the tables' definitions in engine/tables), so a host query selects
 * a record through {@link occurrenceSelect} / {@link attemptSelect} and maps it with
 * {@link occurrenceOf} / {@link attemptOf}.
 * @module
 */
import type { AttemptRecord, OccurrenceRecord } from '../../engine/index.js';
import * as pgRows from '../../engine/postgres/index.js';
import * as sqliteRows from '../../engine/sqlite/index.js';
import type { Dialect } from './sql.js';

type Row = Record<string, unknown>;

const select = (dialect: Dialect, columns: readonly string[], alias: string, prefix: string): string =>
  dialect === 'sqlite'
    ? columns.map((c) => `${alias}.${c} AS ${prefix}${c}`).join(', ')
    : // JSON keeps PostgreSQL's own types (booleans, jsonb), as the PostgreSQL store's mappers expect.
      `row_to_json(${alias}) AS ${prefix}json`;

/** The select list of an occurrence record from table alias `alias` (columns prefixed `oc_`). */
export const occurrenceSelect = (dialect: Dialect, alias: string): string => select(dialect, sqliteRows.OCCURRENCE_COLUMNS, alias, 'oc_');
/** The select list of an attempt record from table alias `alias` (columns prefixed `at_`). */
export const attemptSelect = (dialect: Dialect, alias: string): string => select(dialect, sqliteRows.ATTEMPT_COLUMNS, alias, 'at_');

/** The occurrence record of a row selected with {@link occurrenceSelect}. */
export function occurrenceOf(dialect: Dialect, row: Row): OccurrenceRecord {
  return dialect === 'sqlite'
    ? sqliteRows.rowToOccurrence(sqliteRows.OCCURRENCE_COLUMNS.map((c) => row[`oc_${c}`]))
    : pgRows.rowToOccurrence(row['oc_json'] as Row);
}

/** The attempt record of a row selected with {@link attemptSelect}. */
export function attemptOf(dialect: Dialect, row: Row): AttemptRecord {
  return dialect === 'sqlite'
    ? sqliteRows.rowToAttempt(sqliteRows.ATTEMPT_COLUMNS.map((c) => row[`at_${c}`]))
    : pgRows.rowToAttempt(row['at_json'] as Row);
}
