/**
 * Rate windows on time that really passes, whatever the service clock does.
 *
 * A window's length and the `Retry-After` it gives are read by people and HTTP clients in real
 * seconds. With `WAKEUP_CLOCK=virtual` the service clock stands still until POST /dev/clock
 * moves it, so windows counted on it alone never reset: a client refused with
 * `Retry-After: 60` would still be refused a minute later, and for good. {@link realTimeWindows}
 * wraps a {@link WindowStore} so that its windows run on *rate time*: the service time plus
 * every stretch of real time during which the service clock moved less than real time did. So
 * a window lapses when its length has passed in real time or when the virtual clock is moved
 * past it, whichever comes first, and rate time never runs backwards.
 *
 * Until {@link RealTimeWindows.countRealTime} is called the store counts service time as
 * before. The root calls it with the system clock's real time when the clock is virtual (the
 * only floor that may read real time); with the system clock, service time is real time and
 * nothing needs mapping.
 *
 * Callers keep passing the service time and reading window starts on it: a hit's `now` is
 * moved to rate time on the way in, and the window starts it answers are moved back, so the
 * seconds left (`start + length - now`) are the same in both.
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import type { WindowStore } from './windows.js';

/** A {@link WindowStore} that can be told to count real time too. */
export interface RealTimeWindows extends WindowStore {
  /** From now on, windows also run while the service clock stands still (see the module header). */
  countRealTime(realTime: () => number): void;
}

/** Wraps `store` (see the module header). */
export function realTimeWindows(store: WindowStore): RealTimeWindows {
  let realTime: (() => number) | null = null;
  /** Real time the service clock fell behind, added to service time. */
  let lag = 0;
  let last: { service: EpochMs; real: number } | null = null;

  const toRateTime = (service: EpochMs): number => {
    if (!realTime) return 0;
    const real = realTime();
    if (last) lag += Math.max(0, real - last.real - (service - last.service));
    last = { service, real };
    return lag;
  };

  return {
    countRealTime(fn) {
      realTime = fn;
      last = null;
    },
    async hit(refs, now) {
      const shift = toRateTime(now);
      const r = await store.hit(refs, now + shift);
      return {
        allowed: r.allowed,
        windows: r.windows.map((w) => ({ count: w.count, start: w.start - shift })),
      };
    },
  };
}
