/**
 * The SQLite store's prepared statements, made once per store: the unit of work's reads by id
 * and version checks (`WHERE id IN (SELECT value FROM json_each(?))`, one statement per table
 * whatever the number of ids), the series writes, the owners a settle folds, the due page and
 * the recovery lists. The loads of occurrences and attempts return each row as one JSON array
 * in column order (`json_array`): a dispatch unit loads hundreds of 39-column rows, and one
 * string per row, parsed in JavaScript, costs less than better-sqlite3 making a value per
 * column (the 100k spike: about 6 % less CPU a dispatch). The tables are STRICT, with INTEGER
 * and TEXT columns only, so the array holds exactly the values a raw row would. The rest, the
 * series writes aside, return raw rows (arrays in column order).
 * @module
 */
import type { Database, Statement } from 'better-sqlite3';
import { ATTEMPT_COLUMNS, OCCURRENCE_COLUMNS, SERIES_COLUMNS } from './rows.js';

/** The store's statements: the two loads answer JSON text, the series writes nothing, the rest raw rows. */
export interface StoreStatements {
  /** Occurrences by id (a JSON array of ids), each row as the text of a JSON array. */
  occurrences: Statement<[string]>;
  /** Attempts by id, each row as the text of a JSON array. */
  attempts: Statement<[string]>;
  /** Series by id. */
  series: Statement<[string]>;
  /** `[id, version]` of occurrences by id. */
  occVersions: Statement<[string]>;
  /** `[id, version]` of attempts by id. */
  attVersions: Statement<[string]>;
  /** `[id, version]` of series by id. */
  serVersions: Statement<[string]>;
  /** `[account_id]` of occurrences by id. */
  occAccounts: Statement<[string]>;
  /** `[account_id]` of attempts by id. */
  attAccounts: Statement<[string]>;
  /** Inserts a series row (the parameters of `seriesToRow`). */
  insertSeries: Statement<unknown[]>;
  /** Updates a series row (`seriesToRow`'s parameters with the id moved last). */
  updateSeries: Statement<unknown[]>;
  /** One page of due keys `[kind, id, at]`, named parameters `at`, `until`, `kind`, `id`, `limit`. */
  due: Statement<unknown[]>;
  /** The attempts of one occurrence, by `n`. */
  attemptsOf: Statement<[string]>;
  /** Requested attempts no provider acknowledged, after an id, up to a limit. */
  unacknowledged: Statement<[string, number]>;
  /** Occurrences whose fallback is pending, after an id, up to a limit. */
  pendingFallbacks: Statement<[string, number]>;
  /** Pending occurrences resolved under another tzdata version, after an id, up to a limit. */
  staleZone: Statement<[string, string, number]>;
  /** Active series whose next occurrence is missing or finished, after an id, up to a limit. */
  withoutNext: Statement<[string, number]>;
}

const IDS = 'SELECT value FROM json_each(?)';
const OCC = OCCURRENCE_COLUMNS.join(', ');
const ATT = ATTEMPT_COLUMNS.join(', ');
const SER = SERIES_COLUMNS.join(', ');

// Each side is limited on its own, then merged, so a page never scans a whole spike.
const DUE_SQL = `SELECT kind, id, at FROM (
   SELECT * FROM (
     SELECT 'attempt' AS kind, id, deadline_at AS at FROM attempts
     WHERE occurrence_id IS NULL AND deadline_at IS NOT NULL AND deadline_at BETWEEN @at AND @until
       AND (deadline_at > @at OR (@kind = 'attempt' AND id > @id))
     ORDER BY deadline_at, id LIMIT @limit)
   UNION ALL
   SELECT * FROM (
     SELECT 'occurrence' AS kind, id, next_due_at AS at FROM occurrences
     WHERE next_due_at IS NOT NULL AND next_due_at BETWEEN @at AND @until
       AND (next_due_at > @at OR @kind = 'attempt' OR id > @id)
     ORDER BY next_due_at, id LIMIT @limit)
 ) ORDER BY at, kind, id LIMIT @limit`;

const WITHOUT_NEXT_SQL = `SELECT ${SERIES_COLUMNS.map((c) => `s.${c}`).join(', ')} FROM series s
   LEFT JOIN occurrences o ON o.id = s.next_occurrence_id
   WHERE s.status = 'active' AND s.enabled = 1 AND s.id > ?
     AND (o.id IS NULL OR o.status IN ('confirmed', 'missed', 'failed', 'cancelled', 'unconfirmed'))
   ORDER BY s.id LIMIT ?`;

/** Prepares the store's statements on `db`. */
export function prepareStoreStatements(db: Database): StoreStatements {
  const byIds = (columns: string, table: string) =>
    db.prepare<[string]>(`SELECT ${columns} FROM ${table} WHERE id IN (${IDS})`).raw(true);
  const jsonByIds = (columns: string, table: string) =>
    db
      .prepare<[string]>(`SELECT json_array(${columns}) FROM ${table} WHERE id IN (${IDS})`)
      .pluck(true);
  const raw = <P extends unknown[]>(sql: string) => db.prepare<P>(sql).raw(true);
  return {
    occurrences: jsonByIds(OCC, 'occurrences'),
    attempts: jsonByIds(ATT, 'attempts'),
    series: byIds(SER, 'series'),
    occVersions: byIds('id, version', 'occurrences'),
    attVersions: byIds('id, version', 'attempts'),
    serVersions: byIds('id, version', 'series'),
    occAccounts: byIds('account_id', 'occurrences'),
    attAccounts: byIds('account_id', 'attempts'),
    insertSeries: db.prepare(
      `INSERT INTO series (${SER}) VALUES (${SERIES_COLUMNS.map(() => '?').join(', ')})`,
    ),
    updateSeries: db.prepare(
      `UPDATE series SET ${SERIES_COLUMNS.slice(1)
        .map((c) => `${c} = ?`)
        .join(', ')} WHERE id = ?`,
    ),
    due: db.prepare(DUE_SQL).raw(true),
    attemptsOf: raw<[string]>(`SELECT ${ATT} FROM attempts WHERE occurrence_id = ? ORDER BY n`),
    unacknowledged: raw<[string, number]>(
      `SELECT ${ATT} FROM attempts WHERE status = 'requested' AND provider_call_id IS NULL AND id > ? ORDER BY id LIMIT ?`,
    ),
    pendingFallbacks: raw<[string, number]>(
      `SELECT ${OCC} FROM occurrences WHERE fallback_state = 'pending' AND id > ? ORDER BY id LIMIT ?`,
    ),
    staleZone: raw<[string, string, number]>(
      `SELECT ${OCC} FROM occurrences
       WHERE status = 'pending' AND tzdata_version IS NOT NULL AND tzdata_version <> ? AND id > ? ORDER BY id LIMIT ?`,
    ),
    withoutNext: raw<[string, number]>(WITHOUT_NEXT_SQL),
  };
}
