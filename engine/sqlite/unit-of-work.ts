/**
 * The SQLite store's unit of work: `load` and `commit`, each in one transaction.
 * - `load` reads a row's newest image from the overlay (or its journal row) and the others
 *   from the tables (one statement per table), with the closure rules of the Store port's `load`.
 * - `commit` checks every row's version (the overlay's for rows with unfolded images, the
 *   table's for the others: one set-based statement per table), writes series to their table,
 *   and appends every occurrence and attempt as one journal row (multi-row INSERTs): a unit's
 *   appends touch one B-tree's right edge and no secondary index. An update of a row this
 *   store loaded at the version it updates is appended narrow, as the columns that changed
 *   (docs/decisions/0028): the dispatch's intent and acceptance, which change a few columns of
 *   rows the dispatch loaded. The caller's `writes` run
 *   next, on this connection, in the same transaction. What the overlay must note comes back
 *   as {@link Staged}; the store notes it only once the transaction has committed, so a
 *   conflict, a failing write or a crash leaves the overlay as the database is.
 * @module
 */
import type { Database, Statement } from 'better-sqlite3';
import type { ChangeSet, LoadKeys, RowRef, Snapshot, StoreWrite } from '../ports.js';
import type { AttemptRecord, OccurrenceRecord, SeriesRecord } from '../model.js';
import type { Entry, Journal } from './journal.js';
import { ATTEMPT, type Kind, OCCURRENCE, type Overlay, type PendingRows } from './overlay.js';
import {
  ATTEMPT_COLUMNS,
  attemptToRow,
  OCCURRENCE_COLUMNS,
  occurrenceToRow,
  rowToAttempt,
  rowToOccurrence,
  rowToSeries,
  seriesToRow,
} from './rows.js';
import type { StoreStatements } from './statements.js';

/** A unit refused on versions: the rows that conflict. */
export class Conflict extends Error {
  constructor(readonly conflicts: RowRef[]) {
    super('conflict');
  }
}

/** A committed unit's journal entries and their rows' `seq`, for the overlay to note. */
export interface Staged {
  entries: Entry[];
  seqs: number[];
}

/** `load` and `commit` on one connection; each throws {@link Conflict} on a version conflict. */
export interface UnitOfWork {
  /** Reads a snapshot (the Store port's `load`) in one transaction. */
  load: (keys: LoadKeys) => Snapshot;
  /** Checks and writes a unit in one transaction of its own. */
  commitRows: (changes: ChangeSet) => Staged;
  /**
   * Checks and writes a unit, then runs the caller's writes, in one transaction held across
   * their awaits: the store lets none of its other calls in meanwhile.
   */
  commitWithWrites: (
    changes: ChangeSet,
    writes: readonly StoreWrite<Database>[],
  ) => Promise<Staged>;
}

/** Loaded rows kept as bases at most (per kind): a few units' worth (a unit loads 16 to 512). */
const BASES = 2048;
/** An update changing more columns than this is appended whole. */
const NARROW_MAX = 12;
const VERSION_AT = [OCCURRENCE_COLUMNS.indexOf('version'), ATTEMPT_COLUMNS.indexOf('version')];

/** The unit of work on `db`, with the rows of `overlay` read from `journal`. */
export function createUnitOfWork(
  db: Database,
  q: StoreStatements,
  journal: Journal,
  overlay: Overlay,
): UnitOfWork {
  /**
   * Rows `load` read (their images), by kind and id, until a commit updates them or
   * {@link BASES} newer ones push them out: what a narrow row's changes are taken against.
   */
  const bases = [new Map<string, unknown[]>(), new Map<string, unknown[]>()] as const;
  const keepBase = (kind: Kind, id: string, row: unknown[]) => {
    const map = bases[kind - 1]!;
    // The oldest goes first (a Map iterates in insertion order): a row loaded and not updated
    // is dropped soon, before the garbage collector would move it to the old generation.
    if (map.size >= BASES) map.delete(map.keys().next().value!);
    map.set(id, row);
  };
  /** The narrow form of an update to `row` from the base loaded at `expected`, or undefined. */
  const narrow = (kind: Kind, id: string, expected: number, row: unknown[]) => {
    const map = bases[kind - 1]!;
    const base = map.get(id);
    if (base === undefined) return undefined;
    map.delete(id);
    if (base[VERSION_AT[kind - 1]!] !== expected) return undefined;
    const changes: unknown[] = [];
    for (let i = 1; i < row.length; i++) {
      if (base[i] === row[i]) continue;
      if (changes.length === 2 * NARROW_MAX) return undefined;
      changes.push(i, row[i]);
    }
    // Where that version is now: a fold since the load moved it to the table (and the journal
    // may have given its `seq` to a newer row since).
    return { base: overlay.pending(kind).seqOf(id) ?? 0, changes };
  };
  const load = db.transaction((keys: LoadKeys): Snapshot => {
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
      kind: Kind,
      ids: Iterable<string>,
      into: Map<string, R>,
      stmt: Statement<[string]>,
      toRecord: (row: unknown[]) => R,
    ) => {
      const pending = overlay.pending(kind);
      const want: string[] = [];
      for (const id of ids) {
        if (into.has(id)) continue;
        if (pending.has(id)) {
          const row = journal.image(kind, id, overlay);
          keepBase(kind, id, row);
          into.set(id, toRecord(row));
        } else want.push(id);
      }
      if (want.length === 0) return;
      for (const row of stmt.all(JSON.stringify(want)) as unknown[][]) {
        keepBase(kind, row[0] as string, row);
        into.set(row[0] as string, toRecord(row));
      }
    };
    readSeries(keys.series ?? []);
    read(ATTEMPT, keys.attempts ?? [], att, q.attempts, rowToAttempt);
    const occIds: string[] = [...(keys.occurrences ?? [])];
    for (const x of att.values()) if (x.occurrenceId !== null) occIds.push(x.occurrenceId);
    for (const x of ser.values()) if (x.nextOccurrenceId !== null) occIds.push(x.nextOccurrenceId);
    read(OCCURRENCE, occIds, occ, q.occurrences, rowToOccurrence);
    const live: string[] = [];
    const owners: string[] = [];
    for (const x of occ.values()) {
      if (x.liveAttemptId !== null) live.push(x.liveAttemptId);
      if (x.scheduleId !== null) owners.push(x.scheduleId);
    }
    read(ATTEMPT, live, att, q.attempts, rowToAttempt);
    readSeries(owners);
    return {
      occurrences: [...occ.values()],
      attempts: [...att.values()],
      series: [...ser.values()],
    };
  });

  /** Conflicts of `writes` against the overlay (rows in it) and the table (the others, one statement). */
  const checkVersions = (
    stmt: Statement<[string]>,
    kind: RowRef['kind'],
    writes: { record: { id: string }; expectedVersion: number | null }[],
    pending: PendingRows | null,
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
      const v = pending?.versionOf(w.record.id) ?? stored.get(w.record.id);
      const ok = w.expectedVersion === null ? v === undefined : v === w.expectedVersion;
      if (!ok || seen.has(w.record.id)) out.push({ kind, id: w.record.id });
      seen.add(w.record.id);
    }
  };

  /**
   * A unit's checks and writes, inside the transaction: conflicts throw; the series are written
   * to their table and the occurrences and attempts appended to the journal.
   */
  const stage = (changes: ChangeSet): Staged => {
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
    for (const { record: r, expectedVersion } of changes.occurrences) {
      const row = occurrenceToRow(r);
      entries.push({
        kind: OCCURRENCE,
        id: r.id,
        version: r.version,
        at: r.nextDueAt,
        account: r.accountId,
        row,
        narrow:
          expectedVersion === null ? undefined : narrow(OCCURRENCE, r.id, expectedVersion, row),
      });
    }
    for (const { record: r, expectedVersion } of changes.attempts) {
      const row = attemptToRow(r);
      entries.push({
        kind: ATTEMPT,
        id: r.id,
        version: r.version,
        at: r.occurrenceId === null ? r.deadlineAt : null,
        account: r.accountId,
        row,
        narrow: expectedVersion === null ? undefined : narrow(ATTEMPT, r.id, expectedVersion, row),
      });
    }
    return { entries, seqs: journal.append(entries) };
  };

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

  return { load, commitRows: db.transaction(stage), commitWithWrites };
}
