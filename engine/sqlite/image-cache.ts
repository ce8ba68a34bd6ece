/**
 * Which pending rows of the SQLite store's overlay keep their newest image in memory (a load
 * then needs no read of the journal): the most recent `limit` images of both kinds, the
 * oldest given up first. A spike appends images faster than the fold takes them; the next
 * unit to load a row is most often the one right after (the call's acceptance), so the recent
 * images are the ones worth keeping, whatever the number pending.
 * @module
 */

/** What the cache asks of the rows that hold the images. */
export interface ImageHolder {
  /** Gives up the image at `slot` if it is still the one of journal row `seq`; true if it was. */
  dropImage(slot: number, seq: number): boolean;
  /** Whether `slot` still holds the image of journal row `seq`. */
  holds(slot: number, seq: number): boolean;
}

const INITIAL = 1024;

/** See the module comment. Images enter in order with {@link ImageCache.kept}. */
export class ImageCache {
  /** Images held now. */
  count = 0;
  private readonly holders: ImageHolder[] = [];
  // A queue of (holder, slot, seq) in the order kept; entries whose image was replaced or
  // dropped since are skipped when they reach the front.
  private owners = new Uint8Array(INITIAL);
  private slots = new Int32Array(INITIAL);
  private seqs = new Float64Array(INITIAL);
  private head = 0;
  private length = 0;

  constructor(readonly limit: number) {}

  /** Registers the rows of one kind; answers the number it passes to {@link ImageCache.kept}. */
  register(holder: ImageHolder): number {
    return this.holders.push(holder) - 1;
  }

  /** Notes an image kept by `owner` at `slot` for journal row `seq`; gives up the oldest past `limit`. */
  kept(owner: number, slot: number, seq: number): void {
    if (this.length === this.seqs.length) this.compact();
    const i = (this.head + this.length++) % this.seqs.length;
    this.owners[i] = owner;
    this.slots[i] = slot;
    this.seqs[i] = seq;
    while (this.count > this.limit && this.length > 0) this.dropOldest();
  }

  clear(): void {
    this.count = 0;
    this.head = 0;
    this.length = 0;
  }

  private dropOldest(): void {
    const i = this.head;
    this.head = (this.head + 1) % this.seqs.length;
    this.length--;
    if (this.holders[this.owners[i]!]!.dropImage(this.slots[i]!, this.seqs[i]!)) this.count--;
  }

  /**
   * The queue is full: keep only the entries still holding their image (at most `count`, in
   * order), in a queue twice as long when more than half of it would stay.
   */
  private compact(): void {
    const size = this.seqs.length;
    const owners = new Uint8Array(this.count * 2 > size ? size * 2 : size);
    const slots = new Int32Array(owners.length);
    const seqs = new Float64Array(owners.length);
    let n = 0;
    for (let k = 0; k < this.length; k++) {
      const i = (this.head + k) % size;
      if (!this.holders[this.owners[i]!]!.holds(this.slots[i]!, this.seqs[i]!)) continue;
      owners[n] = this.owners[i]!;
      slots[n] = this.slots[i]!;
      seqs[n] = this.seqs[i]!;
      n++;
    }
    this.owners = owners;
    this.slots = slots;
    this.seqs = seqs;
    this.head = 0;
    this.length = n;
  }
}
