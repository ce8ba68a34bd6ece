/**
 * The SQLite store's overlay (docs/decisions/0016, 0028): which rows have journal rows newer
 * than their table's, at which journal row and version, when they are due and for which
 * account, in memory. A spike leaves up to a million such rows, so they are kept flat (0028,
 * step 3): per kind a Map from id to a slot, and the slot's fields in typed arrays (the account
 * a pointer to the record's string); the due index keeps ids and instants in parallel arrays per
 * one-second bucket, and each account's journal rows are linked lists in typed arrays
 * (./account-rows.ts). No object is kept per pending row or per account.
 * @module
 */
import { AccountRows } from './account-rows.js';
import { ImageCache, type ImageHolder } from './image-cache.js';

/** The kinds of rows a journal row holds. */
export const OCCURRENCE = 1;
export const ATTEMPT = 2;
export type Kind = typeof OCCURRENCE | typeof ATTEMPT;

const INITIAL = 1024;

/**
 * The pending rows of one kind: each id's newest journal row (`seq`), its version, its due key
 * (null: nothing due), its account and, while it is among the image cache's most recent, its
 * newest image.
 */
export class PendingRows implements ImageHolder {
  private readonly slots = new Map<string, number>();
  private seqs = new Float64Array(INITIAL);
  private versions = new Float64Array(INITIAL);
  /** NaN: nothing due. */
  private ats = new Float64Array(INITIAL);
  /** The account strings are the records' own (no copy). */
  private accounts: (string | null)[] = [];
  private images: (unknown[] | null)[] = [];
  private readonly free: number[] = [];
  private used = 0;
  /** This kind's number in the image cache. */
  private readonly owner: number;

  constructor(private readonly cache: ImageCache) {
    this.owner = cache.register(this);
  }

  get size(): number {
    return this.slots.size;
  }

  has(id: string): boolean {
    return this.slots.has(id);
  }

  /** `id`'s slot, or undefined when it has no journal row: for the `…At(slot)` reads. */
  slot(id: string): number | undefined {
    return this.slots.get(id);
  }

  seqAt(slot: number): number {
    return this.seqs[slot]!;
  }

  versionAt(slot: number): number {
    return this.versions[slot]!;
  }

  /** The cached newest image at `slot`, or null. */
  imageAt(slot: number): unknown[] | null {
    return this.images[slot] ?? null;
  }

  /** The due key (null: nothing due), or undefined when `id` has no journal row. */
  atOf(id: string): number | null | undefined {
    const s = this.slots.get(id);
    if (s === undefined) return undefined;
    const at = this.ats[s]!;
    return Number.isNaN(at) ? null : at;
  }

  /** The account (null: none), or undefined when `id` has no journal row. */
  accountOf(id: string): string | null | undefined {
    const s = this.slots.get(id);
    return s === undefined ? undefined : this.accounts[s]!;
  }

  /**
   * Sets `id`'s fields (an id keeps the account it came with). Its image is kept, and the image
   * cache gives up its oldest past its limit. Answers its due key before (null: none, or it was
   * not pending).
   */
  set(
    id: string,
    seq: number,
    version: number,
    at: number | null,
    account: string | null,
    image: unknown[] | null,
  ): number | null {
    let s = this.slots.get(id);
    let before = NaN;
    let held = false;
    if (s === undefined) {
      s = this.free.pop() ?? this.used++;
      if (s === this.seqs.length) this.grow();
      this.slots.set(id, s);
      this.accounts[s] = account;
    } else {
      before = this.ats[s]!;
      held = (this.images[s] ?? null) !== null;
    }
    const keep = image !== null && this.cache.limit > 0;
    if (keep !== held) this.cache.count += keep ? 1 : -1;
    this.seqs[s] = seq;
    this.versions[s] = version;
    this.ats[s] = at ?? NaN;
    this.images[s] = keep ? image : null;
    if (keep) this.cache.kept(this.owner, s, seq);
    return Number.isNaN(before) ? null : before;
  }

  dropImage(slot: number, seq: number): boolean {
    if (!this.holds(slot, seq)) return false;
    this.images[slot] = null;
    return true;
  }

  holds(slot: number, seq: number): boolean {
    return this.seqs[slot] === seq && (this.images[slot] ?? null) !== null;
  }

  /**
   * Forgets `id` when its newest journal row is `seq`. Answers its due key (null: none), or
   * undefined when it was not forgotten.
   */
  delete(id: string, seq: number): number | null | undefined {
    const s = this.slots.get(id);
    if (s === undefined || this.seqs[s] !== seq) return undefined;
    if ((this.images[s] ?? null) !== null) this.cache.count--;
    this.images[s] = null;
    this.accounts[s] = null;
    this.slots.delete(id);
    this.free.push(s);
    const at = this.ats[s]!;
    return Number.isNaN(at) ? null : at;
  }

  clear(): void {
    this.slots.clear();
    this.images = [];
    this.accounts = [];
    this.free.length = 0;
    this.used = 0;
  }

  private grow(): void {
    const n = this.seqs.length * 2;
    const widen = (a: Float64Array) => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    this.seqs = widen(this.seqs);
    this.versions = widen(this.versions);
    this.ats = widen(this.ats);
  }
}

/**
 * One second of due keys, in parallel arrays: sorted by (instant, id) on demand; removed ones
 * are skipped when read and dropped when many.
 */
interface Bucket {
  ids: string[];
  ats: number[];
  sorted: boolean;
  live: number;
}

/**
 * Ids by due instant, in one-second buckets kept in order, each sorted by (instant, id) when it
 * is read, so that a page of due keys past a cursor costs the page (and a binary search), not a
 * scan of every pending row: a spike, or a restart after one, leaves hundreds of thousands of
 * them, many due in the same second.
 */
export class DueIndex {
  private readonly buckets = new Map<number, Bucket>();
  /** Bucket numbers, ascending. */
  private readonly order: number[] = [];

  add(id: string, at: number): void {
    const b = Math.floor(at / 1000);
    let bucket = this.buckets.get(b);
    if (!bucket) {
      this.buckets.set(b, (bucket = { ids: [], ats: [], sorted: true, live: 0 }));
      this.order.splice(this.position(b), 0, b);
    }
    const last = bucket.ids.length - 1;
    if (
      last >= 0 &&
      (bucket.ats[last]! > at || (bucket.ats[last] === at && bucket.ids[last]! > id))
    )
      bucket.sorted = false;
    bucket.ids.push(id);
    bucket.ats.push(at);
    bucket.live++;
  }

  /** Forgets `id` at `at` (its entry is skipped by `current` until the bucket is compacted). */
  remove(id: string, at: number, current: (id: string) => number | null | undefined): void {
    const b = Math.floor(at / 1000);
    const bucket = this.buckets.get(b);
    if (!bucket) return;
    if (--bucket.live <= 0) {
      this.buckets.delete(b);
      this.order.splice(this.position(b), 1);
    } else if (bucket.ids.length > 64 && bucket.ids.length > 2 * bucket.live) {
      const ids: string[] = [];
      const ats: number[] = [];
      for (let k = 0; k < bucket.ids.length; k++) {
        const x = bucket.ids[k]!;
        if (x !== id && current(x) === bucket.ats[k]) {
          ids.push(x);
          ats.push(bucket.ats[k]!);
        }
      }
      bucket.ids = ids;
      bucket.ats = ats;
    }
  }

  /**
   * Entries with (at, id) after (`from`, `fromId`) and `at` ≤ `until`, in order, whose key is still
   * `current(id)`, until at least `limit` are given (the rest of the last bucket read too).
   */
  *range(
    from: number,
    fromId: string,
    until: number,
    limit: number,
    current: (id: string) => number | null | undefined,
  ): Generator<{ at: number; id: string }> {
    const last = Math.floor(until / 1000);
    let given = 0;
    // An id removed and added again at the same instant stands twice until its bucket is compacted.
    const seen = new Set<string>();
    for (
      let i = this.position(Math.floor(from / 1000));
      i < this.order.length && this.order[i]! <= last && given < limit;
      i++
    ) {
      const bucket = this.buckets.get(this.order[i]!)!;
      if (!bucket.sorted) sortBucket(bucket);
      const { ids, ats } = bucket;
      let lo = 0;
      let hi = ids.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (ats[mid]! < from || (ats[mid] === from && ids[mid]! <= fromId)) lo = mid + 1;
        else hi = mid;
      }
      for (let k = lo; k < ids.length && given < limit; k++) {
        const at = ats[k]!;
        const id = ids[k]!;
        if (at > until) break;
        if (current(id) !== at || seen.has(id)) continue;
        seen.add(id);
        given++;
        yield { at, id };
      }
    }
  }

  clear(): void {
    this.buckets.clear();
    this.order.length = 0;
  }

  /** Index of the first bucket number ≥ b. */
  private position(b: number): number {
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.order[mid]! < b) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function sortBucket(bucket: Bucket): void {
  const { ids, ats } = bucket;
  const order = Array.from(ids.keys());
  order.sort((x, y) => ats[x]! - ats[y]! || (ids[x]! < ids[y]! ? -1 : ids[x]! > ids[y]! ? 1 : 0));
  bucket.ids = order.map((k) => ids[k]!);
  bucket.ats = order.map((k) => ats[k]!);
  bucket.sorted = true;
}

/** The key of rows without an account (standalone calls of nobody's) in {@link Overlay}'s lists. */
export const NO_ACCOUNT = '\u0000';

/**
 * Rows with unfolded journal rows, by kind and id, and the journal rows of each account (a read
 * of an account folds just those; one with none needs nothing). `cacheLimit` bounds the images
 * kept in memory.
 */
export class Overlay {
  private readonly cache: ImageCache;
  readonly occurrences: PendingRows;
  readonly attempts: PendingRows;
  /** Due keys of the pending rows, per kind. */
  readonly due = { occurrences: new DueIndex(), attempts: new DueIndex() };
  /** Journal rows per account ({@link NO_ACCOUNT} for rows without one), oldest first. */
  private readonly byAccount = new AccountRows();
  /** Journal rows in all. */
  rows = 0;
  /** What the due index asks of a row: its due key now, per kind. */
  private readonly current: readonly ((id: string) => number | null | undefined)[];

  constructor(cacheLimit: number) {
    this.cache = new ImageCache(cacheLimit);
    this.occurrences = new PendingRows(this.cache);
    this.attempts = new PendingRows(this.cache);
    this.current = [(id) => this.occurrences.atOf(id), (id) => this.attempts.atOf(id)];
  }

  pending(kind: Kind): PendingRows {
    return kind === OCCURRENCE ? this.occurrences : this.attempts;
  }

  private dueIndex(kind: Kind): DueIndex {
    return kind === OCCURRENCE ? this.due.occurrences : this.due.attempts;
  }

  get size(): number {
    return this.occurrences.size + this.attempts.size;
  }

  /** Notes a journal row appended at `seq`. */
  add(
    kind: Kind,
    id: string,
    seq: number,
    version: number,
    at: number | null,
    account: string | null,
    row: unknown[] | null,
  ): void {
    const before = this.pending(kind).set(id, seq, version, at, account, row);
    if (before !== at) {
      const due = this.dueIndex(kind);
      if (before !== null) due.remove(id, before, this.current[kind - 1]!);
      if (at !== null) due.add(id, at);
    }
    this.rows++;
    this.byAccount.add(account ?? NO_ACCOUNT, seq);
  }

  /** The journal rows (`seq`) of an account (null: rows without one), oldest first. */
  rowsOf(account: string | null): readonly number[] {
    return this.byAccount.of(account ?? NO_ACCOUNT);
  }

  /** Notes a journal row folded (or removed): the row leaves the overlay when it was its newest image. */
  folded(kind: Kind, id: string, seq: number, account: string | null): void {
    const at = this.pending(kind).delete(id, seq);
    if (at !== undefined && at !== null)
      this.dueIndex(kind).remove(id, at, this.current[kind - 1]!);
    this.rows--;
    this.byAccount.delete(account ?? NO_ACCOUNT, seq);
  }

  clear(): void {
    this.occurrences.clear();
    this.attempts.clear();
    this.due.occurrences.clear();
    this.due.attempts.clear();
    this.byAccount.clear();
    this.rows = 0;
    this.cache.clear();
  }
}
