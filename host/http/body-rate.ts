/**
 * The minimum rate of a request body (schema: info description, Conventions): once the server
 * starts reading a body, at least {@link BODY_RATE}.bytesPerSecond must have arrived on
 * average for every second past the first `graceMs`, and never `idleMs` may pass without a
 * byte. A slower body is answered 408 request_timeout and its connection closed, so that a
 * client trickling bytes (a "slow body" attack, or a stalled upload) cannot hold a
 * connection and a request slot for Node's five-minute `requestTimeout`.
 *
 * Time is counted in ticks of a real-time interval (`tickMs`), not read from a clock: this
 * is about the network, not service time, and under load the count only errs on the lenient
 * side.
 * @module
 */
import type { AppContext } from './context.js';
import { problem } from '../errors.js';

/** The documented minimum rate (also in schema/openapi.yaml, info description). */
export const BODY_RATE = Object.freeze({
  /** Average bytes a second required past the grace period. */
  bytesPerSecond: 1024,
  /** Time a body may take before the average counts. */
  graceMs: 5_000,
  /** Longest time without a byte. */
  idleMs: 10_000,
  /** How often the rate is judged. */
  tickMs: 500,
});

/** A watch on one body; `stop()` once the body is read (or refused). */
export interface BodyRateWatch {
  /** Rejects with 408 request_timeout when the body falls below the rate; never resolves. */
  tooSlow: Promise<never>;
  stop(): void;
}

/**
 * Starts watching the body of `ctx.req`. Call it in the same tick as the reader attaches its
 * own `data` listener (it attaches one too, which starts the stream flowing).
 */
export function watchBodyRate(ctx: AppContext, rate: typeof BODY_RATE = BODY_RATE): BodyRateWatch {
  const req = ctx.req;
  let received = 0;
  let idleTicks = 0;
  let ticks = 0;
  let fail: (err: unknown) => void = () => {};
  const tooSlow = new Promise<never>((_, reject) => (fail = reject));
  // Nobody may await it (a body read without a stall): never an unhandled rejection.
  tooSlow.catch(() => {});
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    idleTicks = 0;
  };
  const timer = setInterval(() => {
    ticks++;
    idleTicks++;
    const elapsedMs = ticks * rate.tickMs;
    const needed = (rate.bytesPerSecond * Math.max(0, elapsedMs - rate.graceMs)) / 1000;
    if (idleTicks * rate.tickMs < rate.idleMs && received >= needed) return;
    stop();
    // Answer, then close: the rest of the body is drained, not read.
    ctx.set('Connection', 'close');
    req.resume();
    fail(
      problem('request_timeout', {
        detail:
          `The request body arrived too slowly (${received} bytes in ${Math.round(elapsedMs / 1000)} s): ` +
          `send at least ${rate.bytesPerSecond} bytes a second, with no pause of ${rate.idleMs / 1000} s.`,
      }),
    );
  }, rate.tickMs);
  timer.unref();
  const stop = () => {
    clearInterval(timer);
    req.off('data', onData);
  };
  req.on('data', onData);
  return { tooSlow, stop };
}
