/**
 * The engine's {@link Store} port on PostgreSQL through node-postgres (the `./postgres` entry
 * of the engine package), for several processes sharing one database.
 *
 * Every port call is ONE statement, so one round trip on any pooled connection, and atomic on
 * its own (a statement is its own transaction): nothing is held open between calls. The one
 * exception is a commit with writes of the caller's: its statement and those writes run in one
 * READ COMMITTED transaction (the statement locks and checks the rows it writes itself, as it
 * does on its own) on a connection of the pool's own, docs/decisions/0025.
 * - `load`: one statement of CTEs reads the named rows and the rows that come with them,
 *   under one snapshot, and answers one row of three `json_agg` arrays of rows as arrays.
 * - `commit`: one statement of CTEs. Each table's rows arrive as one `json` array
 *   (`json_populate_recordset` against the table's row type); the rows to write are locked
 *   (`FOR NO KEY UPDATE`, in id order, series then occurrences then attempts) and their
 *   current versions compared with the expected ones; the UPDATE … FROM and the INSERT …
 *   SELECT run only when no row conflicts, and the statement answers the conflicting rows.
 *   A concurrent insert of the same id surfaces as a unique violation (the whole statement
 *   rolls back); the commit is then run again and reports the row as a conflict.
 * - `listDue` with a `lease`: claims rows with `FOR NO KEY UPDATE SKIP LOCKED` (rows another
 *   process is claiming or writing right now are skipped, not waited for), skips rows whose
 *   lease belongs to another owner and has not expired, and sets the lease; a row whose owner
 *   changes gets its `version` bumped, so a process that wakes from a pause after its lease
 *   expired and another claimed the row finds its commit refused (the version is the fence).
 * @module
 */
import type { QueryConfig } from 'pg';
import type {
  ChangeSet,
  CommitOptions,
  CommitResult,
  DueQuery,
  DueRef,
  LoadKeys,
  RowRef,
  RowWrite,
  Snapshot,
  Store,
  StoreWrite,
} from '../ports.js';
import {
  ATTEMPT_COLUMNS,
  arrayToAttempt,
  arrayToOccurrence,
  arrayToSeries,
  attemptToRow,
  OCCURRENCE_COLUMNS,
  occurrenceToRow,
  type Queryable,
  type Row,
  rowToAttempt,
  rowToOccurrence,
  rowToSeries,
  SERIES_COLUMNS,
  seriesToRow,
} from './rows.js';
import { createPostgresReads } from './reads.js';
import type { StoreMaintenance, StoreReads } from '../reads.js';

/** Options of {@link createPostgresStore}. */
export interface PostgresStoreOptions {
  /**
   * Prefix of the names under which statements are prepared on each connection (node-postgres
   * named statements: parsed and planned once per connection). Change it when two stores with
   * different `search_path`s share one pool. @defaultValue 'wakeup_engine'
   */
  statementPrefix?: string;
  /** How many times a commit is run again after a deadlock or a concurrent insert of the same id. @defaultValue 5 */
  commitRetries?: number;
}

/** The engine's Store on PostgreSQL, with its read model and maintenance writes (docs/decisions/0021). */
export interface PostgresStore extends Store<Queryable>, StoreReads, StoreMaintenance {}

// A due cursor's `at` when there is none: below every epoch-ms instant.
const NO_CURSOR_AT = -Number.MAX_SAFE_INTEGER;
/** SQLSTATEs after which a commit is run again: unique_violation (a concurrent insert won), deadlock_detected. */
const RETRY_CODES = new Set(['23505', '40P01']);
/** Also run again, for a commit with writes: serialization_failure (a caller's write may raise the isolation level). */
const TX_RETRY_CODES = new Set(['40001']);

interface TableSpec {
  table: string;
  kind: RowRef['kind'];
  columns: readonly string[];
  /** Its place in a change set (series, occurrences, attempts): the order conflicts are named in. */
  tab: number;
  /** The commit statement's three parameters for its writes in a change set; null for none. */
  params: (changes: ChangeSet) => unknown[] | null;
}

/** {@link TableSpec.params} for the writes `of` a change set: rows (json), ids, expected versions. */
function paramsOf<R extends { id: string }>(
  of: (changes: ChangeSet) => RowWrite<R>[],
  toRow: (record: R) => Row,
): TableSpec['params'] {
  return (changes) => {
    const writes = of(changes);
    if (writes.length === 0) return null;
    return [
      JSON.stringify(writes.map((w) => toRow(w.record))),
      writes.map((w) => w.record.id),
      writes.map((w) => w.expectedVersion),
    ];
  };
}

const TABLES: TableSpec[] = [
  {
    table: 'series',
    kind: 'series',
    columns: SERIES_COLUMNS,
    tab: 1,
    params: paramsOf((c) => c.series, seriesToRow),
  },
  {
    table: 'occurrences',
    kind: 'occurrence',
    columns: OCCURRENCE_COLUMNS,
    tab: 2,
    params: paramsOf((c) => c.occurrences, occurrenceToRow),
  },
  {
    table: 'attempts',
    kind: 'attempt',
    columns: ATTEMPT_COLUMNS,
    tab: 3,
    params: paramsOf((c) => c.attempts, attemptToRow),
  },
];

/**
 * The commit statement. Per table `x`: `x_in` (the rows sent, with their expected version and
 * position), `x_lock` (the stored rows with those ids, locked, current version), `x_bad` (the
 * conflicts); then `conflicts`, and the writes guarded by `NOT EXISTS (conflicts)`, which
 * PostgreSQL evaluates once, before writing anything. Stored rows are found by
 * `id = ANY($ids)` (the ids sent again as a text[]), which the planner answers from the
 * primary key; a join against the JSON rows, whose count it cannot know (it guesses 100),
 * made it scan whole tables: a one-row commit cost a few ms at 2,000 rows, more as they grew.
 *
 * The rows arrive as one `json` array read by `json_populate_recordset` (the text parsed once,
 * each object straight into the row type), their expected versions as a `bigint[]` beside it,
 * zipped by `ROWS FROM`. A `jsonb` array taken apart per element with `jsonb_populate_record`
 * cost the server about half again as much per row (docs/performance/spike-profile.md).
 *
 * Made for the tables a change set writes only (`tables`, in change-set order): each present
 * table takes three parameters, its rows (json), their ids (text[]) and their expected
 * versions (bigint[], null for an insert). A unit on the call's path (an attempt and its
 * occurrence) does not run the series' CTEs.
 */
function commitSql(tables: readonly TableSpec[]): string {
  const ctes: string[] = [];
  const params = new Map(
    tables.map((t, i) => [t, { rows: 3 * i + 1, ids: 3 * i + 2, expected: 3 * i + 3 }]),
  );
  for (const t of tables) {
    const x = t.table;
    const p = params.get(t)!;
    ctes.push(
      `${x}_in AS MATERIALIZED (
        SELECT r.ordinality AS ord, r.unnest AS _expected, ${t.columns.map((c) => `r.${c}`).join(', ')}
        FROM ROWS FROM (json_populate_recordset(NULL::${x}, $${p.rows}::json),
                        unnest($${p.expected}::bigint[])) WITH ORDINALITY AS r)`,
      `${x}_lock AS MATERIALIZED (
        SELECT t.id, t.version FROM ${x} t WHERE t.id = ANY($${p.ids}::text[]) ORDER BY t.id FOR NO KEY UPDATE OF t)`,
      `${x}_bad AS (
        SELECT '${t.kind}'::text AS kind, i.id::text AS id, ${t.tab} AS tab, i.ord FROM ${x}_in i LEFT JOIN ${x}_lock l ON l.id = i.id
        WHERE CASE WHEN i._expected IS NULL THEN l.id IS NOT NULL ELSE l.id IS NULL OR l.version <> i._expected END)`,
    );
  }
  ctes.push(
    `conflicts AS MATERIALIZED (${tables.map((t) => `SELECT * FROM ${t.table}_bad`).join(' UNION ALL ')})`,
  );
  for (const t of tables) {
    const x = t.table;
    const p = params.get(t)!;
    const rest = t.columns.filter((c) => c !== 'id');
    ctes.push(
      `${x}_upd AS (UPDATE ${x} t SET (${rest.join(', ')}) = (${rest.map((c) => `i.${c}`).join(', ')})
        FROM ${x}_in i WHERE t.id = ANY($${p.ids}::text[]) AND t.id = i.id AND i._expected IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM conflicts) RETURNING 1)`,
      `${x}_ins AS (INSERT INTO ${x} (${t.columns.join(', ')})
        SELECT ${t.columns.map((c) => `i.${c}`).join(', ')} FROM ${x}_in i
        WHERE i._expected IS NULL AND NOT EXISTS (SELECT 1 FROM conflicts) ORDER BY i.ord RETURNING 1)`,
    );
  }
  return `WITH ${ctes.join(',\n')}\nSELECT kind, id FROM conflicts ORDER BY tab, ord`;
}

/** A row of `alias` as a JSON array of `columns`, read back with the rows' `arrayTo…` mappers. */
const asArray = (columns: readonly string[], alias: string) =>
  `json_build_array(${columns.map((c) => `${alias}.${c}`).join(', ')})`;

/**
 * The load statement: $1 occurrence ids, $2 attempt ids, $3 series ids. Attempts bring their
 * occurrence, series their next occurrence; every occurrence brings its live attempt and its
 * series. One snapshot, one row of three JSON arrays, each row in it an array in column order
 * (about half the text of an object keyed by column, to make there and to parse here). Each
 * table is read by primary key (`id = ANY(ARRAY(…))`, an index scan), never by an OR of
 * subqueries (a sequential scan).
 */
const LOAD_SQL = `
WITH s0 AS (SELECT * FROM series WHERE id = ANY($3::text[])),
a0 AS (SELECT * FROM attempts WHERE id = ANY($2::text[])),
o AS (SELECT * FROM occurrences WHERE id = ANY(ARRAY(
        SELECT unnest($1::text[]) UNION SELECT occurrence_id FROM a0 WHERE occurrence_id IS NOT NULL
        UNION SELECT next_occurrence_id FROM s0 WHERE next_occurrence_id IS NOT NULL))),
a AS (SELECT * FROM a0 UNION ALL SELECT * FROM attempts WHERE id = ANY(ARRAY(
        SELECT live_attempt_id FROM o WHERE live_attempt_id IS NOT NULL EXCEPT SELECT id FROM a0))),
s AS (SELECT * FROM s0 UNION ALL SELECT * FROM series WHERE id = ANY(ARRAY(
        SELECT schedule_id FROM o WHERE schedule_id IS NOT NULL EXCEPT SELECT id FROM s0)))
SELECT (SELECT coalesce(json_agg(${asArray(OCCURRENCE_COLUMNS, 'o')}), '[]') FROM o) AS occurrences,
       (SELECT coalesce(json_agg(${asArray(ATTEMPT_COLUMNS, 'a')}), '[]') FROM a) AS attempts,
       (SELECT coalesce(json_agg(${asArray(SERIES_COLUMNS, 's')}), '[]') FROM s) AS series`;

/**
 * Due rows of both kinds after a cursor: $1 cursor at, $2 cursor kind, $3 cursor id, $4 until,
 * $5 limit. `lease` adds the claim condition and locking to each side.
 */
function dueSide(kind: 'attempt' | 'occurrence', lease: boolean): string {
  const [table, at, extra, after] =
    kind === 'attempt'
      ? [
          'attempts',
          'deadline_at',
          'occurrence_id IS NULL AND deadline_at IS NOT NULL AND',
          `($2 = 'attempt' AND id > $3)`,
        ]
      : ['occurrences', 'next_due_at', 'next_due_at IS NOT NULL AND', `$2 = 'attempt' OR id > $3`];
  const claim = lease
    ? ' AND (lease_owner IS NULL OR lease_owner = $6 OR lease_until <= coalesce($8::bigint, (extract(epoch FROM clock_timestamp()) * 1000)::bigint))'
    : '';
  const lock = lease ? ' FOR NO KEY UPDATE SKIP LOCKED' : '';
  return `SELECT '${kind}'::text AS kind, id::text AS id, ${at} AS at FROM ${table}
    WHERE ${extra} ${at} >= $1 AND ${at} <= $4 AND (${at} > $1 OR ${after})${claim}
    ORDER BY ${at}, id LIMIT $5${lock}`;
}

const DUE_SQL = `SELECT kind, id, at FROM ((${dueSide('attempt', false)}) UNION ALL (${dueSide('occurrence', false)})) d
  ORDER BY at, kind, id LIMIT $5`;

/** $6 owner, $7 lease until, $8 now (the claimer's clock, or the server's when null). */
const CLAIM_SQL = `
WITH a_c AS MATERIALIZED (${dueSide('attempt', true)}),
o_c AS MATERIALIZED (${dueSide('occurrence', true)}),
picked AS MATERIALIZED (SELECT * FROM (SELECT * FROM a_c UNION ALL SELECT * FROM o_c) u ORDER BY at, kind, id LIMIT $5),
a_u AS (UPDATE attempts t SET lease_owner = $6, lease_until = $7,
          version = t.version + CASE WHEN t.lease_owner IS DISTINCT FROM $6 THEN 1 ELSE 0 END
        FROM picked p WHERE p.kind = 'attempt' AND t.id = p.id RETURNING 1),
o_u AS (UPDATE occurrences t SET lease_owner = $6, lease_until = $7,
          version = t.version + CASE WHEN t.lease_owner IS DISTINCT FROM $6 THEN 1 ELSE 0 END
        FROM picked p WHERE p.kind = 'occurrence' AND t.id = p.id RETURNING 1)
SELECT kind, id, at FROM picked ORDER BY at, kind, id`;

const FINISHED = `('confirmed', 'missed', 'failed', 'cancelled', 'unconfirmed')`;

/** Conflicts inside one change set: the second write of one id (as the other stores report it). */
function duplicates(kind: RowRef['kind'], writes: RowWrite<{ id: string }>[], out: RowRef[]): void {
  const seen = new Set<string>();
  for (const w of writes) {
    if (seen.has(w.record.id)) out.push({ kind, id: w.record.id });
    seen.add(w.record.id);
  }
}

/**
 * A {@link Store} on a node-postgres pool whose `search_path` holds the store's tables
 * (create them with `ensurePostgresEngineSchema`). The
 * pool stays the caller's: end it yourself.
 *
 * @example
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * await ensurePostgresEngineSchema(pool);
 * const store = createPostgresStore(pool);
 */
export function createPostgresStore(
  db: Queryable,
  options: PostgresStoreOptions = {},
): PostgresStore {
  const prefix = options.statementPrefix ?? 'wakeup_engine';
  const retries = options.commitRetries ?? 5;
  /** The commit statement of each set of tables written (bit 1 series, 2 occurrences, 4 attempts), made on first use. */
  const commitStatements = new Map<number, { name: string; text: string }>();
  const commitStatement = (mask: number) => {
    let statement = commitStatements.get(mask);
    if (!statement) {
      const text = commitSql(TABLES.filter((_, i) => mask & (1 << i)));
      commitStatements.set(mask, (statement = { name: `commit_${mask}`, text }));
    }
    return statement;
  };
  const q = async (name: string, text: string, values: unknown[]): Promise<Row[]> => {
    const config: QueryConfig<unknown[]> = { name: `${prefix}_${name}`, text, values };
    return (await db.query(config)).rows;
  };
  /**
   * The commit statement and the caller's writes in one transaction on one pooled connection:
   * the statement answers the conflicts (then the transaction is rolled back and no write runs).
   */
  const commitWithWrites = async (
    statement: { name: string; text: string },
    values: unknown[],
    writes: readonly StoreWrite<Queryable>[],
  ): Promise<Row[]> => {
    if (!db.connect)
      throw new Error('createPostgresStore: a commit with writes needs a pool (its connect())');
    const client = await db.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      try {
        const rows = (
          await client.query({ name: `${prefix}_${statement.name}`, text: statement.text, values })
        ).rows;
        if (rows.length > 0) {
          await client.query('ROLLBACK');
          return rows;
        }
        for (const write of writes) await write(client);
        await client.query('COMMIT');
        return rows;
      } catch (err) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true;
        }
        throw err;
      }
    } finally {
      client.release(broken);
    }
  };
  const listOf = (table: string, where: string, order: string) =>
    `SELECT * FROM ${table} WHERE ${where} ORDER BY ${order}`;

  const store: PostgresStore = {
    ...createPostgresReads(db, prefix),
    async load(keys: LoadKeys): Promise<Snapshot> {
      const o = keys.occurrences ?? [];
      const a = keys.attempts ?? [];
      const s = keys.series ?? [];
      if (o.length === 0 && a.length === 0 && s.length === 0)
        return { occurrences: [], attempts: [], series: [] };
      const [row] = await q('load', LOAD_SQL, [[...new Set(o)], [...new Set(a)], [...new Set(s)]]);
      return {
        occurrences: (row!.occurrences as unknown[][]).map(arrayToOccurrence),
        attempts: (row!.attempts as unknown[][]).map(arrayToAttempt),
        series: (row!.series as unknown[][]).map(arrayToSeries),
      };
    },

    async commit(changes: ChangeSet, options?: CommitOptions<Queryable>): Promise<CommitResult> {
      const dup: RowRef[] = [];
      duplicates('series', changes.series, dup);
      duplicates('occurrence', changes.occurrences, dup);
      duplicates('attempt', changes.attempts, dup);
      if (dup.length > 0) return { ok: false, conflicts: dup };
      if (changes.series.length + changes.occurrences.length + changes.attempts.length === 0)
        return { ok: true };
      // Only the tables written: their rows, ids and expected versions, in change-set order
      // (see commitSql); bit i of the mask is TABLES[i].
      let mask = 0;
      const values: unknown[] = [];
      TABLES.forEach((t, i) => {
        const params = t.params(changes);
        if (params === null) return;
        mask |= 1 << i;
        values.push(...params);
      });
      const statement = commitStatement(mask);
      const writes = options?.writes ?? [];
      for (let attempt = 0; ; attempt++) {
        try {
          const rows =
            writes.length === 0
              ? await q(statement.name, statement.text, values)
              : await commitWithWrites(statement, values, writes);
          if (rows.length === 0) return { ok: true };
          return {
            ok: false,
            conflicts: rows.map((r) => ({ kind: r.kind as RowRef['kind'], id: r.id as string })),
          };
        } catch (err) {
          const code = (err as { code?: unknown }).code;
          if (
            attempt < retries &&
            typeof code === 'string' &&
            (RETRY_CODES.has(code) || (writes.length > 0 && TX_RETRY_CODES.has(code)))
          )
            continue;
          throw err;
        }
      }
    },

    async listDue(query: DueQuery): Promise<DueRef[]> {
      const { until, limit, after, lease } = query;
      const base = [
        after ? after.at : NO_CURSOR_AT,
        after ? after.kind : 'occurrence',
        after ? after.id : '',
        until,
        limit,
      ];
      const rows = lease
        ? await q('claim', CLAIM_SQL, [...base, lease.owner, lease.until, lease.now ?? null])
        : await q('due', DUE_SQL, base);
      return rows.map((r) => ({
        kind: r.kind as DueRef['kind'],
        id: r.id as string,
        at: Number(r.at),
      }));
    },

    listAttempts: async (occurrenceId) =>
      (await q('attempts_of', listOf('attempts', 'occurrence_id = $1', 'n'), [occurrenceId])).map(
        rowToAttempt,
      ),
    listUnacknowledgedAttempts: async (limit, afterId) =>
      (
        await q(
          'unacknowledged',
          listOf(
            'attempts',
            `status = 'requested' AND provider_call_id IS NULL AND id > $1`,
            'id LIMIT $2',
          ),
          [afterId ?? '', limit],
        )
      ).map(rowToAttempt),
    listPendingFallbacks: async (limit, afterId) =>
      (
        await q(
          'fallbacks',
          listOf('occurrences', `fallback_state = 'pending' AND id > $1`, 'id LIMIT $2'),
          [afterId ?? '', limit],
        )
      ).map(rowToOccurrence),
    listStaleZoneOccurrences: async (version, limit, afterId) =>
      (
        await q(
          'stale_zone',
          listOf(
            'occurrences',
            `status = 'pending' AND tzdata_version IS NOT NULL AND tzdata_version <> $1 AND id > $2`,
            'id LIMIT $3',
          ),
          [version, afterId ?? '', limit],
        )
      ).map(rowToOccurrence),
    listSeriesWithoutNext: async (limit, afterId) =>
      (
        await q(
          'without_next',
          `SELECT s.* FROM series s LEFT JOIN occurrences o ON o.id = s.next_occurrence_id
           WHERE s.status = 'active' AND s.enabled AND s.id > $1 AND (o.id IS NULL OR o.status IN ${FINISHED})
           ORDER BY s.id LIMIT $2`,
          [afterId ?? '', limit],
        )
      ).map(rowToSeries),
  };
  return store;
}
