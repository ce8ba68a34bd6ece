/**
 * The system clock: a {@link Clock} on real time, read from the time source the embedder passes
 * (`now: Date.now`): the engine reads no clock of its own, and time comes only through its ports.
 *
 * It is the one clock adapter the engine ships, because every embedder needs one and the timer
 * arithmetic is easy to get wrong. Timers are hints, never
 * trusted: each host `setTimeout` is capped at {@link MAX_STEP_MS} (Node's setTimeout overflows
 * at about 24.8 days, and the wall clock may be stepped by NTP while a long timer sleeps), and on
 * every wake the clock compares `now()` with the due instant and re-arms until it has really
 * passed. So a timer never fires early, and fires at most one step late after a backwards step.
 * @module
 */
import type { Clock, EpochMs, TimerHandle } from '../ports.js';

/** Longest single host timer (ms); a due time further away is reached in steps of this size. */
export const MAX_STEP_MS = 60_000;

/** A {@link Clock} on real time, with `stop()` to cancel every armed timer at shutdown. */
export interface SystemClock extends Clock {
  /** Cancels every armed timer (graceful shutdown). Later `setTimer` calls are ignored. */
  stop(): void;
  /** Number of armed timers. */
  readonly pending: number;
}

/** Options of {@link systemClock}. */
export interface SystemClockOptions {
  /** The wall clock, in epoch milliseconds: `Date.now` for the process's real time. */
  now: () => EpochMs;
  /** Called when a timer callback throws or rejects. @defaultValue rethrown on the next tick */
  onError?: (err: unknown) => void;
}

/**
 * Creates a clock on real time, read from `options.now`.
 *
 * @example
 * const clock = systemClock({ now: Date.now });
 * clock.setTimer(clock.now() + 30 * 86_400_000, () => console.log('a month later')); // re-arms every minute
 * clock.stop(); // at shutdown
 */
export function systemClock(options: SystemClockOptions): SystemClock {
  const armed = new Set<{ cancel(): void }>();
  let stopped = false;
  const onError =
    options.onError ??
    ((err: unknown) => {
      setImmediate(() => {
        throw err;
      });
    });

  const now = options.now;

  function setTimer(at: EpochMs, fn: () => void | Promise<void>): TimerHandle {
    let handle: ReturnType<typeof setTimeout> | undefined;
    let done = false;
    const entry = {
      cancel() {
        done = true;
        if (handle) clearTimeout(handle);
        armed.delete(entry);
      },
    };
    if (stopped) return entry;
    const arm = () => {
      const wait = Math.max(0, Math.min(at - now(), MAX_STEP_MS));
      handle = setTimeout(wake, wait);
    };
    const wake = () => {
      if (done) return;
      // The timer is a hint: fire only once the due instant has really passed.
      if (now() < at) return arm();
      entry.cancel();
      try {
        Promise.resolve(fn()).catch(onError);
      } catch (err) {
        onError(err);
      }
    };
    armed.add(entry);
    arm();
    return entry;
  }

  return {
    now,
    setTimer,
    stop() {
      stopped = true;
      for (const t of [...armed]) t.cancel();
    },
    get pending() {
      return armed.size;
    },
  };
}
