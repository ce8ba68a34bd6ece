/**
 * The system clock: the engine's {@link Clock} port on the host's real time.
 *
 * This is the only file in `host/` that reads the real time (a grep test keeps it so).
 * Everything else asks a `Clock`, so that `WAKEUP_CLOCK=virtual` moves the whole service.
 *
 * Timers are hints, never trusted: each host `setTimeout` is capped at {@link MAX_STEP_MS}
 * (Node's setTimeout overflows at ~24.8 days, and the wall clock may be stepped by NTP while a
 * long timer sleeps), and on every wake the clock compares `now()` with the due instant and
 * re-arms until it has really passed. So a timer never fires early, and fires at most one
 * step late after a backwards clock step.
 * @module
 */
import type { Clock, EpochMs, TimerHandle } from '../../../engine/index.js';

/** Longest single host timer; a due time further away is reached in steps of this size. */
export const MAX_STEP_MS = 60_000;

/** A {@link Clock} on real time, with `stop()` to cancel every armed timer at shutdown. */
export interface SystemClock extends Clock {
  /** Cancels every armed timer (graceful shutdown). Later `setTimer` calls are ignored. */
  stop(): void;
  /** Number of armed timers. */
  readonly pending: number;
}

/** Options of {@link createSystemClock}. */
export interface SystemClockOptions {
  /** Called when a timer callback throws or rejects; default: rethrown on the next tick. */
  onError?: (err: unknown) => void;
}

/** Creates the real-time clock. */
export function createSystemClock(options: SystemClockOptions = {}): SystemClock {
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
    let handle: NodeJS.Timeout | undefined;
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
 * A monotonic stopwatch for log durations (never for service time): returns a function
 * giving the milliseconds elapsed since the call.
 */
export function startStopwatch(): () => number {
  const start = process.hrtime.bigint();
  return () => Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Real wall time, for what waits on the real world whatever the service's clock says (a
 * provider request that may still land: host/db/provider-calls.ts); never for service time.
 */
export function realTime(): number {
  return Date.now();
}
