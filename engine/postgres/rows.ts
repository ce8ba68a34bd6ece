/**
 * Rows of the PostgreSQL store's tables ({@link POSTGRES_ENGINE_SCHEMA_SQL}) and the engine's
 * records: the mappers made from the tables' definitions (engine/tables). A row is an object
 * keyed by column name, as node-postgres returns it and as `json_populate_recordset` reads it:
 * records are written as one JSON array per table and read as plain rows, as `json_agg` of
 * rows, or (the store's loads) as arrays in column order, so `bigint` columns arrive as
 * strings (plain rows) or numbers (JSON) and both are accepted.
 * @module
 */
import type { QueryConfig, QueryResult } from 'pg';
import type { AttemptRecord, OccurrenceRecord, SeriesRecord } from '../model.js';
import { attempts } from '../tables/attempts.js';
import { occurrences } from '../tables/occurrences.js';
import { type NamedRow, postgresRows } from '../tables/rows.js';
import { series } from '../tables/series.js';

/** A row keyed by column name. */
export type Row = NamedRow;

/** What the store needs of a node-postgres `Pool` (or a `Client`): `query`. */
export interface Queryable {
  /** Runs one query, atomic on its own, on any pooled connection (the store's are named statements, prepared once per connection). */
  query(config: QueryConfig<unknown[]> | string): Promise<QueryResult<Row>>;
  /**
   * A connection of its own (a node-postgres `Pool`'s): needed only for a commit with writes of
   * the caller's, which holds one connection for its transaction.
   */
  connect?(): Promise<PooledConnection>;
}

/** A connection taken from a pool for one transaction (node-postgres' `PoolClient`). */
export interface PooledConnection {
  /** Runs one query on this connection. */
  query(config: QueryConfig<unknown[]> | string): Promise<QueryResult<Row>>;
  /** Gives it back; `true` (or an error) when it is broken and must be closed. */
  release(destroy?: boolean | Error): void;
}

const occurrenceRows = postgresRows(occurrences);
const attemptRows = postgresRows(attempts);
const seriesRows = postgresRows(series);

/** Columns of `occurrences` written from a record (the lease columns are the store's own). */
export const OCCURRENCE_COLUMNS: readonly string[] = occurrenceRows.columns;
/** The row for an occurrence (JSON-ready: `jsonb` columns hold values, not strings). */
export const occurrenceToRow: (r: OccurrenceRecord) => Row = occurrenceRows.toRow;
/**
 * The record for an `occurrences` row.
 *
 * @example
 * const { rows } = await pool.query<Row>('SELECT * FROM occurrences WHERE account_id = $1', [accountId]);
 * const occurrences = rows.map(rowToOccurrence);
 */
export const rowToOccurrence: (v: Row) => OccurrenceRecord = occurrenceRows.fromRow;
/** The record for an `occurrences` row sent as a JSON array in {@link OCCURRENCE_COLUMNS}' order. */
export const arrayToOccurrence: (v: unknown[]) => OccurrenceRecord = occurrenceRows.fromArray;

/** Columns of `attempts` written from a record. */
export const ATTEMPT_COLUMNS: readonly string[] = attemptRows.columns;
/** The row for an attempt. */
export const attemptToRow: (r: AttemptRecord) => Row = attemptRows.toRow;
/** The record for an `attempts` row. */
export const rowToAttempt: (v: Row) => AttemptRecord = attemptRows.fromRow;
/** The record for an `attempts` row sent as a JSON array in {@link ATTEMPT_COLUMNS}' order. */
export const arrayToAttempt: (v: unknown[]) => AttemptRecord = attemptRows.fromArray;

/** Columns of `series` written from a record. */
export const SERIES_COLUMNS: readonly string[] = seriesRows.columns;
/** The row for a series. */
export const seriesToRow: (r: SeriesRecord) => Row = seriesRows.toRow;
/** The record for a `series` row. */
export const rowToSeries: (v: Row) => SeriesRecord = seriesRows.fromRow;
/** The record for a `series` row sent as a JSON array in {@link SERIES_COLUMNS}' order. */
export const arrayToSeries: (v: unknown[]) => SeriesRecord = seriesRows.fromArray;
