import type { Clock, EpochMs, TimerHandle } from '../ports.js';

interface Entry {
  at: EpochMs;
  seq: number;
  fn: () => void | Promise<void>;
  cancelled: boolean;
}

/**
 * A clock that moves only when told to. Shipped with the engine for tests, examples and the
 * host's `WAKEUP_CLOCK=virtual` mode.
 *
 * `advance(to)` runs every timer due at or before `to` in due order (ties in the order they
 * were armed), including timers that earlier timers arm, awaiting each one's promise before
 * the next, and then sets `now()` to `to`. It refuses to go backwards.
 *
 * @example
 * const clock = new VirtualClock(Date.parse('2027-03-14T06:00:00Z'));
 * clock.setTimer(clock.now() + 60_000, () => console.log('one minute later'));
 * await clock.advanceBy(60_000);
 */
export class VirtualClock implements Clock {
  private current: EpochMs;
  private seq = 0;
  private readonly timers: Entry[] = [];
  private running: Promise<void> = Promise.resolve();

  constructor(start: EpochMs) {
    this.current = start;
  }

  now(): EpochMs {
    return this.current;
  }

  setTimer(at: EpochMs, fn: () => void | Promise<void>): TimerHandle {
    const entry: Entry = { at, seq: this.seq++, fn, cancelled: false };
    this.timers.push(entry);
    return {
      cancel: () => {
        entry.cancelled = true;
      },
    };
  }

  /** Number of armed, uncancelled timers. */
  get pending(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }

  /** Moves to `to`, running every due timer first. Concurrent calls are serialised. */
  advance(to: EpochMs): Promise<EpochMs> {
    const run = this.running.then(() => this.run(to));
    this.running = run.catch(() => undefined);
    return run.then(() => this.current);
  }

  /** Moves forward by `ms` milliseconds. */
  advanceBy(ms: number): Promise<EpochMs> {
    return this.advance(this.current + ms);
  }

  private async run(to: EpochMs): Promise<void> {
    if (!Number.isFinite(to)) throw new RangeError(`VirtualClock: invalid instant ${to}`);
    if (to < this.current) {
      throw new RangeError(
        `VirtualClock: cannot go back from ${new Date(this.current).toISOString()} to ${new Date(to).toISOString()}`,
      );
    }
    for (;;) {
      const next = this.takeNextDue(to);
      if (!next) break;
      if (next.at > this.current) this.current = next.at;
      await next.fn();
    }
    this.current = to;
  }

  private takeNextDue(to: EpochMs): Entry | undefined {
    let best = -1;
    for (let i = 0; i < this.timers.length; i++) {
      const t = this.timers[i]!;
      if (t.cancelled || t.at > to) continue;
      const b = best < 0 ? undefined : this.timers[best]!;
      if (!b || t.at < b.at || (t.at === b.at && t.seq < b.seq)) best = i;
    }
    if (best < 0) {
      // Drop cancelled entries while we are here.
      for (let i = this.timers.length - 1; i >= 0; i--) if (this.timers[i]!.cancelled) this.timers.splice(i, 1);
      return undefined;
    }
    return this.timers.splice(best, 1)[0];
  }
}
