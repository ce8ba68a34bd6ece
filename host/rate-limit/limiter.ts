/**
 * Rate limits: a fixed-window counter per key on the service clock, and the RateLimit-*
 * headers it describes (contract §4). Plain counting, below HTTP: routes (through
 * `http/rate-limit.ts`) and domain code (sign-in, phone code limits) use it alike.
 *
 * Each key's window opens at its first request and lasts `windowSeconds`; within it at most
 * `limit` requests pass. Counts live in a {@link WindowStore} (`windows.ts`): in process
 * memory on SQLite (one process owns the database; a restart forgets them, which errs on the
 * side of the client), in table `rate_windows` on PostgreSQL, where several hosts count
 * together. Each limiter has a stable `name` naming its windows there. Counting is
 * asynchronous. The clock is the service clock; with `WAKEUP_CLOCK=virtual` the shared store
 * also counts the real time that passes while it stands still (`real-time.ts`), so a window
 * resets when its seconds have really passed or when POST /dev/clock moves past it.
 *
 * The general API limit (120 per account and 300 per client IP per 60 s by default) uses two
 * limiters; endpoints with limits of their own (device registration, web checkout, ...) make
 * a {@link RateLimiter} once (in their module's `register`) and call `countLimit` (from
 * `http/rate-limit.ts`) in the handler, which also lets the RateLimit-* headers describe that
 * limit when it is the tighter:
 * @example
 * const perAccount = new RateLimiter({ name: 'devices.register', limit: 10, windowSeconds: 60, clock: services.clock, store: services.shared.rateWindows });
 * routes.operation('registerDevice', async ({ ctx, principal }) => {
 *   await countLimit(ctx, perAccount, principal!.accountId, 'Device registration allows 10 requests a minute.');
 *   ...
 * });
 * @module
 */
import type { Clock, EpochMs } from '../../engine/index.js';
import { problem } from '../errors.js';
import type { WindowStore } from './windows.js';

/** The outcome of counting one request. */
export interface RateResult {
  allowed: boolean;
  limit: number;
  /** Requests left in this window after this one. */
  remaining: number;
  /** Whole seconds until the window resets (at least 1). */
  resetSeconds: number;
  windowSeconds: number;
}

/** Options of a {@link RateLimiter}. */
export interface RateLimiterOptions {
  /** Stable across restarts and hosts (`api.ip`, `sign-in.sends`): names the limiter's windows. */
  name: string;
  limit: number;
  windowSeconds: number;
  clock: Clock;
  store: WindowStore;
}

/** The {@link RateResult} of a window of `limit` and `windowSeconds` holding `count` hits. */
export function windowResult(
  allowed: boolean,
  w: { count: number; start: EpochMs },
  limit: number,
  windowSeconds: number,
  now: EpochMs,
): RateResult {
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - w.count),
    resetSeconds: Math.max(1, Math.ceil((w.start + windowSeconds * 1000 - now) / 1000)),
    windowSeconds,
  };
}

/** Fixed-window counter per key. */
export class RateLimiter {
  readonly name: string;
  readonly limit: number;
  readonly windowSeconds: number;
  private readonly clock: Clock;
  private readonly store: WindowStore;

  constructor(options: RateLimiterOptions) {
    if (!(options.limit >= 1) || !(options.windowSeconds >= 1)) {
      throw new RangeError(`RateLimiter: limit and windowSeconds must be at least 1`);
    }
    this.name = options.name;
    this.limit = options.limit;
    this.windowSeconds = options.windowSeconds;
    this.clock = options.clock;
    this.store = options.store;
  }

  /** Counts one request for `key` (a refused request does not count) and says whether it may pass. */
  async hit(key: string): Promise<RateResult> {
    const now = this.clock.now();
    const r = await this.store.hit(
      [{ limiter: this.name, key, limit: this.limit, windowMs: this.windowSeconds * 1000 }],
      now,
    );
    return windowResult(r.allowed, r.windows[0]!, this.limit, this.windowSeconds, now);
  }
}

/** The RateLimit-* headers describing `r`. */
export function rateHeaders(r: RateResult): Record<string, string> {
  return {
    'RateLimit-Limit': String(r.limit),
    'RateLimit-Remaining': String(r.remaining),
    'RateLimit-Reset': String(r.resetSeconds),
    'RateLimit-Policy': `${r.limit};w=${r.windowSeconds}`,
  };
}

/** The 429 rate_limited problem for a refused hit, with Retry-After. */
export function rateLimited(r: RateResult, detail?: string) {
  return problem('rate_limited', {
    detail:
      detail ??
      `Too many requests: ${r.limit} per ${r.windowSeconds} seconds. Try again in ${r.resetSeconds} seconds.`,
    headers: { ...rateHeaders(r), 'Retry-After': String(r.resetSeconds) },
  });
}

/** Counts a hit on `limiter` and throws 429 rate_limited when refused. */
export async function enforce(
  limiter: RateLimiter,
  key: string,
  detail?: string,
): Promise<RateResult> {
  const r = await limiter.hit(key);
  if (!r.allowed) throw rateLimited(r, detail);
  return r;
}

/**
 * Of several results, the one to describe in the headers: a refused one first, else the one
 * with the fewest requests left (the tighter limit).
 */
export function tighter(results: RateResult[]): RateResult | undefined {
  let best: RateResult | undefined;
  for (const r of results) {
    if (!best) best = r;
    else if (!r.allowed && best.allowed) best = r;
    else if (r.allowed === best.allowed && r.remaining < best.remaining) best = r;
  }
  return best;
}
