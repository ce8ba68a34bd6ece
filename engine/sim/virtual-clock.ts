import type { Clock, EpochMs, TimerHandle } from '../ports.js';

interface Entry {
  at: EpochMs;
  seq: number;
  fn: () => void | Promise<void>;
  cancelled: boolean;
}

function before(a: Entry, b: Entry): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

/**
 * A clock that moves only when told to. Shipped with the engine for tests, examples and the
 * host's `WAKEUP_CLOCK=virtual` mode.
 *
 * `advance(to)` runs every timer due at or before `to` in due order (ties in the order they
 * were armed), including timers that earlier timers arm, awaiting each one's promise before
 * the next, and then sets `now()` to `to`. It refuses to go backwards. While a timer runs,
 * `now()` is that timer's instant.
 *
 * Timers live in a binary heap ordered by (instant, arming order): arming and running are
 * O(log n); a cancelled timer is dropped lazily (and the heap compacted when more than half
 * of it is cancelled).
 *
 * @example
 * const clock = new VirtualClock(Date.parse('2027-03-14T06:00:00Z'));
 * clock.setTimer(clock.now() + 60_000, () => console.log('one minute later'));
 * await clock.advanceBy(60_000);
 */
export class VirtualClock implements Clock {
  private current: EpochMs;
  private seq = 0;
  private heap: Entry[] = [];
  private live = 0;
  private running: Promise<void> = Promise.resolve();

  constructor(start: EpochMs) {
    if (!Number.isFinite(start)) throw new RangeError(`VirtualClock: invalid start ${start}`);
    this.current = start;
  }

  /** The virtual instant: the start, then the last `advance` target, or the running timer's instant. */
  now(): EpochMs {
    return this.current;
  }

  /** Arms `fn` for `at`; it runs when an `advance` reaches `at` (at once on the next `advance` when `at` is past). */
  setTimer(at: EpochMs, fn: () => void | Promise<void>): TimerHandle {
    if (Number.isNaN(at)) throw new RangeError('VirtualClock.setTimer: instant is NaN');
    const entry: Entry = { at, seq: this.seq++, fn, cancelled: false };
    this.push(entry);
    this.live++;
    return {
      cancel: () => {
        if (entry.cancelled) return;
        entry.cancelled = true;
        this.live--;
        if (this.heap.length > 64 && this.live * 2 < this.heap.length) this.compact();
      },
    };
  }

  /** Number of armed, uncancelled timers. */
  get pending(): number {
    return this.live;
  }

  /** The instant of the earliest armed timer, or null. */
  nextAt(): EpochMs | null {
    this.dropCancelledTop();
    return this.heap.length > 0 ? this.heap[0]!.at : null;
  }

  /** Moves to `to`, running every due timer first. Concurrent calls are serialised. */
  advance(to: EpochMs): Promise<EpochMs> {
    const run = this.running.then(() => this.run(to));
    this.running = run.catch(() => undefined);
    return run.then(() => this.current);
  }

  /** Moves forward by `ms` milliseconds. */
  advanceBy(ms: number): Promise<EpochMs> {
    return this.running.then(() => this.advance(this.current + ms));
  }

  private async run(to: EpochMs): Promise<void> {
    if (!Number.isFinite(to)) throw new RangeError(`VirtualClock: invalid instant ${to}`);
    if (to < this.current) {
      throw new RangeError(
        `VirtualClock: cannot go back from ${new Date(this.current).toISOString()} to ${new Date(to).toISOString()}`,
      );
    }
    for (;;) {
      this.dropCancelledTop();
      const next = this.heap[0];
      if (!next || next.at > to) break;
      this.pop();
      next.cancelled = true;
      this.live--;
      if (next.at > this.current) this.current = next.at;
      await next.fn();
    }
    this.current = to;
  }

  private dropCancelledTop(): void {
    while (this.heap.length > 0 && this.heap[0]!.cancelled) this.pop();
  }

  private compact(): void {
    const keep = this.heap.filter((e) => !e.cancelled);
    this.heap = [];
    for (const e of keep) this.push(e);
  }

  private push(e: Entry): void {
    const h = this.heap;
    let i = h.length;
    h.push(e);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(e, h[p]!)) break;
      h[i] = h[p]!;
      i = p;
    }
    h[i] = e;
  }

  private pop(): Entry | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length === 0 || last === undefined) return top;
    let i = 0;
    const n = h.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && before(h[r]!, h[l]!) ? r : l;
      if (!before(h[c]!, last)) break;
      h[i] = h[c]!;
      i = c;
    }
    h[i] = last;
    return top;
  }
}
