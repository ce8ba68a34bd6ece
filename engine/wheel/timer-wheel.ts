/**
 * A hierarchical hashed timer wheel (Varghese & Lauck; Kafka's `TimingWheel`, Linux's timer
 * wheel) holding the near horizon of due work. The wheel never reads a clock: the caller
 * passes time in with {@link TimerWheel.advance}, and due entries come out in due order.
 *
 * Shape: `levels` wheels of `2^bits` slots. A slot of level L spans `2^(bits·L)` ms, so with
 * the defaults (bits 8, 4 levels) level 0 has 1 ms slots over 256 ms, level 1 256 ms slots
 * over 65.5 s, level 2 65.5 s slots over 4.7 h, level 3 4.7 h slots over 49.7 days; anything
 * further waits in an overflow list. Each slot is a doubly linked list, so `add` and
 * `cancel` are O(1) whatever the number of entries. Entries live in typed arrays indexed by
 * an integer handle (no object per timer): the cost of an add stays flat from ten thousand
 * to millions of pending timers (no garbage-collector pressure from old-to-new pointers),
 * and a pending timer costs about 32 bytes plus its value.
 *
 * Placement: write instants as base-2^bits digits. An entry goes to the HIGHEST level whose
 * digit differs between its instant and `now`, in the slot named by its own digit there.
 * When `now` reaches the start of a non-empty slot of level L > 0, the slot is cascaded:
 * each entry is due (its instant is that start) or is placed again, at a lower level. A
 * level-0 slot holds entries of exactly one millisecond; reaching it makes all of them due.
 * Entries of equal instant always share one slot, so ties come out in the order added.
 *
 * Worked example with bits = 2 (4 slots a level; level 0: 1 ms slots, level 1: 4 ms,
 * level 2: 16 ms), now = 0, entries A at 3, B at 6, C at 6, D at 21:
 *
 * | now | level 0 slots [0,1,2,3] | level 1 slots [0,1,2,3] | level 2 slots [0,1,2,3] | due (in order) |
 * |-----|-------------------------|-------------------------|-------------------------|----------------|
 * | 0   | [ , , ,A]               | [ ,BC, , ]              | [ ,D, , ]               |                |
 * | 3   | [ , , , ]               | [ ,BC, , ]              | [ ,D, , ]               | A              |
 * | 4   | [ , ,BC, ]  (cascade)   | [ , , , ]               | [ ,D, , ]               |                |
 * | 6   | [ , , , ]               | [ , , , ]               | [ ,D, , ]               | B, C           |
 * | 16  | [ , , , ]               | [ ,D, , ]  (cascade)    | [ , , , ]               |                |
 * | 20  | [ ,D, , ]  (cascade)    | [ , , , ]               | [ , , , ]               |                |
 * | 21  | [ , , , ]               | [ , , , ]               | [ , , , ]               | D              |
 *
 * (6 = digits 0,1,2 → level 1, slot 1; at now 4 its level-1 digit matches, so it drops to
 * level 0 slot 2. 21 = digits 1,1,1 → level 2 slot 1; at 16 → level 1 slot 1; at 20 →
 * level 0 slot 1.) `advance(5)` from 0 would stop at 3 (A due) and 4 (cascade) and end at
 * now 5; the caller sleeps until {@link TimerWheel.nextEventAt} (here 6).
 *
 * Instants are epoch milliseconds; a fractional instant is rounded UP (never early).
 * @module
 */
import type { EpochMs } from '../ports.js';

/** A timer taken from the wheel by {@link TimerWheel.takeReady}. */
export interface WheelEntry<T> {
  /** The handle `add` returned (no longer valid). */
  handle: number;
  /** The instant it was due (whole ms, rounded up). */
  at: EpochMs;
  value: T;
}

/** Options of {@link TimerWheel}. */
export interface TimerWheelOptions {
  /** log2 of the slots per level. @defaultValue 8 */
  bits?: number;
  /** Number of levels. @defaultValue 4 */
  levels?: number;
}

const NONE = -1;
/** Handles are `generation · 2^24 + index`, so a stale handle never cancels a reused slot. */
const INDEX_SPACE = 2 ** 24;

/**
 * Hierarchical hashed timer wheel. See the module comment for the layout and a worked example.
 * `add` returns an integer handle; `cancel(handle)` is O(1) and safe to call twice.
 *
 * @example
 * const wheel = new TimerWheel<string>(clock.now());
 * const h = wheel.add(clock.now() + 5000, 'occurrence-1');
 * wheel.advance(clock.now());            // time is passed in
 * for (const due of wheel.takeReady(100)) handle(due.value);
 * wheel.cancel(h);                        // O(1), no-op when already taken
 */
export class TimerWheel<T> {
  private readonly slots: number;
  private readonly levels: number;
  private readonly span: number[]; // span[L] = ms per slot at level L; span[levels] = whole wheel
  private readonly origin: number;
  private current = 0; // now, as an offset from origin
  private count = 0;

  // Entry storage, by index.
  private tick = new Float64Array(1024);
  private next = new Int32Array(1024);
  private prev = new Int32Array(1024);
  private list = new Int32Array(1024); // which list holds it, NONE when free
  private gen = new Uint32Array(1024);
  /** Values by index; grown with push so that V8 keeps fast (non-dictionary) elements. */
  private values: (T | undefined)[] = [];
  private free = NONE; // free-list head (linked through `next`)
  private used = 0; // indexes handed out so far

  // Lists: level·slots + slot for wheel slots, then READY, then OVERFLOW.
  private readonly heads: Int32Array;
  private readonly tails: Int32Array;
  private readonly sizes: Int32Array;
  private readonly READY: number;
  private readonly OVERFLOW: number;

  /** @param now - the wheel's starting instant (epoch ms). */
  constructor(now: EpochMs, options: TimerWheelOptions = {}) {
    const bits = options.bits ?? 8;
    const levels = options.levels ?? 4;
    if (!Number.isInteger(bits) || bits < 1 || bits > 16)
      throw new RangeError(`TimerWheel: bits must be 1..16, got ${bits}`);
    if (!Number.isInteger(levels) || levels < 1 || levels > 8)
      throw new RangeError(`TimerWheel: levels must be 1..8, got ${levels}`);
    if (!Number.isFinite(now)) throw new RangeError(`TimerWheel: invalid now ${now}`);
    this.slots = 2 ** bits;
    this.levels = levels;
    this.span = Array.from({ length: levels + 1 }, (_, l) => 2 ** (bits * l));
    this.origin = Math.floor(now);
    const lists = levels * this.slots + 2;
    this.READY = lists - 2;
    this.OVERFLOW = lists - 1;
    this.heads = new Int32Array(lists).fill(NONE);
    this.tails = new Int32Array(lists).fill(NONE);
    this.sizes = new Int32Array(lists);
  }

  /** The wheel's current instant (the last `advance`, or the start). */
  get now(): EpochMs {
    return this.origin + this.current;
  }

  /** Timers held: waiting in slots, in the overflow list and ready to take. */
  get size(): number {
    return this.count;
  }

  /** Timers that are due and not yet taken. */
  get readyCount(): number {
    return this.sizes[this.READY]!;
  }

  /**
   * Holds `value` until `at`; returns its handle. O(1). An instant at or before `now` is due
   * at once: it joins the ready queue (after those already there) and the next `takeReady`
   * returns it.
   */
  add(at: EpochMs, value: T): number {
    if (Number.isNaN(at)) throw new RangeError('TimerWheel.add: instant is NaN');
    const i = this.alloc();
    this.tick[i] = Math.max(Math.ceil(at) - this.origin, -Number.MAX_SAFE_INTEGER);
    this.values[i] = value;
    this.place(i);
    this.count++;
    return this.gen[i]! * INDEX_SPACE + i;
  }

  /** True while the timer is held (not yet taken, not cancelled). */
  has(handle: number): boolean {
    return this.indexOf(handle) !== NONE;
  }

  /** The value of a held timer, or undefined once it was taken or cancelled. O(1). */
  get(handle: number): T | undefined {
    const i = this.indexOf(handle);
    return i === NONE ? undefined : this.values[i];
  }

  /** Removes a timer in O(1). Returns false when it was already taken or cancelled. */
  cancel(handle: number): boolean {
    const i = this.indexOf(handle);
    if (i === NONE) return false;
    this.unlink(i);
    this.release(i);
    this.count--;
    return true;
  }

  /**
   * Moves the wheel to `now` (never backwards: an earlier instant is ignored) and queues
   * every timer due at or before it, in due order, ties in the order added. Returns the
   * number of ready timers.
   */
  advance(now: EpochMs): number {
    const to = Math.floor(now) - this.origin;
    while (this.current < to) {
      const ev = this.nextEventTick();
      if (ev === null || ev > to) {
        this.current = to;
        break;
      }
      this.current = ev;
      this.fire(ev);
    }
    return this.sizes[this.READY]!;
  }

  /** Takes up to `max` due timers, earliest first. */
  takeReady(max = Infinity): WheelEntry<T>[] {
    const out: WheelEntry<T>[] = [];
    while (out.length < max && this.heads[this.READY] !== NONE) {
      const i = this.heads[this.READY]!;
      out.push({
        handle: this.gen[i]! * INDEX_SPACE + i,
        at: this.origin + this.tick[i]!,
        value: this.values[i] as T,
      });
      this.unlink(i);
      this.release(i);
      this.count--;
    }
    return out;
  }

  /**
   * The next instant at which `advance` has work: `now` when timers are ready, else the
   * start of the earliest non-empty slot (exact at level 0, a lower bound above it, where
   * reaching it cascades), or null when the wheel is empty. Sleep until then.
   */
  nextEventAt(): EpochMs | null {
    if (this.sizes[this.READY]! > 0) return this.now;
    const ev = this.nextEventTick();
    return ev === null ? null : this.origin + ev;
  }

  // ---- storage ---------------------------------------------------------------------------

  private indexOf(handle: number): number {
    if (!Number.isInteger(handle) || handle < 0) return NONE;
    const i = handle % INDEX_SPACE;
    if (
      i >= this.used ||
      this.list[i] === NONE ||
      this.gen[i]! !== Math.floor(handle / INDEX_SPACE)
    )
      return NONE;
    return i;
  }

  private alloc(): number {
    if (this.values.length === 0)
      for (let k = 0; k < this.tick.length; k++) this.values.push(undefined);
    let i = this.free;
    if (i !== NONE) {
      this.free = this.next[i]!;
      return i;
    }
    i = this.used++;
    if (i >= INDEX_SPACE) throw new RangeError(`TimerWheel: more than ${INDEX_SPACE} timers`);
    if (i >= this.tick.length) this.grow();
    return i;
  }

  private release(i: number): void {
    this.values[i] = undefined;
    this.list[i] = NONE;
    this.gen[i] = (this.gen[i]! + 1) % 2 ** 29; // keeps handles below 2^53
    this.next[i] = this.free;
    this.free = i;
  }

  private grow(): void {
    const n = this.tick.length * 2;
    const g = <A extends Float64Array | Int32Array | Uint32Array>(
      a: A,
      make: (n: number) => A,
    ): A => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.tick = g(this.tick, (k) => new Float64Array(k));
    this.next = g(this.next, (k) => new Int32Array(k));
    this.prev = g(this.prev, (k) => new Int32Array(k));
    this.list = g(this.list, (k) => new Int32Array(k));
    this.gen = g(this.gen, (k) => new Uint32Array(k));
    for (let k = this.values.length; k < n; k++) this.values.push(undefined);
  }

  private append(l: number, i: number): void {
    this.list[i] = l;
    this.next[i] = NONE;
    const tail = this.tails[l]!;
    this.prev[i] = tail;
    if (tail !== NONE) this.next[tail] = i;
    else this.heads[l] = i;
    this.tails[l] = i;
    this.sizes[l]!++;
  }

  private unlink(i: number): void {
    const l = this.list[i]!;
    const p = this.prev[i]!;
    const n = this.next[i]!;
    if (p !== NONE) this.next[p] = n;
    else this.heads[l] = n;
    if (n !== NONE) this.prev[n] = p;
    else this.tails[l] = p;
    this.sizes[l]!--;
  }

  /** Moves every timer of list `from` to the end of list `to`. */
  private spliceAll(from: number, to: number): void {
    const head = this.heads[from]!;
    if (head === NONE) return;
    for (let i = head; i !== NONE; i = this.next[i]!) this.list[i] = to;
    const tail = this.tails[to]!;
    if (tail !== NONE) {
      this.next[tail] = head;
      this.prev[head] = tail;
    } else this.heads[to] = head;
    this.tails[to] = this.tails[from]!;
    this.sizes[to]! += this.sizes[from]!;
    this.heads[from] = this.tails[from] = NONE;
    this.sizes[from] = 0;
  }

  // ---- the wheel -------------------------------------------------------------------------

  private digit(tick: number, level: number): number {
    return Math.floor(tick / this.span[level]!) % this.slots;
  }

  private place(i: number): void {
    const t = this.tick[i]!;
    if (t <= this.current) {
      this.append(this.READY, i);
      return;
    }
    for (let l = 0; l < this.levels; l++) {
      const above = this.span[l + 1]!;
      if (Math.floor(t / above) === Math.floor(this.current / above)) {
        this.append(l * this.slots + this.digit(t, l), i);
        return;
      }
    }
    this.append(this.OVERFLOW, i);
  }

  /** Offset of the next slot start holding timers, or null. Lower levels always come first. */
  private nextEventTick(): number | null {
    for (let l = 0; l < this.levels; l++) {
      const base = Math.floor(this.current / this.span[l + 1]!) * this.span[l + 1]!;
      const first = l * this.slots;
      for (let d = this.digit(this.current, l) + 1; d < this.slots; d++) {
        if (this.sizes[first + d]! > 0) return base + d * this.span[l]!;
      }
    }
    if (this.sizes[this.OVERFLOW]! > 0) {
      // Jump straight to the rotation of the whole wheel that holds the earliest overflow timer.
      const whole = this.span[this.levels]!;
      let min = Infinity;
      for (let i = this.heads[this.OVERFLOW]!; i !== NONE; i = this.next[i]!)
        if (this.tick[i]! < min) min = this.tick[i]!;
      return Math.floor(min / whole) * whole;
    }
    return null;
  }

  /** Handles reaching `tick`: cascades the slots that start here, then queues level 0's. */
  private fire(tick: number): void {
    if (tick % this.span[this.levels]! === 0 && this.sizes[this.OVERFLOW]! > 0)
      this.replaceAll(this.OVERFLOW);
    for (let l = this.levels - 1; l >= 1; l--) {
      if (tick % this.span[l]! !== 0) continue;
      const slot = l * this.slots + this.digit(tick, l);
      if (this.sizes[slot]! > 0) this.replaceAll(slot);
    }
    this.spliceAll(this.digit(tick, 0), this.READY);
  }

  private replaceAll(l: number): void {
    let i = this.heads[l]!;
    this.heads[l] = this.tails[l] = NONE;
    this.sizes[l] = 0;
    while (i !== NONE) {
      const n = this.next[i]!;
      this.place(i);
      i = n;
    }
  }
}
