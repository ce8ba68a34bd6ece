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
 * - `commit`: one statement of CTEs (./commit-sql.ts). New rows arrive whole as one `json`
 *   array per table; updates as typed arrays of the columns they change, against the row a
 *   load read at the version they expect (./loaded-rows.ts). The rows to write are locked
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
import { createHash } from 'node:crypto';
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
import { type CommitTable, commitSql, commitTable } from './commit-sql.js';
import { LoadedRows } from './loaded-rows.js';
import { attempts } from '../tables/attempts.js';
import { occurrences } from '../tables/occurrences.js';
import { series } from '../tables/series.js';
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

const SERIES = commitTable('series', 'series', 1, series.columns);
const OCCURRENCES = commitTable('occurrences', 'occurrence', 2, occurrences.columns);
const ATTEMPTS = commitTable('attempts', 'attempt', 3, attempts.columns);

/** How many commit statements of different shapes a store makes before it sends updates whole. */
const MAX_COMMIT_SHAPES = 128;
/** How many loaded rows of each table a store keeps for its commits' narrow updates. */
const LOADED_ROWS_LIMIT = 4_096;

/** One table's writes in a commit, split into inserts and updates, with the columns the updates change. */
interface TableCommit {
  spec: CommitTable;
  ids: string[];
  inserts: { rows: Row[]; places: number[] };
  updates: { rows: Row[]; ids: string[]; expected: number[]; places: number[] };
  /** Indexes of the columns some update changes (never `id`), ascending; null when there are no updates. */
  changed: number[] | null;
}

/**
 * A table's writes: each row made once; an update of a row some load read at the version it
 * expects sets the columns that differ from what was read (always the `jsonb` ones, whose
 * values the record may share with the read row), any other update sets every column.
 */
function tableCommit<R extends { id: string }>(
  spec: CommitTable,
  writes: RowWrite<R>[],
  toRow: (record: R) => Row,
  loaded: LoadedRows,
): TableCommit | null {
  if (writes.length === 0) return null;
  const { columns, json } = spec;
  const c: TableCommit = {
    spec,
    ids: [],
    inserts: { rows: [], places: [] },
    updates: { rows: [], ids: [], expected: [], places: [] },
    changed: null,
  };
  let changed: Uint8Array | null = null;
  for (let i = 0; i < writes.length; i++) {
    const { record, expectedVersion } = writes[i]!;
    const row = toRow(record);
    c.ids.push(record.id);
    if (expectedVersion === null) {
      c.inserts.rows.push(row);
      c.inserts.places.push(i);
      continue;
    }
    const u = c.updates;
    u.rows.push(row);
    u.ids.push(record.id);
    u.expected.push(expectedVersion);
    u.places.push(i);
    changed ??= new Uint8Array(columns.length);
    const before = loaded.take(record.id, expectedVersion);
    for (let k = 1; k < columns.length; k++)
      if (!changed[k] && (!before || json[k] || (row[columns[k]!] ?? null) !== before[k]))
        changed[k] = 1;
  }
  if (changed) c.changed = [...changed.keys()].filter((k) => changed[k] === 1);
  return c;
}

/** The commit statement's parameters for `tables`, in the order commitSql takes them. */
function commitValues(tables: readonly TableCommit[]): unknown[] {
  const values: unknown[] = [];
  for (const c of tables) {
    if (c.inserts.rows.length > 0) values.push(JSON.stringify(c.inserts.rows), c.inserts.places);
    if (c.changed) {
      const u = c.updates;
      values.push(u.ids, u.expected, u.places);
      for (const k of c.changed) {
        const column = c.spec.columns[k]!;
        values.push(
          c.spec.json[k]
            ? u.rows.map((r) => (r[column] == null ? null : JSON.stringify(r[column])))
            : u.rows.map((r) => r[column] ?? null),
        );
      }
    }
    values.push(c.ids);
  }
  return values;
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
 *
 * It runs unnamed, so it is planned with its ids each time. Named, a connection kept the plan
 * PostgreSQL made at its sixth run, and on a first spike that was when `attempts` held almost
 * nothing: the plan read it by sequential scan, and each load took longer as the spike filled
 * it (35–45 s of loads in a 100k spike instead of 5–8 s, in two runs of nine; 33–80 ms a load
 * against 2 ms once 100,000 attempts were in). The commits stay named: their plans cost more
 * to make than the risk (docs/performance/spike-profile.md, "Narrow updates on PostgreSQL").
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
  /** The commit statement of each shape (./commit-sql.ts), made on first use; named by a hash of its text. */
  const commitStatements = new Map<string, { name: string; text: string }>();
  const commitStatement = (tables: TableCommit[]) => {
    const keyOf = () =>
      tables
        .map(
          (c) =>
            `${c.spec.tab}${c.inserts.rows.length > 0 ? 'i' : ''}${c.changed?.join('.') ?? ''}`,
        )
        .join('|');
    let key = keyOf();
    let statement = commitStatements.get(key);
    if (statement) return statement;
    if (commitStatements.size >= MAX_COMMIT_SHAPES) {
      // Past the bound, every update sets every column: at most one more shape per set of
      // tables and kind of write, made below when it is not there yet.
      for (const c of tables)
        if (c.changed) c.changed = c.spec.columns.map((_, k) => k).filter((k) => k > 0);
      key = keyOf();
      statement = commitStatements.get(key);
      if (statement) return statement;
    }
    const text = commitSql(
      tables.map((c) => ({
        spec: c.spec,
        inserts: c.inserts.rows.length > 0,
        updateColumns: c.changed,
      })),
    );
    const hash = createHash('sha256').update(text).digest('base64url').slice(0, 20);
    commitStatements.set(key, (statement = { name: `commit_${hash}`, text }));
    return statement;
  };
  const loaded = {
    occurrences: new LoadedRows(OCCURRENCE_COLUMNS.indexOf('version'), LOADED_ROWS_LIMIT),
    attempts: new LoadedRows(ATTEMPT_COLUMNS.indexOf('version'), LOADED_ROWS_LIMIT),
    series: new LoadedRows(SERIES_COLUMNS.indexOf('version'), LOADED_ROWS_LIMIT),
  };
  const q = async (name: string, text: string, values: unknown[]): Promise<Row[]> => {
    const config: QueryConfig<unknown[]> = { name: `${prefix}_${name}`, text, values };
    return (await db.query(config)).rows;
  };
  /** An unnamed statement: planned with its parameters each time it runs (see LOAD_SQL). */
  const planned = async (text: string, values: unknown[]): Promise<Row[]> =>
    (await db.query({ text, values })).rows;
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
      const [row] = await planned(LOAD_SQL, [[...new Set(o)], [...new Set(a)], [...new Set(s)]]);
      const read = <R>(rows: unknown[][], kept: LoadedRows, toRecord: (v: unknown[]) => R) =>
        rows.map((v) => (kept.note(v), toRecord(v)));
      return {
        occurrences: read(row!.occurrences as unknown[][], loaded.occurrences, arrayToOccurrence),
        attempts: read(row!.attempts as unknown[][], loaded.attempts, arrayToAttempt),
        series: read(row!.series as unknown[][], loaded.series, arrayToSeries),
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
      // Only the tables written, in change-set order (see commitSql).
      const tables = [
        tableCommit(SERIES, changes.series, seriesToRow, loaded.series),
        tableCommit(OCCURRENCES, changes.occurrences, occurrenceToRow, loaded.occurrences),
        tableCommit(ATTEMPTS, changes.attempts, attemptToRow, loaded.attempts),
      ].filter((c) => c !== null);
      const statement = commitStatement(tables);
      const values = commitValues(tables);
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
