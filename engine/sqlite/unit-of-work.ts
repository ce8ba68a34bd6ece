/**
 * The SQLite store's unit of work: `load` and `commit`, each in one transaction.
 * - `load` reads a row's newest image from the overlay (or its journal row) and the others
 *   from the tables (one statement per table), with the closure rules of the Store port's `load`.
 * - `commit` checks every row's version (the overlay's for rows with unfolded images, the one
 *   a load read for rows it read from a table (./table-versions.ts), the table's for the
 *   others: one set-based statement per table), writes series to their table,
 *   and appends every occurrence and attempt as one journal row (multi-row INSERTs): a unit's
 *   appends touch one B-tree's right edge and no secondary index. The caller's `writes` run
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
  attemptToRow,
  occurrenceToRow,
  rowToAttempt,
  rowToOccurrence,
  rowToSeries,
  seriesToRow,
} from './rows.js';
import type { StoreStatements } from './statements.js';
import type { TableVersions } from './table-versions.js';

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

/** The versions of table rows a load read, per kind: each answers one commit's check. */
export interface LoadedVersions {
  occurrences: TableVersions;
  attempts: TableVersions;
}

/**
 * The unit of work on `db`, with the rows of `overlay` read from `journal`, and the versions of
 * table rows its loads read noted in `versions`.
 */
export function createUnitOfWork(
  db: Database,
  q: StoreStatements,
  journal: Journal,
  overlay: Overlay,
  versions: LoadedVersions,
): UnitOfWork {
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
    /**
     * Rows with unfolded images from the overlay, the others from `stmt` in one statement (a
     * JSON array's text per row), their versions noted in `noted`.
     */
    const read = <R extends { id: string; version: number }>(
      kind: Kind,
      ids: Iterable<string>,
      into: Map<string, R>,
      stmt: Statement<[string]>,
      toRecord: (row: unknown[]) => R,
      noted: TableVersions,
    ) => {
      const pending = overlay.pending(kind);
      const want: string[] = [];
      for (const id of ids) {
        if (into.has(id)) continue;
        const slot = pending.slot(id);
        if (slot !== undefined) into.set(id, toRecord(journal.image(pending, slot)));
        else want.push(id);
      }
      if (want.length === 0) return;
      for (const text of stmt.all(JSON.stringify(want)) as string[]) {
        const record = toRecord(JSON.parse(text) as unknown[]);
        noted.note(record.id, record.version);
        into.set(record.id, record);
      }
    };
    readSeries(keys.series ?? []);
    read(ATTEMPT, keys.attempts ?? [], att, q.attempts, rowToAttempt, versions.attempts);
    const occIds: string[] = [...(keys.occurrences ?? [])];
    for (const x of att.values()) if (x.occurrenceId !== null) occIds.push(x.occurrenceId);
    for (const x of ser.values()) if (x.nextOccurrenceId !== null) occIds.push(x.nextOccurrenceId);
    read(OCCURRENCE, occIds, occ, q.occurrences, rowToOccurrence, versions.occurrences);
    const live: string[] = [];
    const owners: string[] = [];
    for (const x of occ.values()) {
      if (x.liveAttemptId !== null) live.push(x.liveAttemptId);
      if (x.scheduleId !== null) owners.push(x.scheduleId);
    }
    read(ATTEMPT, live, att, q.attempts, rowToAttempt, versions.attempts);
    readSeries(owners);
    return {
      occurrences: [...occ.values()],
      attempts: [...att.values()],
      series: [...ser.values()],
    };
  });

  /**
   * Conflicts of `writes` against the overlay (rows in it), the versions a load noted (rows it
   * read from the table) and the table (the others, one statement). Every written row is
   * forgotten from `noted`: it is in the journal once this commits.
   */
  const checkVersions = (
    stmt: Statement<[string]>,
    kind: RowRef['kind'],
    writes: { record: { id: string }; expectedVersion: number | null }[],
    pending: PendingRows | null,
    noted: TableVersions | null,
    out: RowRef[],
  ) => {
    if (writes.length === 0) return;
    const ask: string[] = [];
    const known = new Array<number | undefined>(writes.length);
    for (const [i, w] of writes.entries()) {
      const id = w.record.id;
      const fromLoad = noted?.take(id);
      const slot = pending?.slot(id);
      if (slot !== undefined) known[i] = pending!.versionAt(slot);
      else if (fromLoad !== undefined) known[i] = fromLoad;
      else ask.push(id);
    }
    const stored = new Map<string, number>();
    if (ask.length > 0)
      for (const [id, version] of stmt.all(JSON.stringify(ask)) as [string, number][])
        stored.set(id, version);
    const seen = new Set<string>();
    for (const [i, w] of writes.entries()) {
      const v = known[i] ?? stored.get(w.record.id);
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
    checkVersions(q.serVersions, 'series', changes.series, null, null, conflicts);
    const { occurrences: occ, attempts: att } = overlay;
    checkVersions(
      q.occVersions,
      'occurrence',
      changes.occurrences,
      occ,
      versions.occurrences,
      conflicts,
    );
    checkVersions(q.attVersions, 'attempt', changes.attempts, att, versions.attempts, conflicts);
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
