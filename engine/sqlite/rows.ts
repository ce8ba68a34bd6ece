/**
 * The SQLite store's rows of `occurrences`, `attempts` and `series` and the engine's records:
 * the mappers made from the tables' definitions (engine/tables). A row is an array in column
 * order: better-sqlite3's raw rows, the positional parameters of an insert, and the journal's
 * images (docs/decisions/0016). The host's SQLite queries read with them too.
 * @module
 */
import type { AttemptRecord, OccurrenceRecord, SeriesRecord } from '../model.js';
import { attempts } from '../tables/attempts.js';
import { occurrences } from '../tables/occurrences.js';
import { type PositionalRow, sqliteRows } from '../tables/rows.js';
import { series } from '../tables/series.js';

/** A raw `occurrences` row (as better-sqlite3 returns it in raw mode, in column order). */
export type OccurrenceRow = PositionalRow;

const occurrenceRows = sqliteRows(occurrences);
const attemptRows = sqliteRows(attempts);
const seriesRows = sqliteRows(series);

/** Columns of `occurrences` in the order of {@link occurrenceToRow} and of the store's statements. */
export const OCCURRENCE_COLUMNS: readonly string[] = occurrenceRows.columns;
/** Positional parameters for an insert of `r` (column order of {@link OCCURRENCE_COLUMNS}). */
export const occurrenceToRow: (r: OccurrenceRecord) => PositionalRow = occurrenceRows.toRow;
/**
 * The record for a raw row.
 *
 * @example
 * await store.settle(); // the journal's commits folded into the tables
 * const row = db.prepare(`SELECT ${OCCURRENCE_COLUMNS.join(', ')} FROM occurrences WHERE id = ?`).raw(true).get(id) as OccurrenceRow;
 * const occurrence = rowToOccurrence(row);
 */
export const rowToOccurrence: (v: OccurrenceRow) => OccurrenceRecord = occurrenceRows.fromRow;

/** Columns of `attempts` in the order of {@link attemptToRow} and of the store's statements. */
export const ATTEMPT_COLUMNS: readonly string[] = attemptRows.columns;
/** Positional parameters for an insert of `r` (column order of {@link ATTEMPT_COLUMNS}). */
export const attemptToRow: (r: AttemptRecord) => PositionalRow = attemptRows.toRow;
/** The record for a raw row (column order of {@link ATTEMPT_COLUMNS}). */
export const rowToAttempt: (v: PositionalRow) => AttemptRecord = attemptRows.fromRow;

/** Columns of `series` in the order of {@link seriesToRow}. */
export const SERIES_COLUMNS: readonly string[] = seriesRows.columns;
/** Positional parameters for an insert of `r`. */
export const seriesToRow: (r: SeriesRecord) => PositionalRow = seriesRows.toRow;
/** The record for a raw row. */
export const rowToSeries: (v: PositionalRow) => SeriesRecord = seriesRows.fromRow;
