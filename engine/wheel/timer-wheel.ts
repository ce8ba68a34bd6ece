/**
 * A hierarchical hashed timer wheel (Varghese & Lauck; Kafka's `TimingWheel`, Linux's timer
 * wheel) holding the near horizon of due work. The wheel never reads a clock: the caller
 * passes time in with {@link TimerWheel.advance}, and due entries come out in due order.
 *
 * Shape: `levels` wheels of `2^bits` slots. A slot of level L spans `2^(bits·L)` ms, so with
 * the defaults (bits 8, 4 levels) level 0 has 1 ms slots over 256 ms, level 1 256 ms slots
 * over 65.5 s, level 2 65.5 s slots over 4.7 h, level 3 4.7 h slots over 49.7 days; anything
 * further waits in an overflow list. Each slot is a doubly linked list, so `add` and
 * `cancel` are O(1) whatever the number of entries.
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

/** A list of timers: a slot, the ready queue or the overflow list. */
interface List<T> {
  head: WheelTimer<T> | null;
  tail: WheelTimer<T> | null;
  size: number;
}

/** A timer held by a {@link TimerWheel}; keep it to cancel. */
export class WheelTimer<T> {
  /** @internal */ prev: WheelTimer<T> | null = null;
  /** @internal */ next: WheelTimer<T> | null = null;
  /** @internal */ list: List<T> | null = null;
  /** @internal offset from the wheel's origin, in whole ms */ tick: number;

  /** @internal */
  constructor(
    /** The instant it is due (whole ms, rounded up). */
    readonly at: EpochMs,
    /** What the caller attached. */
    readonly value: T,
    tick: number,
  ) {
    this.tick = tick;
  }

  /** True while it is in the wheel (not yet taken, not cancelled). */
  get active(): boolean {
    return this.list !== null;
  }
}

function newList<T>(): List<T> {
  return { head: null, tail: null, size: 0 };
}

function append<T>(list: List<T>, t: WheelTimer<T>): void {
  t.list = list;
  t.prev = list.tail;
  t.next = null;
  if (list.tail) list.tail.next = t;
  else list.head = t;
  list.tail = t;
  list.size++;
}

function unlink<T>(t: WheelTimer<T>): void {
  const list = t.list!;
  if (t.prev) t.prev.next = t.next;
  else list.head = t.next;
  if (t.next) t.next.prev = t.prev;
  else list.tail = t.prev;
  t.prev = t.next = t.list = null;
  list.size--;
}

/** Moves every timer of `from` to the end of `to` in O(1). */
function spliceAll<T>(from: List<T>, to: List<T>): void {
  if (!from.head) return;
  for (let t: WheelTimer<T> | null = from.head; t; t = t.next) t.list = to;
  // Re-pointing `list` is O(n); the splice itself is O(1). Both are bounded by the due set.
  if (to.tail) {
    to.tail.next = from.head;
    from.head.prev = to.tail;
  } else to.head = from.head;
  to.tail = from.tail;
  to.size += from.size;
  from.head = from.tail = null;
  from.size = 0;
}

/** Options of {@link TimerWheel}. */
export interface TimerWheelOptions {
  /** log2 of the slots per level. @defaultValue 8 */
  bits?: number;
  /** Number of levels. @defaultValue 4 */
  levels?: number;
}

/**
 * Hierarchical hashed timer wheel. See the module comment for the layout and a worked example.
 *
 * @example
 * const wheel = new TimerWheel<string>(clock.now());
 * const t = wheel.add(clock.now() + 5000, 'occurrence-1');
 * wheel.advance(clock.now());            // time is passed in
 * for (const due of wheel.takeReady(100)) handle(due.value);
 * wheel.cancel(t);                        // O(1), no-op when already taken
 */
export class TimerWheel<T> {
  private readonly slots: number;
  private readonly span: number[]; // span[L] = ms per slot at level L; span[levels] = whole wheel
  private readonly wheels: List<T>[][];
  private readonly ready = newList<T>();
  private readonly overflow = newList<T>();
  private readonly origin: number;
  private current = 0; // now, as an offset from origin
  private count = 0;

  /** @param now - the wheel's starting instant (epoch ms). */
  constructor(now: EpochMs, options: TimerWheelOptions = {}) {
    const bits = options.bits ?? 8;
    const levels = options.levels ?? 4;
    if (!Number.isInteger(bits) || bits < 1 || bits > 16) throw new RangeError(`TimerWheel: bits must be 1..16, got ${bits}`);
    if (!Number.isInteger(levels) || levels < 1 || levels > 8) throw new RangeError(`TimerWheel: levels must be 1..8, got ${levels}`);
    if (!Number.isFinite(now)) throw new RangeError(`TimerWheel: invalid now ${now}`);
    this.slots = 2 ** bits;
    this.span = Array.from({ length: levels + 1 }, (_, l) => 2 ** (bits * l));
    this.wheels = Array.from({ length: levels }, () => Array.from({ length: this.slots }, () => newList<T>()));
    this.origin = Math.floor(now);
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
    return this.ready.size;
  }

  /**
   * Holds `value` until `at`. O(1). An instant at or before `now` is due at once: it joins
   * the ready queue (after those already there) and the next `takeReady` returns it.
   */
  add(at: EpochMs, value: T): WheelTimer<T> {
    if (Number.isNaN(at)) throw new RangeError('TimerWheel.add: instant is NaN');
    const tick = Math.max(Math.ceil(at) - this.origin, -Number.MAX_SAFE_INTEGER);
    const t = new WheelTimer(this.origin + tick, value, tick);
    this.place(t);
    this.count++;
    return t;
  }

  /** Removes a timer in O(1). Returns false when it was already taken or cancelled. */
  cancel(t: WheelTimer<T>): boolean {
    if (!t.list) return false;
    unlink(t);
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
    return this.ready.size;
  }

  /** Takes up to `max` due timers, earliest first. */
  takeReady(max = Infinity): WheelTimer<T>[] {
    const out: WheelTimer<T>[] = [];
    while (out.length < max && this.ready.head) {
      const t = this.ready.head;
      unlink(t);
      this.count--;
      out.push(t);
    }
    return out;
  }

  /**
   * The next instant at which `advance` has work: `now` when timers are ready, else the
   * start of the earliest non-empty slot (exact at level 0, a lower bound above it, where
   * reaching it cascades), or null when the wheel is empty. Sleep until then.
   */
  nextEventAt(): EpochMs | null {
    if (this.ready.size > 0) return this.now;
    const ev = this.nextEventTick();
    return ev === null ? null : this.origin + ev;
  }

  private digit(tick: number, level: number): number {
    return Math.floor(tick / this.span[level]!) % this.slots;
  }

  private place(t: WheelTimer<T>): void {
    if (t.tick <= this.current) {
      append(this.ready, t);
      return;
    }
    const levels = this.wheels.length;
    for (let l = 0; l < levels; l++) {
      const above = this.span[l + 1]!;
      if (Math.floor(t.tick / above) === Math.floor(this.current / above)) {
        append(this.wheels[l]![this.digit(t.tick, l)]!, t);
        return;
      }
    }
    append(this.overflow, t);
  }

  /** Offset of the next slot start holding timers, or null. Lower levels always come first. */
  private nextEventTick(): number | null {
    const levels = this.wheels.length;
    for (let l = 0; l < levels; l++) {
      const wheel = this.wheels[l]!;
      const base = Math.floor(this.current / this.span[l + 1]!) * this.span[l + 1]!;
      for (let d = this.digit(this.current, l) + 1; d < this.slots; d++) {
        if (wheel[d]!.size > 0) return base + d * this.span[l]!;
      }
    }
    if (this.overflow.size > 0) {
      // Jump straight to the rotation of the whole wheel that holds the earliest overflow timer.
      const whole = this.span[levels]!;
      let min = Infinity;
      for (let t = this.overflow.head; t; t = t.next) if (t.tick < min) min = t.tick;
      return Math.floor(min / whole) * whole;
    }
    return null;
  }

  /** Handles reaching `tick`: cascades the slots that start here, then queues level 0's. */
  private fire(tick: number): void {
    const levels = this.wheels.length;
    if (tick % this.span[levels]! === 0 && this.overflow.size > 0) this.replaceAll(this.overflow);
    for (let l = levels - 1; l >= 1; l--) {
      if (tick % this.span[l]! !== 0) continue;
      const slot = this.wheels[l]![this.digit(tick, l)]!;
      if (slot.size > 0) this.replaceAll(slot);
    }
    spliceAll(this.wheels[0]![this.digit(tick, 0)]!, this.ready);
  }

  private replaceAll(list: List<T>): void {
    let t = list.head;
    list.head = list.tail = null;
    list.size = 0;
    while (t) {
      const next = t.next;
      t.prev = t.next = t.list = null;
      this.place(t);
      t = next;
    }
  }
}
