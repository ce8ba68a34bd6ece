/**
 * The engine's {@link Store} port on better-sqlite3 (the `./sqlite` entry of the engine
 * package), with a dispatch journal (docs/decisions/0016). Each port call does its work
 * synchronously in one database transaction and answers with a settled promise, except a
 * commit with writes of the caller's, whose transaction stays open across their awaits.
 * - `commit` checks every row's version (the overlay's for rows with unfolded images, the
 *   table's for the others: one set-based statement per table), writes series to their table,
 *   and appends every occurrence and attempt as one journal row (multi-row INSERTs): a unit's
 *   appends touch one B-tree's right edge and no secondary index. The caller's `writes` run
 *   next, on this connection, in the same transaction. The overlay notes the unit's rows only
 *   once the transaction has committed, so a conflict, a failing write or a crash leaves it as
 *   the database is, and it is rebuilt from the journal only at open (docs/decisions/0025).
 * - `load` reads a row's newest image from the overlay (or its journal row) and the others
 *   from the tables (`WHERE id IN (SELECT value FROM json_each(?))`), with the closure rules of
 *   {@link Store.load}.
 * - The fold brings the tables up to date in the background, in slices of at most
 *   `fold.sliceMs` each followed by as long a pause (so it takes at most half of the event loop),
 *   once the store has had no commit for `fold.idleMs` (or between commits when the journal
 *   passes `fold.maxRows`); {@link SqliteStore.settle} folds what a read needs first.
 * @module
 */
import type { Database, Statement } from 'better-sqlite3';
import type {
  ChangeSet,
  CommitResult,
  DueRef,
  RowRef,
  SettleScope,
  Snapshot,
  Store,
  StoreWrite,
} from '../ports.js';
import type { AttemptRecord, OccurrenceRecord, SeriesRecord } from '../model.js';
import type { StoreMaintenance, StoreReads } from '../reads.js';
import { startCheckpointer } from './checkpointer.js';
import { Fold } from './fold.js';
import { ATTEMPT, Journal, OCCURRENCE, Overlay, type Entry, type Pending } from './journal.js';
import {
  ATTEMPT_COLUMNS,
  attemptToRow,
  OCCURRENCE_COLUMNS,
  occurrenceToRow,
  rowToAttempt,
  rowToOccurrence,
  rowToSeries,
  SERIES_COLUMNS,
  seriesToRow,
} from './rows.js';
import { createSqliteMaintenance, createSqliteReads } from './reads.js';
import { ensureEngineSchema } from './schema.js';

/** Options of {@link createSqliteStore}. */
export interface SqliteStoreOptions {
  /**
   * Run WAL checkpoints on a second connection in a worker thread (PASSIVE, every
   * `checkpointIntervalMs`) and turn automatic checkpoints off on this connection. An
   * automatic checkpoint runs inside whichever commit or fold slice crosses the threshold,
   * copying and syncing thousands of pages on the event loop. Off by default (a worker per
   * store is heavy for tests).
   * @defaultValue false
   */
  checkpointInWorker?: boolean;
  /** Ms between two checkpoints of the worker (with `checkpointInWorker`). @defaultValue 250 */
  checkpointIntervalMs?: number;
  /**
   * SQLite page cache for this connection, in KiB (PRAGMA cache_size = -N).
   * @defaultValue 65536 (64 MiB)
   */
  cacheKiB?: number;
  /**
   * Create the store's tables when absent ({@link ensureEngineSchema}): for an embedder's own
   * database. The service applies its migrations instead (the journal table is the store's
   * own and is always created when absent). @defaultValue false
   */
  createTables?: boolean;
  /**
   * The background fold (docs/decisions/0016); `false` leaves the journal unfolded until a
   * {@link SqliteStore.settle} (tests of reads of unfolded rows).
   */
  fold?:
    | false
    | {
        /** Longest slice of folding between two yields to the event loop. @defaultValue 8 */
        sliceMs?: number;
        /** Fold once no commit came for this long. @defaultValue 50 */
        idleMs?: number;
        /** Fold between commits, busy or not, once the journal holds this many rows. @defaultValue 2,000,000 */
        maxRows?: number;
      };
  /** Row images of the overlay kept in memory (beyond it they are read from the journal). @defaultValue 100,000 */
  imageCacheRows?: number;
  /** Monotonic milliseconds, to time the fold's slices. @defaultValue performance.now */
  now?: () => number;
}

/** The engine's Store on SQLite, with its read model and maintenance writes (docs/decisions/0021). */
export interface SqliteStore extends Store<Database>, StoreReads, StoreMaintenance {
  /** Folds what a read needs (see {@link Store.settle}). */
  settle(scope?: SettleScope): Promise<void>;
  /** Journal rows not folded yet. */
  readonly unfolded: number;
  /**
   * How often the overlay was rebuilt from the whole journal since open (open's own rebuild not
   * counted): only after a read's fold inside a transaction of the caller's. Commits never cause
   * one; a test asserts it stays 0 through a spike.
   */
  readonly restores: number;
  /**
   * Folds the oldest journal rows for one slice of `fold.sliceMs` and answers how many are
   * left: for a caller that must not hold its connection through a whole `settle()` (the host
   * takes its connection's lock for each slice, so requests are served in between).
   */
  foldSome(): Promise<number>;
  /** Why the last background fold failed (the journal keeps its rows and the fold tries again), or null. */
  foldError: unknown;
  /** Stops the background fold and the checkpoint worker (the database stays open; the journal keeps what is not folded). */
  close(): Promise<void>;
}

// A due cursor's `at` when there is none: below every epoch-ms instant.
const NO_CURSOR_AT = -Number.MAX_SAFE_INTEGER;
/** Journal rows one fold transaction takes at most (a slice runs several while time is left). */
const FOLD_CHUNK = 256;

const IN_TRANSACTION =
  "the engine's SQLite store commits in a transaction of its own: pass what must commit with the unit as commit's `writes`, not a transaction around it";

class Conflict extends Error {
  constructor(readonly conflicts: RowRef[]) {
    super('conflict');
  }
}

/**
 * A {@link Store} on an open database. The service opens it with its migrations applied; an
 * embedder passes `createTables: true`. The database stays the caller's: close it yourself,
 * after `close()`.
 *
 * @example
 * const store = createSqliteStore(new Database('./wakeup.sqlite'), { createTables: true });
 */
export function createSqliteStore(db: Database, options: SqliteStoreOptions = {}): SqliteStore {
  if (options.createTables) ensureEngineSchema(db);
  db.pragma(`cache_size = -${Math.max(2048, Math.floor(options.cacheKiB ?? 65536))}`);
  const checkpointer =
    options.checkpointInWorker && !db.memory
      ? startCheckpointer(db, options.checkpointIntervalMs ?? 250)
      : null;
  const now = options.now ?? (() => performance.now());
  const overlay = new Overlay(options.imageCacheRows ?? 100_000);
  const journal = new Journal(db);
  journal.restore(overlay);
  const fold = new Fold(db, overlay);
  const IDS = 'SELECT value FROM json_each(?)';
  const OCC = OCCURRENCE_COLUMNS.join(', ');
  const ATT = ATTEMPT_COLUMNS.join(', ');
  const SER = SERIES_COLUMNS.join(', ');
  const q = {
    occurrences: db
      .prepare<[string]>(`SELECT ${OCC} FROM occurrences WHERE id IN (${IDS})`)
      .raw(true),
    attempts: db.prepare<[string]>(`SELECT ${ATT} FROM attempts WHERE id IN (${IDS})`).raw(true),
    series: db.prepare<[string]>(`SELECT ${SER} FROM series WHERE id IN (${IDS})`).raw(true),
    occVersions: db
      .prepare<[string]>(`SELECT id, version FROM occurrences WHERE id IN (${IDS})`)
      .raw(true),
    attVersions: db
      .prepare<[string]>(`SELECT id, version FROM attempts WHERE id IN (${IDS})`)
      .raw(true),
    serVersions: db
      .prepare<[string]>(`SELECT id, version FROM series WHERE id IN (${IDS})`)
      .raw(true),
    attemptsOf: db
      .prepare<[string]>(`SELECT ${ATT} FROM attempts WHERE occurrence_id = ? ORDER BY n`)
      .raw(true),
    unacknowledged: db
      .prepare<[string, number]>(
        `SELECT ${ATT} FROM attempts WHERE status = 'requested' AND provider_call_id IS NULL AND id > ? ORDER BY id LIMIT ?`,
      )
      .raw(true),
    pendingFallbacks: db
      .prepare<[string, number]>(
        `SELECT ${OCC} FROM occurrences WHERE fallback_state = 'pending' AND id > ? ORDER BY id LIMIT ?`,
      )
      .raw(true),
    occAccounts: db
      .prepare<[string]>(`SELECT account_id FROM occurrences WHERE id IN (${IDS})`)
      .raw(true),
    attAccounts: db
      .prepare<[string]>(`SELECT account_id FROM attempts WHERE id IN (${IDS})`)
      .raw(true),
    insertSeries: db.prepare(
      `INSERT INTO series (${SER}) VALUES (${SERIES_COLUMNS.map(() => '?').join(', ')})`,
    ),
    updateSeries: db.prepare(
      `UPDATE series SET ${SERIES_COLUMNS.slice(1)
        .map((c) => `${c} = ?`)
        .join(', ')} WHERE id = ?`,
    ),
    staleZone: db
      .prepare<[string, string, number]>(
        `SELECT ${OCC} FROM occurrences
         WHERE status = 'pending' AND tzdata_version IS NOT NULL AND tzdata_version <> ? AND id > ? ORDER BY id LIMIT ?`,
      )
      .raw(true),
    withoutNext: db
      .prepare<[string, number]>(
        `SELECT ${SERIES_COLUMNS.map((c) => `s.${c}`).join(', ')} FROM series s
         LEFT JOIN occurrences o ON o.id = s.next_occurrence_id
         WHERE s.status = 'active' AND s.enabled = 1 AND s.id > ?
           AND (o.id IS NULL OR o.status IN ('confirmed', 'missed', 'failed', 'cancelled', 'unconfirmed'))
         ORDER BY s.id LIMIT ?`,
      )
      .raw(true),
  };
  // Each side is limited on its own, then merged, so a page never scans a whole spike.
  const due: Statement<unknown[]> = db
    .prepare(
      `SELECT kind, id, at FROM (
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
       ) ORDER BY at, kind, id LIMIT @limit`,
    )
    .raw(true);

  const load = db.transaction(
    (keys: {
      occurrences?: readonly string[];
      attempts?: readonly string[];
      series?: readonly string[];
    }) => {
      const occ = new Map<string, OccurrenceRecord>();
      const att = new Map<string, AttemptRecord>();
      const ser = new Map<string, SeriesRecord>();
      const readSeries = (ids: Iterable<string>) => {
        const want = [...new Set(ids)].filter((id) => !ser.has(id));
        if (want.length === 0) return;
        for (const row of q.series.all(JSON.stringify(want)) as unknown[][])
          ser.set(row[0] as string, rowToSeries(row));
      };
      /** Rows with unfolded images from the overlay, the others from `stmt` in one statement. */
      const read = <R>(
        ids: Iterable<string>,
        into: Map<string, R>,
        pending: Map<string, Pending>,
        stmt: Statement<[string]>,
        toRecord: (row: unknown[]) => R,
      ) => {
        const want: string[] = [];
        for (const id of ids) {
          if (into.has(id)) continue;
          const p = pending.get(id);
          if (p) into.set(id, toRecord(journal.image(p)));
          else want.push(id);
        }
        if (want.length === 0) return;
        for (const row of stmt.all(JSON.stringify(want)) as unknown[][])
          into.set(row[0] as string, toRecord(row));
      };
      readSeries(keys.series ?? []);
      read(keys.attempts ?? [], att, overlay.attempts, q.attempts, rowToAttempt);
      const occIds: string[] = [...(keys.occurrences ?? [])];
      for (const x of att.values()) if (x.occurrenceId !== null) occIds.push(x.occurrenceId);
      for (const x of ser.values())
        if (x.nextOccurrenceId !== null) occIds.push(x.nextOccurrenceId);
      read(occIds, occ, overlay.occurrences, q.occurrences, rowToOccurrence);
      const live: string[] = [];
      const owners: string[] = [];
      for (const x of occ.values()) {
        if (x.liveAttemptId !== null) live.push(x.liveAttemptId);
        if (x.scheduleId !== null) owners.push(x.scheduleId);
      }
      read(live, att, overlay.attempts, q.attempts, rowToAttempt);
      readSeries(owners);
      return {
        occurrences: [...occ.values()],
        attempts: [...att.values()],
        series: [...ser.values()],
      };
    },
  );

  /** Conflicts of `writes` against the overlay (rows in it) and the table (the others, one statement). */
  const checkVersions = (
    stmt: Statement<[string]>,
    kind: RowRef['kind'],
    writes: { record: { id: string }; expectedVersion: number | null }[],
    pending: Map<string, Pending> | null,
    out: RowRef[],
  ) => {
    if (writes.length === 0) return;
    const ask: string[] = [];
    for (const w of writes) if (!pending?.has(w.record.id)) ask.push(w.record.id);
    const stored = new Map<string, number>();
    if (ask.length > 0)
      for (const [id, version] of stmt.all(JSON.stringify(ask)) as [string, number][])
        stored.set(id, version);
    const seen = new Set<string>();
    for (const w of writes) {
      const v = pending?.get(w.record.id)?.version ?? stored.get(w.record.id);
      const ok = w.expectedVersion === null ? v === undefined : v === w.expectedVersion;
      if (!ok || seen.has(w.record.id)) out.push({ kind, id: w.record.id });
      seen.add(w.record.id);
    }
  };
  /**
   * A unit's checks and writes, inside the transaction: conflicts throw; the series are written
   * to their table and the occurrences and attempts appended to the journal. Answers what the
   * overlay must note once the transaction has committed.
   */
  const stage = (changes: ChangeSet): { entries: Entry[]; seqs: number[] } => {
    const conflicts: RowRef[] = [];
    checkVersions(q.serVersions, 'series', changes.series, null, conflicts);
    checkVersions(q.occVersions, 'occurrence', changes.occurrences, overlay.occurrences, conflicts);
    checkVersions(q.attVersions, 'attempt', changes.attempts, overlay.attempts, conflicts);
    if (conflicts.length > 0) throw new Conflict(conflicts);
    for (const w of changes.series) {
      const row = seriesToRow(w.record);
      if (w.expectedVersion === null) q.insertSeries.run(row);
      else {
        row.push(row.shift());
        q.updateSeries.run(row);
      }
    }
    const entries: Entry[] = [];
    for (const { record: r } of changes.occurrences) {
      entries.push({
        kind: OCCURRENCE,
        id: r.id,
        version: r.version,
        at: r.nextDueAt,
        account: r.accountId,
        row: occurrenceToRow(r),
      });
    }
    for (const { record: r } of changes.attempts) {
      const at = r.occurrenceId === null ? r.deadlineAt : null;
      entries.push({
        kind: ATTEMPT,
        id: r.id,
        version: r.version,
        at,
        account: r.accountId,
        row: attemptToRow(r),
      });
    }
    return { entries, seqs: journal.append(entries) };
  };
  const commitRows = db.transaction(stage);
  /**
   * A unit with writes of the caller's: the same transaction, held across the writes' awaits.
   * The store's other calls wait for it ({@link gate}), so none of their statements lands inside it.
   */
  const commitWithWrites = async (changes: ChangeSet, writes: readonly StoreWrite<Database>[]) => {
    db.exec('BEGIN IMMEDIATE');
    try {
      const staged = stage(changes);
      for (const write of writes) {
        const done = write(db);
        if (done instanceof Promise) await done;
      }
      db.exec('COMMIT');
      return staged;
    } catch (err) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw err;
    }
  };
  /** Settles while a commit with writes holds the connection's transaction; null when none does. */
  let gate: Promise<unknown> | null = null;
  const waitGate = async () => {
    while (gate) await gate.catch(() => undefined);
  };

  /** How often the overlay was rebuilt from the journal since open: a settle inside a caller's transaction that rolled back. */
  let restores = 0;
  // A fold inside a transaction of the caller's (a read's settle) is a savepoint: if the caller
  // rolls back, the overlay forgot rows that are back. The next call then reads it again.
  let nested = false;
  const check = () => {
    if (nested && !db.inTransaction) {
      nested = false;
      restores++;
      journal.restore(overlay);
    }
  };

  // ---- the background fold -------------------------------------------------------------------
  const foldOptions =
    options.fold === false ? null : { sliceMs: 8, idleMs: 50, maxRows: 2_000_000, ...options.fold };
  let lastCommitAt = -Infinity;
  let foldTimer: NodeJS.Timeout | null = null;
  let closed = false;
  /** Folds the oldest rows for up to `sliceMs`; false when there was nothing to do or the connection was busy. */
  const foldSlice = (sliceMs: number): boolean => {
    if (db.inTransaction || !db.open) return false;
    check();
    if (overlay.rows === 0) return false;
    const end = now() + sliceMs;
    do fold.oldest(FOLD_CHUNK);
    while (overlay.rows > 0 && now() < end);
    return true;
  };
  const scheduleFold = (delayMs: number) => {
    if (!foldOptions || closed || foldTimer || overlay.rows === 0) return;
    foldTimer = setTimeout(() => {
      foldTimer = null;
      const idle = now() - lastCommitAt >= foldOptions.idleMs;
      try {
        if (idle || overlay.rows >= foldOptions.maxRows) foldSlice(foldOptions.sliceMs);
        store.foldError = null;
      } catch (error) {
        // The journal keeps the rows: try again later, and say why meanwhile.
        store.foldError = error;
        scheduleFold(1000);
        return;
      }
      // At most half of the event loop while other work runs (a start-up, a restart's recovery):
      // after a slice the next waits as long as the slice took at most.
      scheduleFold(idle ? foldOptions.sliceMs : foldOptions.idleMs);
    }, delayMs);
    foldTimer.unref();
  };
  const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
  /** Folds everything, a slice at a time. */
  const settleAll = async () => {
    check();
    while (overlay.rows > 0) {
      foldSlice(foldOptions?.sliceMs ?? 8);
      if (overlay.rows > 0) await yieldToLoop();
    }
  };
  scheduleFold(0);

  /** Folds the journal rows of `scope` (see {@link Store.settle}), synchronously. */
  const settleScope = (scope: SettleScope) => {
    check();
    if (overlay.rows === 0) return;
    if (db.inTransaction) nested = true; // folded inside the caller's transaction: see check()
    const accounts: (string | null)[] = [...(scope.accounts ?? [])];
    const owner = (
      ids: readonly string[] | undefined,
      pending: Map<string, Pending>,
      stmt: Statement<[string]>,
    ) => {
      if (!ids?.length) return;
      const ask: string[] = [];
      for (const id of ids) {
        const p = pending.get(id);
        if (p) accounts.push(p.account);
        else ask.push(id);
      }
      if (ask.length > 0)
        for (const [account] of stmt.all(JSON.stringify(ask)) as [string | null][])
          accounts.push(account);
    };
    owner(scope.occurrences, overlay.occurrences, q.occAccounts);
    owner(scope.attempts, overlay.attempts, q.attAccounts);
    fold.accounts(accounts);
  };
  const reads = createSqliteReads(db, settleScope);
  const maintenance = createSqliteMaintenance(db, settleScope);

  const store: SqliteStore = {
    ...reads,
    ...maintenance,
    foldError: null,
    get unfolded() {
      return overlay.rows;
    },
    get restores() {
      return restores;
    },
    close: async () => {
      closed = true;
      if (foldTimer) clearTimeout(foldTimer);
      foldTimer = null;
      await checkpointer?.close();
    },
    foldSome: async () => {
      if (gate) await waitGate();
      foldSlice(foldOptions?.sliceMs ?? 8);
      return overlay.rows;
    },
    settle: async (scope) => {
      if (gate) await waitGate();
      if (!scope) return settleAll();
      settleScope(scope);
    },
    load: async (keys): Promise<Snapshot> => {
      if (gate) await waitGate();
      check();
      return load(keys);
    },
    commit: async (changes, options): Promise<CommitResult> => {
      if (gate) await waitGate();
      check();
      if (db.inTransaction) throw new Error(IN_TRANSACTION);
      const writes = options?.writes ?? [];
      let staged: { entries: Entry[]; seqs: number[] };
      try {
        if (writes.length === 0) staged = commitRows(changes);
        else {
          const running = commitWithWrites(changes, writes);
          gate = running;
          try {
            staged = await running;
          } finally {
            gate = null;
          }
        }
      } catch (err) {
        if (err instanceof Conflict) return { ok: false, conflicts: err.conflicts };
        throw err;
      }
      Journal.note(staged.entries, staged.seqs, overlay);
      lastCommitAt = now();
      scheduleFold(foldOptions?.idleMs ?? 0);
      return { ok: true };
    },
    listDue: async ({ until, limit, after }) => {
      if (gate) await waitGate();
      check();
      const page = (from: { at: number; kind: DueRef['kind']; id: string }, n: number) =>
        (
          due.all({ at: from.at, until, kind: from.kind, id: from.id, limit: n }) as [
            DueRef['kind'],
            string,
            number,
          ][]
        ).map(([kind, id, at]) => ({ kind, id, at }));
      const start = after ?? { at: NO_CURSOR_AT, kind: 'occurrence' as const, id: '' };
      if (overlay.size === 0) return page(start, limit);
      // Rows with unfolded images are due at their newest image's key, not their table row's.
      const out: DueRef[] = [];
      for (let from = start; ;) {
        const rows = page(from, limit);
        for (const r of rows)
          if (!(r.kind === 'occurrence' ? overlay.occurrences : overlay.attempts).has(r.id))
            out.push(r);
        if (rows.length < limit || out.length >= limit) break;
        from = rows[rows.length - 1]!;
      }
      // The pending rows' due keys in (instant, id) order past the cursor: at most `limit` of each kind.
      for (const [kind, map, index] of [
        ['attempt', overlay.attempts, overlay.due.attempts],
        ['occurrence', overlay.occurrences, overlay.due.occurrences],
      ] as const) {
        // Past the cursor: its own instant after its id when the kind is the cursor's or sorts after it.
        const fromId = kind === start.kind ? start.id : kind > start.kind ? '' : '\uffff';
        for (const { at, id } of index.range(start.at, fromId, until, limit, (x) => map.get(x)?.at))
          out.push({ kind, id, at });
      }
      out.sort(
        (x, y) =>
          x.at - y.at ||
          (x.kind < y.kind ? -1 : x.kind > y.kind ? 1 : x.id < y.id ? -1 : x.id > y.id ? 1 : 0),
      );
      return out.length > limit ? out.slice(0, limit) : out;
    },
    listAttempts: async (occurrenceId) => {
      await settleAll();
      return (q.attemptsOf.all(occurrenceId) as unknown[][]).map(rowToAttempt);
    },
    listUnacknowledgedAttempts: async (limit, afterId) => {
      await settleAll();
      return (q.unacknowledged.all(afterId ?? '', limit) as unknown[][]).map(rowToAttempt);
    },
    listPendingFallbacks: async (limit, afterId) => {
      await settleAll();
      return (q.pendingFallbacks.all(afterId ?? '', limit) as unknown[][]).map(rowToOccurrence);
    },
    listStaleZoneOccurrences: async (version, limit, afterId) => {
      await settleAll();
      return (q.staleZone.all(version, afterId ?? '', limit) as unknown[][]).map(rowToOccurrence);
    },
    listSeriesWithoutNext: async (limit, afterId) => {
      await settleAll();
      return (q.withoutNext.all(afterId ?? '', limit) as unknown[][]).map(rowToSeries);
    },
  };
  return store;
}
