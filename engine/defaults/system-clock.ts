/**
 * The system clock: a {@link Clock} on the process's real time (the platform's wall clock and timers),
 * the clock `createRuntime` uses when it is given none.
 *
 * The engine does no I/O of its own; this is the one default adapter it ships, because every
 * embedder needs one and the timer arithmetic is easy to get wrong. Timers are hints, never
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
  /** Called when a timer callback throws or rejects. @defaultValue rethrown on the next tick */
  onError?: (err: unknown) => void;
}

/**
 * Creates a clock on the process's real time.
 *
 * @example
 * const clock = systemClock();
 * clock.setTimer(clock.now() + 30 * 86_400_000, () => console.log('a month later')); // re-arms every minute
 * clock.stop(); // at shutdown
 */
export function systemClock(options: SystemClockOptions = {}): SystemClock {
  const armed = new Set<{ cancel(): void }>();
  let stopped = false;
  const onError =
    options.onError ??
    ((err: unknown) => {
      setImmediate(() => {
        throw err;
      });
    });

  const now = (): EpochMs => Date.now();

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

/**
 * The clock a runtime makes for itself when it is given none: a {@link systemClock} whose
 * `stop()` (called by the runtime's `stop()`, so that no timer keeps the process alive) can be
 * undone by `restart()` (the runtime's next `start()`). Errors of its timers go to `onError`.
 */
export function ownedSystemClock(onError: (err: unknown) => void): SystemClock & {
  restart(): void;
} {
  let inner = systemClock({ onError });
  return {
    now: () => inner.now(),
    setTimer: (at, fn) => inner.setTimer(at, fn),
    stop: () => inner.stop(),
    restart() {
      inner.stop();
      inner = systemClock({ onError });
    },
    get pending() {
      return inner.pending;
    },
  };
}
