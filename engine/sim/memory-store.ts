import type { AttemptRecord, DueCursor, DueRef, OccurrenceRecord, Store, StoreTx } from '../ports.js';

/** Copies an occurrence so that neither the caller nor the store can change the other's object. */
export function cloneOccurrence(r: OccurrenceRecord): OccurrenceRecord {
  return { ...r, policy: { ...r.policy, offsetsMinutes: [...r.policy.offsetsMinutes] } };
}

/** Copies an attempt (the script is cloned too). */
export function cloneAttempt(r: AttemptRecord): AttemptRecord {
  return { ...r, script: r.script === null ? null : { ...r.script } };
}

type Undo = () => void;

function compareDue(a: DueRef | DueCursor, b: DueRef | DueCursor): number {
  if (a.at !== b.at) return a.at < b.at ? -1 : 1;
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * An in-memory {@link Store} for tests, examples and small embeddings. Atomic through an
 * undo journal; nested `transact` calls are savepoints. Listing due work scans every row
 * (O(n) per refill), which is fine up to tens of thousands of rows; use a database-backed
 * store beyond that.
 *
 * @example
 * const store = new MemoryStore();
 * store.transact((tx) => tx.getOccurrence('…'));
 */
export class MemoryStore implements Store {
  private readonly occurrences = new Map<string, OccurrenceRecord>();
  private readonly attempts = new Map<string, AttemptRecord>();
  /** Undo journals, innermost last; empty outside a unit of work. */
  private readonly journals: Undo[][] = [];
  private readonly tx: StoreTx;

  constructor() {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- harmless (the arrows below would see `this` too); left as is while the Store port is reshaped to async in a parallel change
    const self = this;
    this.tx = {
      getOccurrence: (id) => {
        const r = self.occurrences.get(id);
        return r && cloneOccurrence(r);
      },
      insertOccurrence: (record) => {
        if (self.occurrences.has(record.id)) throw new Error(`MemoryStore: occurrence ${record.id} exists`);
        self.write(self.occurrences, record.id, cloneOccurrence(record));
      },
      updateOccurrence: (record) => {
        if (!self.occurrences.has(record.id)) throw new Error(`MemoryStore: no occurrence ${record.id}`);
        self.write(self.occurrences, record.id, cloneOccurrence(record));
      },
      getAttempt: (id) => {
        const r = self.attempts.get(id);
        return r && cloneAttempt(r);
      },
      insertAttempt: (record) => {
        if (self.attempts.has(record.id)) throw new Error(`MemoryStore: attempt ${record.id} exists`);
        self.write(self.attempts, record.id, cloneAttempt(record));
      },
      updateAttempt: (record) => {
        if (!self.attempts.has(record.id)) throw new Error(`MemoryStore: no attempt ${record.id}`);
        self.write(self.attempts, record.id, cloneAttempt(record));
      },
      listAttempts: (occurrenceId) =>
        [...self.attempts.values()]
          .filter((a) => a.occurrenceId === occurrenceId)
          .sort((a, b) => a.n - b.n)
          .map(cloneAttempt),
      listDue: (until, limit, after) => {
        const out: DueRef[] = [];
        for (const o of self.occurrences.values()) {
          if (o.nextDueAt !== null && o.nextDueAt <= until) out.push({ kind: 'occurrence', id: o.id, at: o.nextDueAt });
        }
        for (const a of self.attempts.values()) {
          if (a.occurrenceId === null && a.deadlineAt !== null && a.deadlineAt <= until) {
            out.push({ kind: 'attempt', id: a.id, at: a.deadlineAt });
          }
        }
        out.sort(compareDue);
        const start = after ? out.findIndex((r) => compareDue(r, after) > 0) : 0;
        return start < 0 ? [] : out.slice(start, start + limit);
      },
      listUnacknowledgedAttempts: (limit, afterId) =>
        [...self.attempts.values()]
          .filter((a) => a.status === 'requested' && a.providerCallId === null && (afterId === undefined || a.id > afterId))
          .sort((a, b) => (a.id < b.id ? -1 : 1))
          .slice(0, limit)
          .map(cloneAttempt),
      listPendingFallbacks: (limit, afterId) =>
        [...self.occurrences.values()]
          .filter((o) => o.fallbackState === 'pending' && (afterId === undefined || o.id > afterId))
          .sort((a, b) => (a.id < b.id ? -1 : 1))
          .slice(0, limit)
          .map(cloneOccurrence),
    };
  }

  transact<T>(fn: (tx: StoreTx) => T): T {
    const journal: Undo[] = [];
    this.journals.push(journal);
    let result: T;
    try {
      result = fn(this.tx);
      if (result instanceof Promise) throw new Error('MemoryStore: transact(fn) must not return a promise');
    } catch (err) {
      this.journals.pop();
      for (let i = journal.length - 1; i >= 0; i--) journal[i]!();
      throw err;
    }
    this.journals.pop();
    // A savepoint's undo steps join the enclosing unit, so an outer throw undoes them too.
    const outer = this.journals[this.journals.length - 1];
    if (outer) outer.push(...journal);
    return result;
  }

  /** Number of stored occurrences and attempts (for tests). */
  get size(): { occurrences: number; attempts: number } {
    return { occurrences: this.occurrences.size, attempts: this.attempts.size };
  }

  private write<R>(map: Map<string, R>, id: string, value: R): void {
    const journal = this.journals[this.journals.length - 1];
    if (!journal) throw new Error('MemoryStore: write outside transact()');
    const had = map.has(id);
    const before = map.get(id);
    journal.push(() => {
      if (had) map.set(id, before as R);
      else map.delete(id);
    });
    map.set(id, value);
  }
}
