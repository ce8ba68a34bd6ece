/**
 * Real time in the host: the engine's system clock (the {@link Clock} port on real time, timers
 * capped and re-armed) on the process's wall clock, under the name the host's root builds it
 * by, and the two readings of real time the host makes beside the service's clock.
 *
 * This is the only file in `host/` that reads the real time (a grep test keeps it so).
 * Everything else asks a `Clock`, so that `WAKEUP_CLOCK=virtual` moves the whole service.
 * @module
 */
import { systemClock, type SystemClock, type SystemClockOptions } from '../../../engine/index.js';

export { MAX_STEP_MS, type SystemClock } from '../../../engine/index.js';

/** The engine's system clock on the process's wall clock (`Date.now`). */
export function createSystemClock(options: Omit<SystemClockOptions, 'now'> = {}): SystemClock {
  return systemClock({ now: Date.now, ...options });
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
