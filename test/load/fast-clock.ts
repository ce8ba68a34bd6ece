/**
 * A Clock for the fake provider's process: `now()` is the real time, and a timer set `d` ms
 * ahead fires after `d / speed` real ms, so that the fake plays a whole call (ring, speech,
 * digit) in a fraction of its nominal length while the dates it reports stay real.
 * @module
 */
import type { Clock, TimerHandle } from '../../engine/ports.js';

/** See the module comment. `speed` 1 is the system clock. */
export function createFastClock(speed: number): Clock {
  return {
    now: () => Date.now(),
    setTimer(at, fn): TimerHandle {
      const run = () =>
        void Promise.resolve()
          .then(fn)
          .catch((err: unknown) => console.error('fast clock: a timer failed', err));
      const t = setTimeout(run, Math.max(0, (at - Date.now()) / speed));
      return { cancel: () => clearTimeout(t) };
    },
  };
}
