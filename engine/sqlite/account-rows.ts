/**
 * The journal rows of each account, oldest first, for the SQLite store's overlay (a read of an
 * account folds just its rows). A spike leaves about one account per call, each with two or
 * three rows, so no object or array is kept per account (docs/decisions/0028, step 3): an
 * account is a slot in typed arrays (its first and last row, and how many), and each row links
 * to its account's next row in a ring indexed by `seq`. The ring spans the rows from the
 * oldest one still listed to the newest (`seq` is the journal's commit order), and grows when
 * it must; rows leave in commit order, from their account's head, as the fold takes them.
 * @module
 */

const NONE = -1;
const INITIAL = 1024;

/** See the module comment. */
export class AccountRows {
  private readonly slots = new Map<string, number>();
  private heads = new Float64Array(INITIAL);
  private tails = new Float64Array(INITIAL);
  private counts = new Uint32Array(INITIAL);
  private readonly free: number[] = [];
  private used = 0;
  /** `links[seq & mask]`: the next row of the same account, or NONE. */
  private links = new Float64Array(INITIAL);
  private mask = INITIAL - 1;
  /** No row older than this is listed (NaN: none is). */
  private low = NaN;
  /** Rows listed in all. */
  private rows = 0;

  /** Lists `seq` (newer than every row listed) as `account`'s newest row. */
  add(account: string, seq: number): void {
    if (this.rows === 0) this.low = seq;
    else if (seq - this.low > this.mask) this.widen(seq);
    this.links[seq & this.mask] = NONE;
    this.rows++;
    const s = this.slots.get(account);
    if (s === undefined) {
      const slot = this.free.pop() ?? this.used++;
      if (slot === this.heads.length) this.grow();
      this.slots.set(account, slot);
      this.heads[slot] = seq;
      this.tails[slot] = seq;
      this.counts[slot] = 1;
      return;
    }
    this.links[this.tails[s]! & this.mask] = seq;
    this.tails[s] = seq;
    this.counts[s]!++;
  }

  /** `account`'s rows, oldest first. */
  of(account: string): number[] {
    const s = this.slots.get(account);
    if (s === undefined) return [];
    const out = new Array<number>(this.counts[s]!);
    let seq = this.heads[s]!;
    for (let k = 0; k < out.length; k++) {
      out[k] = seq;
      seq = this.links[seq & this.mask]!;
    }
    return out;
  }

  /** Takes `seq` off `account`'s list (its head, as the fold takes rows; else found by a walk). */
  delete(account: string, seq: number): void {
    const s = this.slots.get(account);
    if (s === undefined) return;
    const head = this.heads[s]!;
    if (head === seq) {
      if (--this.counts[s]! === 0) {
        this.slots.delete(account);
        this.free.push(s);
      } else this.heads[s] = this.links[seq & this.mask]!;
    } else {
      let prev = head;
      let next = this.links[prev & this.mask]!;
      while (next !== seq) {
        if (next === NONE) return;
        prev = next;
        next = this.links[prev & this.mask]!;
      }
      const after = this.links[seq & this.mask]!;
      this.links[prev & this.mask] = after;
      if (this.tails[s] === seq) this.tails[s] = prev;
      this.counts[s]!--;
    }
    if (--this.rows === 0) this.low = NaN;
  }

  clear(): void {
    this.slots.clear();
    this.free.length = 0;
    this.used = 0;
    this.rows = 0;
    this.low = NaN;
  }

  /**
   * Makes room in the ring for `seq`: the oldest row listed may have left (the fold took it),
   * so find it again; if the span still fills more than half the ring, double it (so the next
   * search is at least half a ring of rows away) and move each list over.
   */
  private widen(seq: number): void {
    let low = seq;
    for (const s of this.slots.values()) low = Math.min(low, this.heads[s]!);
    this.low = low;
    if (2 * (seq - low) <= this.mask) return;
    let size = this.links.length * 2;
    while (size - 1 < 2 * (seq - low)) size *= 2;
    const links = new Float64Array(size);
    const mask = size - 1;
    for (const s of this.slots.values()) {
      let at = this.heads[s]!;
      for (let k = 0; k < this.counts[s]!; k++) {
        const next = this.links[at & this.mask]!;
        links[at & mask] = next;
        at = next;
      }
    }
    this.links = links;
    this.mask = mask;
  }

  private grow(): void {
    const n = this.heads.length * 2;
    const heads = new Float64Array(n);
    const tails = new Float64Array(n);
    const counts = new Uint32Array(n);
    heads.set(this.heads);
    tails.set(this.tails);
    counts.set(this.counts);
    this.heads = heads;
    this.tails = tails;
    this.counts = counts;
  }
}
