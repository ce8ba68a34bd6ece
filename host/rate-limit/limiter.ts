/**
 * Rate limits: a fixed-window counter per key on the service clock, and the RateLimit-*
 * headers it describes (contract §4). Plain counting, below HTTP: routes (through
 * `http/rate-limit.ts`) and domain code (sign-in, phone code limits) use it alike.
 *
 * Each key's window opens at its first request and lasts `windowSeconds`; within it at most
 * `limit` requests pass. Counts live in process memory (one server process owns the
 * database); a restart forgets them, which errs on the side of the client. The clock is the
 * service clock, so with `WAKEUP_CLOCK=virtual` windows reset only when POST /dev/clock moves
 * time.
 *
 * The general API limit (120 per account and 300 per client IP per 60 s by default) uses two
 * limiters; endpoints with limits of their own (device registration, web checkout, ...) make
 * a {@link RateLimiter} once (in their module's `register`) and call `countLimit` (from
 * `http/rate-limit.ts`) in the handler, which also lets the RateLimit-* headers describe that
 * limit when it is the tighter:
 * @example
 * const perAccount = new RateLimiter({ limit: 10, windowSeconds: 60, clock: services.clock });
 * routes.operation('registerDevice', ({ ctx, principal }) => {
 *   countLimit(ctx, perAccount, principal!.accountId, 'Device registration allows 10 requests a minute.');
 *   ...
 * });
 * @module
 */
import type { Clock, EpochMs } from '../../engine/index.js';
import { problem } from '../errors.js';

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
  limit: number;
  windowSeconds: number;
  clock: Clock;
}

interface Window {
  start: EpochMs;
  count: number;
}

/** Fixed-window counter per key. */
export class RateLimiter {
  readonly limit: number;
  readonly windowSeconds: number;
  private readonly clock: Clock;
  private readonly windows = new Map<string, Window>();
  private hitsSincePrune = 0;

  constructor(options: RateLimiterOptions) {
    if (!(options.limit >= 1) || !(options.windowSeconds >= 1)) {
      throw new RangeError(`RateLimiter: limit and windowSeconds must be at least 1`);
    }
    this.limit = options.limit;
    this.windowSeconds = options.windowSeconds;
    this.clock = options.clock;
  }

  /** Counts one request for `key` (a refused request does not count) and says whether it may pass. */
  hit(key: string): RateResult {
    const now = this.clock.now();
    const windowMs = this.windowSeconds * 1000;
    if (++this.hitsSincePrune >= 1000) this.prune(now);
    let w = this.windows.get(key);
    if (!w || now >= w.start + windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    const allowed = w.count < this.limit;
    if (allowed) w.count++;
    return {
      allowed,
      limit: this.limit,
      remaining: this.limit - w.count,
      resetSeconds: Math.max(1, Math.ceil((w.start + windowMs - now) / 1000)),
      windowSeconds: this.windowSeconds,
    };
  }

  private prune(now: EpochMs): void {
    this.hitsSincePrune = 0;
    const windowMs = this.windowSeconds * 1000;
    for (const [k, w] of this.windows) if (now >= w.start + windowMs) this.windows.delete(k);
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
    detail: detail ?? `Too many requests: ${r.limit} per ${r.windowSeconds} seconds. Try again in ${r.resetSeconds} seconds.`,
    headers: { ...rateHeaders(r), 'Retry-After': String(r.resetSeconds) },
  });
}

/** Counts a hit on `limiter` and throws 429 rate_limited when refused. */
export function enforce(limiter: RateLimiter, key: string, detail?: string): RateResult {
  const r = limiter.hit(key);
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
