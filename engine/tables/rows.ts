/**
 * The row mapper of a table definition (./define.ts): record → row and row → record, in
 * either dialect. The dialects differ here and nowhere else:
 * - SQLite rows are arrays in column order (better-sqlite3's raw mode, the statements'
 *   positional parameters, and the journal's images, docs/decisions/0016); booleans are 0 or 1,
 *   JSON is text.
 * - PostgreSQL rows are objects keyed by column name (node-postgres, `json_agg`,
 *   `json_populate_recordset`), or arrays in column order (the store's loads,
 *   `json_build_array`); booleans are booleans, JSON is the value (jsonb), and `bigint`
 *   columns arrive as strings from plain rows and as numbers from JSON, so every number is
 *   read with `Number` unless it already is one.
 *
 * The functions are generated once per table (`new Function`) as the straight-line code one
 * would write by hand, because they run once per row on the spike's path: a loop over the
 * columns per call cost more.
 * @module
 */
import {
  recordColumns,
  type Column,
  type Dialect,
  type LogicalType,
  type Table,
} from './define.js';

/** Record → row and back for one table in one dialect. */
export interface RowMapper<R, Row> {
  /** The columns that hold the record, in order (the same in both dialects). */
  columns: readonly string[];
  toRow: (record: R) => Row;
  fromRow: (row: Row) => R;
}

/**
 * The PostgreSQL mapper, which also reads a row sent as a JSON array in column order
 * (`json_build_array` of {@link RowMapper.columns}): the spike's loads, where an array's text is
 * about half an object's to make on the server and to parse here.
 */
export interface PostgresRowMapper<R> extends RowMapper<R, NamedRow> {
  fromArray: (row: PositionalRow) => R;
}

/** A SQLite row: values in column order. */
export type PositionalRow = unknown[];
/** A PostgreSQL row: values by column name. */
export type NamedRow = Record<string, unknown>;

const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : num(v));

const NUMERIC: ReadonlySet<LogicalType> = new Set(['int', 'int64', 'epoch_ms']);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `x` written into a row. */
function write<R>(c: Column<R>, dialect: Dialect, x: string): string {
  if (dialect === 'postgres') return x;
  const value =
    c.type === 'boolean' ? `(${x} ? 1 : 0)` : c.type === 'json' ? `JSON.stringify(${x})` : x;
  return value === x || !c.nullable ? value : `(${x} === null ? null : ${value})`;
}

/** The record's value of row cell `x`. */
function read<R>(c: Column<R>, dialect: Dialect, x: string): string {
  if (dialect === 'sqlite') {
    const value = c.type === 'boolean' ? `${x} === 1` : c.type === 'json' ? `JSON.parse(${x})` : x;
    return value === x || !c.nullable ? value : `(${x} === null ? null : ${value})`;
  }
  if (NUMERIC.has(c.type)) return c.nullable ? `numOrNull(${x})` : `num(${x})`;
  if (c.type === 'boolean')
    return c.nullable ? `(${x} == null ? null : ${x} === true)` : `${x} === true`;
  return c.nullable ? `(${x} ?? null)` : x;
}

/** The object literal of a record: fields in column order, a nested field's object where its first column is. */
function recordLiteral(fields: { path: string[]; value: string }[]): string {
  const top: { key: string; value?: string; nested?: string[] }[] = [];
  for (const f of fields) {
    const [key, sub] = f.path;
    if (sub === undefined) top.push({ key: key!, value: f.value });
    else {
      let group = top.find((t) => t.key === key && t.nested);
      if (!group) top.push((group = { key: key!, nested: [] }));
      group.nested!.push(`${sub}: ${f.value}`);
    }
  }
  return `{ ${top.map((t) => `${t.key}: ${t.nested ? `{ ${t.nested.join(', ')} }` : t.value}`).join(', ')} }`;
}

function generate<R, Row>(
  t: Table<R>,
  dialect: Dialect,
): RowMapper<R, Row> & { fromArray: (row: PositionalRow) => R } {
  const cols = t.columns.filter((c): c is Column<R> & { field: string } => c.field !== undefined);
  for (const c of cols) {
    if (!IDENTIFIER.test(c.name) || !c.field.split('.').every((p) => IDENTIFIER.test(p))) {
      throw new Error(`${t.name}.${c.name}: a column and its field must be plain identifiers`);
    }
  }
  const out = cols.map((c) => write(c, dialect, `r.${c.field}`));
  const toRow =
    dialect === 'sqlite'
      ? `[${out.join(', ')}]`
      : `{ ${cols.map((c, i) => `${c.name}: ${out[i]}`).join(', ')} }`;
  const reader = (cell: (c: Column<R>, i: number) => string) =>
    recordLiteral(
      cols.map((c, i) => ({ path: c.field.split('.'), value: read(c, dialect, cell(c, i)) })),
    );
  // A SQLite row is read by position, as an array sent by PostgreSQL is (`fromArray`); a
  // PostgreSQL row by name.
  const byPosition = reader((_, i) => `v[${i}]`);
  const fromRow = dialect === 'sqlite' ? 'fromArray' : `(v) => (${reader((c) => `v.${c.name}`)})`;
  // Code made once from the static definitions above (identifiers checked), never from input.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const make = new Function(
    'num',
    'numOrNull',
    `const fromArray = (v) => (${byPosition}); return [(r) => (${toRow}), ${fromRow}, fromArray];`,
  ) as (
    n: typeof num,
    m: typeof numOrNull,
  ) => [(r: R) => Row, (v: Row) => R, (v: PositionalRow) => R];
  const [to, from, fromArray] = make(num, numOrNull);
  return { columns: recordColumns(t), toRow: to, fromRow: from, fromArray };
}

/** The SQLite mapper of `t`: rows as arrays in column order. */
export function sqliteRows<R>(t: Table<R>): RowMapper<R, PositionalRow> {
  return generate(t, 'sqlite');
}

/** The PostgreSQL mapper of `t`: rows as objects keyed by column name. */
export function postgresRows<R>(t: Table<R>): PostgresRowMapper<R> {
  return generate(t, 'postgres');
}
