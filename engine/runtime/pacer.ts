/**
 * Provider pacing: at most `callsPerSecond` calls started, and at a peak calls start early
 * enough that each one rings at its instant when capacity allows, but never more than
 * `maxLeadMs` before it.
 *
 * Calls enter the queue `maxLeadMs` before their instant (the runtime's wheel fires them
 * then), in instant order. Started back to back one `interval = 1000 / callsPerSecond` ms
 * apart from slot time `s`, the j-th queued call starts at `s + j·interval`; it is on time
 * while that is ≤ its instant `due_j`. So the head may wait until
 * `L = min_j (due_j − j·interval)` (the latest start that keeps everyone on time) and must
 * go then; it also goes once it is due itself. When even starting at once cannot keep
 * everyone on time (more calls than `callsPerSecond · maxLeadMs`), the queue runs at full
 * rate from `maxLeadMs` before the peak and the tail rings late.
 *
 * `L` is kept in O(1) amortised with a monotonic deque over `due_i − i·interval` (i = the
 * absolute queue position), so a spike of a million calls costs O(1) per call.
 * @module
 */
import type { EpochMs } from '../ports.js';

/** A queue that releases calls at a bounded rate, as late as keeps them on time. */
export class Pacer<T> {
  private readonly interval: number;
  private items: T[] = [];
  private dues: number[] = [];
  private head = 0;
  /** Absolute positions (indexes into items) whose keys increase: the front is the minimum. */
  private mins: number[] = [];
  private minsHead = 0;
  private nextSlot = -Infinity;

  constructor(
    callsPerSecond: number,
    /** Earliest start before an instant, ms (documentation only: the caller enqueues at due − lead). */
    readonly maxLeadMs: number,
  ) {
    if (!(callsPerSecond > 0) || !Number.isFinite(callsPerSecond))
      throw new RangeError('Pacer: callsPerSecond must be finite and > 0');
    this.interval = 1000 / callsPerSecond;
  }

  /** Calls waiting. */
  get size(): number {
    return this.items.length - this.head;
  }

  /** Queues a call due at `due`. Out-of-order arrivals are inserted in place (O(n), rare). */
  enqueue(item: T, due: EpochMs): void {
    const n = this.items.length;
    if (n > this.head && due < this.dues[n - 1]!) {
      const pending = this.drainAll();
      pending.push({ item, due });
      pending.sort((a, b) => a.due - b.due);
      for (const p of pending) this.append(p.item, p.due);
      return;
    }
    this.append(item, due);
  }

  /** A call started outside the queue (a test call) takes the next slot. */
  consume(now: EpochMs): void {
    this.nextSlot = Math.max(this.nextSlot, now - this.interval) + this.interval;
  }

  /** Calls to start at `now`, in order, at most `max`. */
  release(now: EpochMs, max: number): T[] {
    const out: T[] = [];
    // Catch up at most 50 ms of slots lost to timer lateness while calls are waiting; never
    // bank idle time (after a pause longer than a slot, the next call starts now, alone).
    if (this.nextSlot < now - 50 - this.interval) this.nextSlot = now;
    else if (this.nextSlot < now - 50) this.nextSlot = now - 50;
    while (out.length < max && this.size > 0 && this.nextSlot <= now) {
      const due = this.dues[this.head]!;
      if (due > now && this.latestStart() > now) break;
      out.push(this.shift());
      this.nextSlot += this.interval;
    }
    return out;
  }

  /** When `release` may next return something, or null when empty. */
  nextReleaseAt(): EpochMs | null {
    if (this.size === 0) return null;
    return Math.max(this.nextSlot, Math.min(this.dues[this.head]!, this.latestStart()));
  }

  private key(i: number): number {
    return this.dues[i]! - i * this.interval;
  }

  private latestStart(): number {
    const i = this.mins[this.minsHead]!;
    // Position relative to the head is i − head.
    return this.key(i) + this.head * this.interval;
  }

  private append(item: T, due: EpochMs): void {
    const i = this.items.length;
    this.items.push(item);
    this.dues.push(due);
    const k = this.key(i);
    while (this.mins.length > this.minsHead && this.key(this.mins[this.mins.length - 1]!) >= k)
      this.mins.pop();
    this.mins.push(i);
  }

  private shift(): T {
    const i = this.head++;
    const item = this.items[i]!;
    if (this.mins[this.minsHead] === i) this.minsHead++;
    if (this.head === this.items.length) this.reset();
    else if (this.head > 4096 && this.head * 2 > this.items.length) this.compact();
    return item;
  }

  private reset(): void {
    this.items = [];
    this.dues = [];
    this.head = 0;
    this.mins = [];
    this.minsHead = 0;
  }

  private compact(): void {
    const rest = this.drainAll();
    for (const r of rest) this.append(r.item, r.due);
  }

  private drainAll(): { item: T; due: number }[] {
    const rest: { item: T; due: number }[] = [];
    for (let i = this.head; i < this.items.length; i++)
      rest.push({ item: this.items[i]!, due: this.dues[i]! });
    this.reset();
    return rest;
  }
}
