/**
 * The identity map of a unit of work: each row the store loaded (or the unit created), once,
 * with the version it was read at, its status then, and whether it changed. `finish()` turns
 * it into the change set the runtime commits, the wheel keys of the changed rows and the
 * status changes observers see.
 * @module
 */
import type { ChangeSet, EpochMs, RowWrite, Snapshot } from '../ports.js';
import type {
  AttemptRecord,
  AttemptStatus,
  OccurrenceRecord,
  OccurrenceStatus,
  SeriesRecord,
} from '../model.js';

/** A row's wheel key after the unit of work: `at` null means nothing is due. */
export interface KeyChange {
  kind: 'occurrence' | 'attempt';
  id: string;
  at: EpochMs | null;
}

/** A status change, for observers. */
export type StatusChange =
  | { kind: 'occurrence'; from: OccurrenceStatus | null; record: OccurrenceRecord }
  | { kind: 'attempt'; from: AttemptStatus | null; record: AttemptRecord };

interface Slot<R> {
  rec: R;
  /** The version read (null: a new row). */
  version: number | null;
  dirty: boolean;
  from: string | null;
}

function slot<R extends { version: number }>(rec: R, from: string | null): Slot<R> {
  return { rec, version: rec.version, dirty: false, from };
}

/** See the module comment. The `UnitOfWork` is one; create one per transaction. */
export class IdentityMap {
  protected readonly occ = new Map<string, Slot<OccurrenceRecord>>();
  protected readonly att = new Map<string, Slot<AttemptRecord>>();
  protected readonly ser = new Map<string, Slot<SeriesRecord>>();

  constructor(
    snapshot: Snapshot,
    /** The instant of this unit of work. */
    readonly now: EpochMs,
  ) {
    for (const r of snapshot.occurrences) this.occ.set(r.id, slot(r, r.status));
    for (const r of snapshot.attempts) this.att.set(r.id, slot(r, r.status));
    for (const r of snapshot.series) this.ser.set(r.id, slot(r, r.status));
  }

  /** The occurrence, when it was loaded (or created) in this unit. */
  occurrence(id: string): OccurrenceRecord | undefined {
    return this.occ.get(id)?.rec;
  }

  /** The attempt, when it was loaded (or created) in this unit. */
  attempt(id: string): AttemptRecord | undefined {
    return this.att.get(id)?.rec;
  }

  /** The series, when it was loaded (or created) in this unit. */
  series(id: string): SeriesRecord | undefined {
    return this.ser.get(id)?.rec;
  }

  /** Adds a new occurrence (written at commit). */
  addOccurrence(rec: OccurrenceRecord): void {
    this.occ.set(rec.id, { rec, version: null, dirty: true, from: null });
  }

  /** Adds a new series (written at commit). */
  addSeries(rec: SeriesRecord): void {
    this.ser.set(rec.id, { rec, version: null, dirty: true, from: null });
  }

  /** Marks a loaded series as changed. */
  touchSeries(s: SeriesRecord): void {
    this.ser.get(s.id)!.dirty = true;
    s.updatedAt = this.now;
  }

  /** Marks a loaded occurrence as changed. */
  touchOcc(o: OccurrenceRecord): void {
    this.occ.get(o.id)!.dirty = true;
    o.updatedAt = this.now;
  }

  /** Marks a loaded attempt as changed. */
  touchAtt(a: AttemptRecord): void {
    this.att.get(a.id)!.dirty = true;
    a.updatedAt = this.now;
  }

  /**
   * Marks a loaded occurrence to be written at commit, leaving its `updatedAt`: a change of
   * bookkeeping (its zone rules' version), not of the call.
   */
  markOccurrence(o: OccurrenceRecord): void {
    this.occ.get(o.id)!.dirty = true;
  }

  // ---- commit --------------------------------------------------------------------------

  /**
   * The unit's change set (every new or changed row, each with the version it was read at
   * and its next version), the wheel keys of changed rows and the status changes.
   */
  finish(): { writes: ChangeSet; keys: KeyChange[]; changes: StatusChange[] } {
    const keys: KeyChange[] = [];
    const changes: StatusChange[] = [];
    const write = <R extends { version: number }>(s: Slot<R>): RowWrite<R> => {
      s.rec.version = (s.version ?? 0) + 1;
      return { record: s.rec, expectedVersion: s.version };
    };
    const writes: ChangeSet = { occurrences: [], attempts: [], series: [] };
    for (const s of this.ser.values()) if (s.dirty) writes.series.push(write(s));
    for (const s of this.occ.values()) {
      if (!s.dirty) continue;
      writes.occurrences.push(write(s));
      keys.push({ kind: 'occurrence', id: s.rec.id, at: s.rec.nextDueAt });
      if (s.from !== s.rec.status)
        changes.push({
          kind: 'occurrence',
          from: s.from as OccurrenceStatus | null,
          record: s.rec,
        });
    }
    for (const s of this.att.values()) {
      if (!s.dirty) continue;
      writes.attempts.push(write(s));
      if (s.rec.occurrenceId === null)
        keys.push({ kind: 'attempt', id: s.rec.id, at: s.rec.deadlineAt });
      if (s.from !== s.rec.status)
        changes.push({ kind: 'attempt', from: s.from as AttemptStatus | null, record: s.rec });
    }
    return { writes, keys, changes };
  }
}
