/**
 * The PostgreSQL store's commit statement, made per shape: which tables a change set writes,
 * whether each inserts, and which columns its updates set.
 *
 * - **Inserts** arrive as one `json` array of whole rows, read by `json_populate_recordset`
 *   (the text parsed once, each object straight into the row type).
 * - **Updates** arrive as typed arrays, one per column they set, zipped by `unnest`. A row the
 *   store loaded sets only the columns that differ from what the load read (its version is
 *   checked, so the others are what the table holds); the rest of the row is not sent, parsed
 *   or cast. On a spike's 500-row batch of intents this took the occurrences' update from about
 *   50 to 30 µs a row of server time; the same narrow rows sent as JSON took 35
 *   (docs/performance/spike-profile.md, "Narrow updates on PostgreSQL").
 *
 * Per table `x`: `x_ins` and `x_up` (the rows sent, with their place in the change set),
 * `x_lock` (the stored rows with those ids, locked in id order, current version), `x_bad` (the
 * conflicts: an insert whose id exists, an update whose row is gone or at another version);
 * then `conflicts`, and the writes guarded by `NOT EXISTS (conflicts)`, which PostgreSQL
 * evaluates once, before writing anything. Stored rows are found by `id = ANY($ids)` (the ids
 * sent as a text[]), which the planner answers from the primary key; a join against rows
 * whose count it cannot know (it guesses 100) made it scan whole tables.
 * @module
 */
import type { RowRef } from '../ports.js';
import type { Column, LogicalType } from '../tables/define.js';

/** A table as the commit statement writes it. */
export interface CommitTable {
  table: string;
  kind: RowRef['kind'];
  /** Its place in a change set (series, occurrences, attempts): the order conflicts are named in. */
  tab: number;
  /** The columns that hold a record, in the mapper's order; `id` first. */
  columns: readonly string[];
  /** Per column: the element type its update array is sent as (`jsonb` goes as text). */
  arrayTypes: readonly string[];
  /** Per column: whether it is `jsonb` (sent as its text, cast when set). */
  json: readonly boolean[];
}

/** What one table adds to a commit: inserts or not, and the columns its updates set (null: no updates). */
export interface TablePart {
  spec: CommitTable;
  inserts: boolean;
  /** Indexes into `spec.columns`, ascending, never `id`'s. */
  updateColumns: readonly number[] | null;
}

const ARRAY_TYPE: Record<LogicalType, string> = {
  text: 'text',
  int: 'integer',
  int64: 'bigint',
  epoch_ms: 'bigint',
  boolean: 'boolean',
  json: 'text',
};

/** A {@link CommitTable} from a table's record columns (define.ts), which must start with `id`. */
export function commitTable<R>(
  table: string,
  kind: RowRef['kind'],
  tab: number,
  columns: readonly Column<R>[],
): CommitTable {
  const own = columns.filter((c) => c.field !== undefined);
  if (own[0]?.name !== 'id') throw new Error(`commitTable: ${table}'s first column is not id`);
  return {
    table,
    kind,
    tab,
    columns: own.map((c) => c.name),
    arrayTypes: own.map((c) => ARRAY_TYPE[c.type]),
    json: own.map((c) => c.type === 'json'),
  };
}

/**
 * The statement for `parts` (in change-set order). Its parameters, per part in order: when it
 * inserts, the rows (json) and their places (int[]); when it updates, the ids (text[]), the
 * expected versions (bigint[]), their places (int[]) and one array per update column; then
 * every id it writes (text[]). It answers the conflicts, `kind` and `id`, in change-set order.
 */
export function commitSql(parts: readonly TablePart[]): string {
  const ctes: string[] = [];
  const writes: string[] = [];
  let p = 0;
  const param = () => `$${++p}`;
  for (const { spec: t, inserts, updateColumns } of parts) {
    const x = t.table;
    const bad: string[] = [];
    if (inserts) {
      const rows = param();
      const places = param();
      ctes.push(`${x}_ins AS MATERIALIZED (
        SELECT r.unnest AS ord, ${t.columns.map((c) => `r.${c}`).join(', ')}
        FROM ROWS FROM (json_populate_recordset(NULL::${x}, ${rows}::json), unnest(${places}::int[])) AS r)`);
      bad.push(`SELECT i.id::text AS id, i.ord FROM ${x}_ins i JOIN ${x}_lock l ON l.id = i.id`);
      writes.push(`${x}_insert AS (INSERT INTO ${x} (${t.columns.join(', ')})
        SELECT ${t.columns.join(', ')} FROM ${x}_ins WHERE NOT EXISTS (SELECT 1 FROM conflicts)
        ORDER BY ord RETURNING 1)`);
    }
    if (updateColumns) {
      const ids = param();
      const expected = param();
      const places = param();
      const cols = updateColumns.map((i) => ({
        name: t.columns[i]!,
        param: param(),
        type: t.arrayTypes[i]!,
        json: t.json[i]!,
      }));
      ctes.push(`${x}_up AS MATERIALIZED (
        SELECT * FROM unnest(${ids}::text[], ${expected}::bigint[], ${places}::int[]${cols.map((c) => `, ${c.param}::${c.type}[]`).join('')})
          AS u(id, _expected, ord${cols.map((c) => `, ${c.name}`).join('')}))`);
      bad.push(`SELECT u.id, u.ord FROM ${x}_up u LEFT JOIN ${x}_lock l ON l.id = u.id
        WHERE l.id IS NULL OR l.version <> u._expected`);
      const set = cols.map((c) => `${c.name} = u.${c.name}${c.json ? '::jsonb' : ''}`).join(', ');
      writes.push(`${x}_update AS (UPDATE ${x} t SET ${set}
        FROM ${x}_up u WHERE t.id = ANY(${ids}::text[]) AND t.id = u.id
          AND NOT EXISTS (SELECT 1 FROM conflicts) RETURNING 1)`);
    }
    ctes.push(
      `${x}_lock AS MATERIALIZED (
        SELECT t.id, t.version FROM ${x} t WHERE t.id = ANY(${param()}::text[]) ORDER BY t.id FOR NO KEY UPDATE OF t)`,
      `${x}_bad AS (SELECT '${t.kind}'::text AS kind, b.id, ${t.tab} AS tab, b.ord FROM (${bad.join(' UNION ALL ')}) b)`,
    );
  }
  ctes.push(
    `conflicts AS MATERIALIZED (${parts.map((t) => `SELECT * FROM ${t.spec.table}_bad`).join(' UNION ALL ')})`,
    ...writes,
  );
  return `WITH ${ctes.join(',\n')}\nSELECT kind, id FROM conflicts ORDER BY tab, ord`;
}
