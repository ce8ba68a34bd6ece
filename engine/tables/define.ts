/**
 * The shape of a definition of one of the engine's tables (docs/decisions/0018): its columns in
 * order, each with a logical type, and its indexes. The SQLite and PostgreSQL DDL
 * (./render.ts) and the row mappers of both stores (./rows.ts) are made from it.
 * @module
 */

/** The two databases the engine's stores run on. */
export type Dialect = 'sqlite' | 'postgres';

/**
 * What a column holds, which fixes its type in each dialect and how a record's value is
 * written and read:
 *
 * | logical    | SQLite                     | PostgreSQL | the record's value |
 * |------------|----------------------------|------------|--------------------|
 * | `text`     | TEXT                       | text       | string             |
 * | `int`      | INTEGER                    | integer    | number             |
 * | `int64`    | INTEGER                    | bigint     | number             |
 * | `epoch_ms` | INTEGER                    | bigint     | number (an instant)|
 * | `boolean`  | INTEGER (0 or 1)           | boolean    | boolean            |
 * | `json`     | TEXT (the value as JSON)   | jsonb      | the value          |
 */
export type LogicalType = 'text' | 'int' | 'int64' | 'epoch_ms' | 'boolean' | 'json';

/** A field of record `R`, or a field of one of its object fields (`policy.maxSnoozes`). */
export type FieldPath<R> = {
  [K in keyof R & string]:
    | K
    | (R[K] extends readonly unknown[]
        ? never
        : R[K] extends object
          ? `${K}.${keyof R[K] & string}`
          : never);
}[keyof R & string];

/** One column. */
export interface Column<R> {
  name: string;
  type: LogicalType;
  /** The record's field it holds; absent for a column that is the store's own (not part of the record). */
  field?: FieldPath<R>;
  /** NULL allowed (else NOT NULL; a primary key is never written NOT NULL, as in the tables made so far). */
  nullable?: boolean;
  primaryKey?: boolean;
  /** DEFAULT, as written in SQL. */
  default?: string;
  /** CHECK (column IN (…)). */
  oneOf?: readonly string[];
  /** A foreign key whose referenced row's deletion deletes this row. */
  references?: { table: string; column: string };
  /** PostgreSQL collation (`C`: ids sort bytewise, as SQLite's BINARY does, whatever the database's locale). */
  collate?: 'C';
  /** A column of one dialect's table only (the PostgreSQL store's leases and insertion order). */
  only?: Dialect;
  /**
   * Numbered by the database in insertion order (PostgreSQL: `GENERATED ALWAYS AS IDENTITY`),
   * never written by a store: the `rowid` that SQLite gives every table, made real on PostgreSQL.
   */
  identity?: boolean;
  /** Said in a comment beside the column in the DDL. */
  note?: string;
}

/** One index; `postgres` overrides parts of it on PostgreSQL (where today's databases differ). */
export interface Index {
  name: string;
  on: readonly string[];
  /** A partial index's predicate, in SQL. */
  where?: string;
  postgres?: { on?: readonly string[]; where?: string };
  /** Said in a comment above the index in the DDL. */
  note?: string;
}

/** One table of the engine's, holding records of type `R`. */
export interface Table<R = unknown> {
  name: string;
  /** Columns in order: the order of the SQLite store's positional rows and journal images. */
  columns: readonly Column<R>[];
  indexes: readonly Index[];
  /** The dialects the table exists in (the journal is the SQLite store's). @defaultValue both */
  only?: Dialect;
}

/** The columns of `t` in `dialect`. */
export function columnsOf<R>(t: Table<R>, dialect: Dialect): Column<R>[] {
  return t.columns.filter((c) => c.only === undefined || c.only === dialect);
}

/** The names of the columns that hold a record's fields, in order (the same in both dialects). */
export function recordColumns<R>(t: Table<R>): string[] {
  return t.columns.filter((c) => c.field !== undefined).map((c) => c.name);
}
