/**
 * The engine's {@link Store} port on better-sqlite3 (the `./sqlite` entry of the engine
 * package). Each port call does its work synchronously in one database transaction and
 * answers with a settled promise: `load` reads every row a unit needs with one set-based
 * statement per table and step (`WHERE id IN (SELECT value FROM json_each(?))`), `commit`
 * checks every row's version with one statement per table and then writes, all in one
 * transaction. The runtime batches a due spike into few units, so commits are amortised over
 * hundreds of rows.
 * @module
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Database, Statement } from 'better-sqlite3';
import type { AttemptRecord, ChangeSet, CommitResult, DueRef, OccurrenceRecord, RowRef, SeriesRecord, Snapshot, Store } from '../ports.js';
import { ATTEMPT_COLUMNS, attemptToRow, attemptUpdateParams, prepareAttemptStatements, rowToAttempt } from './attempts.js';
import { ensureEngineSchema } from './schema.js';
import { rowToSeries, SERIES_COLUMNS, seriesToRow } from './series.js';
import {
  OCCURRENCE_COLUMNS,
  occurrenceToRow,
  occurrenceUpdateParams,
  prepareOccurrenceStatements,
  rowToOccurrence,
} from './occurrences.js';

/** Options of {@link createSqliteStore}. */
export interface SqliteStoreOptions {
  /**
   * Run WAL checkpoints on a second connection in a worker thread (PASSIVE, every
   * `checkpointIntervalMs`) and turn automatic checkpoints off on this connection. An
   * automatic checkpoint runs inside whichever commit crosses the threshold, copying and
   * syncing thousands of pages on the event loop; at a dispatch spike that is the largest
   * single stall and about a third of the write time. Off by default (a worker per store is
   * heavy for tests); the host should turn it on for its one production store.
   * @defaultValue false
   */
  checkpointInWorker?: boolean;
  /** @defaultValue 250 */
  checkpointIntervalMs?: number;
  /**
   * SQLite page cache for this connection, in KiB (PRAGMA cache_size = -N). A spike touches
   * many pages of the occurrence and attempt indexes; a larger cache keeps them in memory.
   * @defaultValue 65536 (64 MiB)
   */
  cacheKiB?: number;
  /**
   * Create the store's tables when absent ({@link ensureEngineSchema}): for an embedder's own
   * database. The service applies its migrations instead. @defaultValue false
   */
  createTables?: boolean;
}

/** The engine's Store on SQLite; `close()` stops the checkpoint worker (the database stays open). */
export interface SqliteStore extends Store {
  close(): Promise<void>;
}

// The checkpoint worker: plain CommonJS, so it needs no TypeScript loader.
const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy: next time */ }
}, workerData.intervalMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

/** Starts the checkpoint worker on `db`'s file and turns automatic checkpoints off on `db`. */
function startCheckpointer(db: Database, intervalMs: number): { close(): Promise<void> } {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(CHECKPOINTER, { eval: true, workerData: { driver, file: db.name, intervalMs } });
  worker.unref();
  db.pragma('wal_autocheckpoint = 0');
  return {
    close: () =>
      new Promise<void>((resolve) => {
        worker.ref(); // keep the process alive until the worker has closed its connection
        worker.once('exit', () => resolve());
        worker.postMessage('close');
        setTimeout(() => void worker.terminate(), 2000).unref();
      }).finally(() => {
        if (db.open) db.pragma('wal_autocheckpoint = 1000');
      }),
  };
}

// A due cursor's `at` when there is none: below every epoch-ms instant.
const NO_CURSOR_AT = -Number.MAX_SAFE_INTEGER;
/** Rows remembered between a load and its commit (for column-level updates) before the memory is dropped. */
const SEEN_LIMIT = 100_000;

/**
 * A {@link Store} on an open database. The service opens it with `openDatabase` (its
 * migrations create the tables); an embedder passes `createTables: true`. The database
 * stays the caller's: close it yourself.
 *
 * @example
 * const store = createSqliteStore(new Database('./wakeup.sqlite'), { createTables: true });
 */
export function createSqliteStore(db: Database, options: SqliteStoreOptions = {}): SqliteStore {
  if (options.createTables) ensureEngineSchema(db);
  db.pragma(`cache_size = -${Math.max(2048, Math.floor(options.cacheKiB ?? 65536))}`);
  const checkpointer = options.checkpointInWorker && !db.memory ? startCheckpointer(db, options.checkpointIntervalMs ?? 250) : null;
  const o = prepareOccurrenceStatements(db);
  const a = prepareAttemptStatements(db);
  const IDS = 'SELECT value FROM json_each(?)';
  const OCC = OCCURRENCE_COLUMNS.join(', ');
  const ATT = ATTEMPT_COLUMNS.join(', ');
  const SER = SERIES_COLUMNS.join(', ');
  const q = {
    occurrences: db.prepare<[string]>(`SELECT ${OCC} FROM occurrences WHERE id IN (${IDS})`).raw(true),
    attempts: db.prepare<[string]>(`SELECT ${ATT} FROM attempts WHERE id IN (${IDS})`).raw(true),
    series: db.prepare<[string]>(`SELECT ${SER} FROM series WHERE id IN (${IDS})`).raw(true),
    occVersions: db.prepare<[string]>(`SELECT id, version FROM occurrences WHERE id IN (${IDS})`).raw(true),
    attVersions: db.prepare<[string]>(`SELECT id, version FROM attempts WHERE id IN (${IDS})`).raw(true),
    serVersions: db.prepare<[string]>(`SELECT id, version FROM series WHERE id IN (${IDS})`).raw(true),
    insertSeries: db.prepare(`INSERT INTO series (${SER}) VALUES (${SERIES_COLUMNS.map(() => '?').join(', ')})`),
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

  // Rows handed out by `load`, by id, so that a commit of the version read writes only the
  // columns that changed: SQLite rewrites every index whose columns appear in SET, changed or not.
  const seenOcc = new Map<string, unknown[]>();
  const seenAtt = new Map<string, unknown[]>();
  const partialOcc = new Map<number, Statement<unknown[]>>();
  const partialAtt = new Map<number, Statement<unknown[]>>();
  const remember = (map: Map<string, unknown[]>, id: string, row: unknown[]) => {
    if (map.size >= SEEN_LIMIT) map.clear();
    map.set(id, row);
  };
  const partialUpdate = (
    table: string,
    columns: readonly string[],
    cache: Map<number, Statement<unknown[]>>,
    before: unknown[],
    after: unknown[],
  ): void => {
    let mask = 0;
    const values: unknown[] = [];
    for (let i = 1; i < columns.length; i++) {
      if (before[i] !== after[i]) {
        mask += 2 ** i;
        values.push(after[i]);
      }
    }
    if (mask === 0) return;
    let stmt = cache.get(mask);
    if (!stmt) {
      const set = columns.filter((_, i) => i > 0 && Math.floor(mask / 2 ** i) % 2 === 1).map((c) => `${c} = ?`);
      stmt = db.prepare(`UPDATE ${table} SET ${set.join(', ')} WHERE id = ?`);
      cache.set(mask, stmt);
    }
    values.push(after[0]);
    stmt.run(values);
  };

  const load = db.transaction((keys: { occurrences?: readonly string[]; attempts?: readonly string[]; series?: readonly string[] }) => {
    const occ = new Map<string, OccurrenceRecord>();
    const att = new Map<string, AttemptRecord>();
    const ser = new Map<string, SeriesRecord>();
    const readSeries = (ids: Iterable<string>) => {
      const want = [...new Set(ids)].filter((id) => !ser.has(id));
      if (want.length === 0) return;
      for (const row of q.series.all(JSON.stringify(want)) as unknown[][]) ser.set(row[0] as string, rowToSeries(row));
    };
    const readAttempts = (ids: Iterable<string>) => {
      const want = [...new Set(ids)].filter((id) => !att.has(id));
      if (want.length === 0) return;
      for (const row of q.attempts.all(JSON.stringify(want)) as unknown[][]) {
        remember(seenAtt, row[0] as string, row);
        att.set(row[0] as string, rowToAttempt(row));
      }
    };
    const readOccurrences = (ids: Iterable<string>) => {
      const want = [...new Set(ids)].filter((id) => !occ.has(id));
      if (want.length === 0) return;
      for (const row of q.occurrences.all(JSON.stringify(want)) as unknown[][]) {
        remember(seenOcc, row[0] as string, row);
        occ.set(row[0] as string, rowToOccurrence(row));
      }
    };
    readSeries(keys.series ?? []);
    readAttempts(keys.attempts ?? []);
    const occIds: string[] = [...(keys.occurrences ?? [])];
    for (const x of att.values()) if (x.occurrenceId !== null) occIds.push(x.occurrenceId);
    for (const x of ser.values()) if (x.nextOccurrenceId !== null) occIds.push(x.nextOccurrenceId);
    readOccurrences(occIds);
    const live: string[] = [];
    const owners: string[] = [];
    for (const x of occ.values()) {
      if (x.liveAttemptId !== null) live.push(x.liveAttemptId);
      if (x.scheduleId !== null) owners.push(x.scheduleId);
    }
    readAttempts(live);
    readSeries(owners);
    return { occurrences: [...occ.values()], attempts: [...att.values()], series: [...ser.values()] };
  });

  class Conflict extends Error {
    constructor(readonly conflicts: RowRef[]) {
      super('conflict');
    }
  }
  const checkVersions = (
    stmt: Statement<[string]>,
    kind: RowRef['kind'],
    writes: { record: { id: string }; expectedVersion: number | null }[],
    out: RowRef[],
  ) => {
    if (writes.length === 0) return;
    const stored = new Map<string, number>();
    for (const [id, version] of stmt.all(JSON.stringify(writes.map((w) => w.record.id))) as [string, number][]) stored.set(id, version);
    const seen = new Set<string>();
    for (const w of writes) {
      const v = stored.get(w.record.id);
      const ok = w.expectedVersion === null ? v === undefined : v === w.expectedVersion;
      if (!ok || seen.has(w.record.id)) out.push({ kind, id: w.record.id });
      seen.add(w.record.id);
    }
  };
  const commit = db.transaction((changes: ChangeSet) => {
    const conflicts: RowRef[] = [];
    checkVersions(q.serVersions, 'series', changes.series, conflicts);
    checkVersions(q.occVersions, 'occurrence', changes.occurrences, conflicts);
    checkVersions(q.attVersions, 'attempt', changes.attempts, conflicts);
    if (conflicts.length > 0) throw new Conflict(conflicts);
    for (const w of changes.series) {
      const row = seriesToRow(w.record);
      if (w.expectedVersion === null) q.insertSeries.run(row);
      else {
        row.push(row.shift());
        q.updateSeries.run(row);
      }
    }
    for (const w of changes.occurrences) {
      const row = occurrenceToRow(w.record);
      const before = seenOcc.get(w.record.id);
      if (w.expectedVersion === null) o.insert.run(row);
      else if (before && before[before.length - 1] === w.expectedVersion)
        partialUpdate('occurrences', OCCURRENCE_COLUMNS, partialOcc, before, row);
      else o.update.run(occurrenceUpdateParams(w.record));
      seenOcc.delete(w.record.id);
    }
    for (const w of changes.attempts) {
      const row = attemptToRow(w.record);
      const before = seenAtt.get(w.record.id);
      if (w.expectedVersion === null) a.insert.run(row);
      else if (before && before[before.length - 1] === w.expectedVersion)
        partialUpdate('attempts', ATTEMPT_COLUMNS, partialAtt, before, row);
      else a.update.run(attemptUpdateParams(w.record));
      seenAtt.delete(w.record.id);
    }
  });

  const store: SqliteStore = {
    close: async () => {
      await checkpointer?.close();
    },
    load: async (keys): Promise<Snapshot> => load(keys),
    commit: async (changes): Promise<CommitResult> => {
      try {
        commit(changes);
        return { ok: true };
      } catch (err) {
        if (err instanceof Conflict) return { ok: false, conflicts: err.conflicts };
        // A failed transaction may have left remembered rows that no longer match: forget them.
        seenOcc.clear();
        seenAtt.clear();
        throw err;
      }
    },
    listDue: async ({ until, limit, after }) => {
      const rows = due.all({
        at: after ? after.at : NO_CURSOR_AT,
        until,
        kind: after ? after.kind : 'occurrence',
        id: after ? after.id : '',
        limit,
      }) as [DueRef['kind'], string, number][];
      return rows.map(([kind, id, at]) => ({ kind, id, at }));
    },
    listAttempts: async (occurrenceId) => (a.byOccurrence.all(occurrenceId) as unknown[][]).map(rowToAttempt),
    listUnacknowledgedAttempts: async (limit, afterId) => (a.unacknowledged.all(afterId ?? '', limit) as unknown[][]).map(rowToAttempt),
    listPendingFallbacks: async (limit, afterId) => (o.pendingFallbacks.all(afterId ?? '', limit) as unknown[][]).map(rowToOccurrence),
    listStaleZoneOccurrences: async (version, limit, afterId) =>
      (q.staleZone.all(version, afterId ?? '', limit) as unknown[][]).map(rowToOccurrence),
    listSeriesWithoutNext: async (limit, afterId) => (q.withoutNext.all(afterId ?? '', limit) as unknown[][]).map(rowToSeries),
  };
  return store;
}
