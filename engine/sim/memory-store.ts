import type {
  ChangeSet,
  CommitOptions,
  CommitResult,
  DueCursor,
  DueQuery,
  DueRef,
  LoadKeys,
  RowRef,
  RowWrite,
  Snapshot,
  Store,
} from '../ports.js';
import type { AttemptRecord, OccurrenceRecord, SeriesRecord } from '../model.js';
import { cloneAttempt, cloneOccurrence, cloneSeries } from '../clone.js';

export { cloneAttempt, cloneOccurrence, cloneSeries };

function compareDue(a: DueRef | DueCursor, b: DueRef | DueCursor): number {
  if (a.at !== b.at) return a.at < b.at ? -1 : 1;
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

const FINISHED = new Set(['confirmed', 'missed', 'failed', 'cancelled', 'unconfirmed']);

/**
 * The memory store's transaction, given to each of a commit's `writes`: what a write changes
 * in memory of its own it registers with `onCommit`, which runs only once the whole unit is
 * stored (never when a check fails or a later write throws).
 */
export interface MemoryTransaction {
  /** Runs `fn` once the unit is stored. */
  onCommit(fn: () => void): void;
}

/**
 * An in-memory {@link Store} for tests, examples and small embeddings. Each call works on
 * the maps at once and answers with a resolved promise; a commit checks every row's version
 * before it writes any. Listing due work scans every row (O(n) per refill), which is fine up
 * to tens of thousands of rows; use a database-backed store beyond that.
 *
 * @example
 * const store = new MemoryStore();
 * const { occurrences } = await store.load({ occurrences: ['…'] });
 */
export class MemoryStore implements Store<MemoryTransaction> {
  private readonly occurrences = new Map<string, OccurrenceRecord>();
  private readonly attempts = new Map<string, AttemptRecord>();
  private readonly series = new Map<string, SeriesRecord>();
  /** Round trips answered so far, by method (tests check the bound per unit of work). */
  readonly calls = { load: 0, commit: 0, listDue: 0, list: 0 };
  /** A commit running the caller's writes, which the next commit waits for. */
  private writing: Promise<void> | null = null;

  /** {@link Store.load}: copies of the named rows and of the rows that come with them. */
  async load(keys: LoadKeys): Promise<Snapshot> {
    this.calls.load++;
    const occ = new Map<string, OccurrenceRecord>();
    const att = new Map<string, AttemptRecord>();
    const ser = new Map<string, SeriesRecord>();
    const addOcc = (id: string | null) => {
      const o = id === null ? undefined : this.occurrences.get(id);
      if (!o || occ.has(o.id)) return;
      occ.set(o.id, cloneOccurrence(o));
      const live = o.liveAttemptId === null ? undefined : this.attempts.get(o.liveAttemptId);
      if (live && !att.has(live.id)) att.set(live.id, cloneAttempt(live));
      const s = o.scheduleId === null ? undefined : this.series.get(o.scheduleId);
      if (s && !ser.has(s.id)) ser.set(s.id, cloneSeries(s));
    };
    for (const id of keys.occurrences ?? []) addOcc(id);
    for (const id of keys.attempts ?? []) {
      const a = this.attempts.get(id);
      if (!a) continue;
      if (!att.has(id)) att.set(id, cloneAttempt(a));
      addOcc(a.occurrenceId);
    }
    for (const id of keys.series ?? []) {
      const s = this.series.get(id);
      if (!s) continue;
      if (!ser.has(id)) ser.set(id, cloneSeries(s));
      addOcc(s.nextOccurrenceId);
    }
    return {
      occurrences: [...occ.values()],
      attempts: [...att.values()],
      series: [...ser.values()],
    };
  }

  /**
   * {@link Store.commit}: checks every row's version, runs the caller's `writes` with a
   * {@link MemoryTransaction}, then writes copies of them all and runs what the writes asked to
   * run on commit; or none of it when a check fails or a write throws. While a write awaits,
   * the store's other commits wait for it.
   */
  async commit(
    changes: ChangeSet,
    options?: CommitOptions<MemoryTransaction>,
  ): Promise<CommitResult> {
    this.calls.commit++;
    while (this.writing) await this.writing.catch(() => undefined);
    const conflicts: RowRef[] = [];
    const check = <R extends { id: string; version: number }>(
      map: Map<string, R>,
      kind: RowRef['kind'],
      writes: RowWrite<R>[],
    ) => {
      const seen = new Set<string>();
      for (const w of writes) {
        const stored = map.get(w.record.id);
        const ok =
          w.expectedVersion === null
            ? stored === undefined
            : stored !== undefined && stored.version === w.expectedVersion;
        if (!ok || seen.has(w.record.id)) conflicts.push({ kind, id: w.record.id });
        seen.add(w.record.id);
      }
    };
    check(this.series, 'series', changes.series);
    check(this.occurrences, 'occurrence', changes.occurrences);
    check(this.attempts, 'attempt', changes.attempts);
    if (conflicts.length > 0) return { ok: false, conflicts };
    const writes = options?.writes ?? [];
    const onCommit: (() => void)[] = [];
    if (writes.length > 0) {
      const tx: MemoryTransaction = { onCommit: (fn) => void onCommit.push(fn) };
      const running = (async () => {
        for (const write of writes) await write(tx);
      })();
      this.writing = running;
      try {
        await running;
      } finally {
        this.writing = null;
      }
    }
    for (const w of changes.series) this.series.set(w.record.id, cloneSeries(w.record));
    for (const w of changes.occurrences)
      this.occurrences.set(w.record.id, cloneOccurrence(w.record));
    for (const w of changes.attempts) this.attempts.set(w.record.id, cloneAttempt(w.record));
    for (const fn of onCommit) fn();
    return { ok: true };
  }

  /** {@link Store.listDue}: scans every row (leases are ignored: one process). */
  async listDue(query: DueQuery): Promise<DueRef[]> {
    this.calls.listDue++;
    const { until, limit, after } = query;
    const out: DueRef[] = [];
    for (const o of this.occurrences.values()) {
      if (o.nextDueAt !== null && o.nextDueAt <= until)
        out.push({ kind: 'occurrence', id: o.id, at: o.nextDueAt });
    }
    for (const a of this.attempts.values()) {
      if (a.occurrenceId === null && a.deadlineAt !== null && a.deadlineAt <= until)
        out.push({ kind: 'attempt', id: a.id, at: a.deadlineAt });
    }
    out.sort(compareDue);
    const start = after ? out.findIndex((r) => compareDue(r, after) > 0) : 0;
    return start < 0 ? [] : out.slice(start, start + limit);
  }

  /** {@link Store.listUnacknowledgedAttempts}, by id. */
  async listUnacknowledgedAttempts(limit: number, afterId?: string): Promise<AttemptRecord[]> {
    this.calls.list++;
    return [...this.attempts.values()]
      .filter(
        (a) =>
          a.status === 'requested' &&
          a.providerCallId === null &&
          (afterId === undefined || a.id > afterId),
      )
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map(cloneAttempt);
  }

  /** {@link Store.listAttempts}: the same as {@link MemoryStore.attemptsOf}, counted as a round trip. */
  async listAttempts(occurrenceId: string): Promise<AttemptRecord[]> {
    this.calls.list++;
    return this.attemptsOf(occurrenceId);
  }

  /** {@link Store.listStaleZoneOccurrences}, by id. */
  async listStaleZoneOccurrences(
    version: string,
    limit: number,
    afterId?: string,
  ): Promise<OccurrenceRecord[]> {
    this.calls.list++;
    return [...this.occurrences.values()]
      .filter(
        (o) =>
          o.status === 'pending' &&
          o.tzdataVersion !== null &&
          o.tzdataVersion !== version &&
          (afterId === undefined || o.id > afterId),
      )
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map(cloneOccurrence);
  }

  /** {@link Store.listPendingFallbacks}, by id. */
  async listPendingFallbacks(limit: number, afterId?: string): Promise<OccurrenceRecord[]> {
    this.calls.list++;
    return [...this.occurrences.values()]
      .filter((o) => o.fallbackState === 'pending' && (afterId === undefined || o.id > afterId))
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map(cloneOccurrence);
  }

  /** {@link Store.listSeriesWithoutNext}, by id. */
  async listSeriesWithoutNext(limit: number, afterId?: string): Promise<SeriesRecord[]> {
    this.calls.list++;
    return [...this.series.values()]
      .filter((s) => {
        if (s.status !== 'active' || !s.enabled || (afterId !== undefined && s.id <= afterId))
          return false;
        const o =
          s.nextOccurrenceId === null ? undefined : this.occurrences.get(s.nextOccurrenceId);
        return o === undefined || FINISHED.has(o.status);
      })
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map(cloneSeries);
  }

  /** Number of stored rows (for tests). */
  get size(): { occurrences: number; attempts: number; series: number } {
    return {
      occurrences: this.occurrences.size,
      attempts: this.attempts.size,
      series: this.series.size,
    };
  }

  /** Every occurrence of a series (or every one, without an id), by scheduledAt (for tests and examples). */
  occurrencesOf(seriesId?: string): OccurrenceRecord[] {
    return [...this.occurrences.values()]
      .filter((o) => seriesId === undefined || o.scheduleId === seriesId)
      .sort((a, b) => a.scheduledAt - b.scheduledAt || (a.id < b.id ? -1 : 1))
      .map(cloneOccurrence);
  }

  /** The attempts of an occurrence by n (for tests and examples). */
  attemptsOf(occurrenceId: string): AttemptRecord[] {
    return [...this.attempts.values()]
      .filter((a) => a.occurrenceId === occurrenceId)
      .sort((a, b) => a.n - b.n)
      .map(cloneAttempt);
  }
}
