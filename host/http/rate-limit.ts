/**
 * Rate limits on a request: counts an endpoint's own limiter and keeps the RateLimit-*
 * headers describing the tighter of the limits counted so far. The counters themselves are
 * in `host/rate-limit/`.
 * @module
 */
import {
  rateHeaders,
  rateLimited,
  tighter,
  type RateLimiter,
  type RateResult,
} from '../rate-limit/limiter.js';
import type { AppContext } from './context.js';

/**
 * Counts a hit on an endpoint's own limiter for this request: adds it to the results the
 * RateLimit-* headers describe and throws 429 rate_limited (with Retry-After) when refused.
 */
export async function countLimit(
  ctx: AppContext,
  limiter: RateLimiter,
  key: string,
  detail?: string,
): Promise<RateResult> {
  const r = await limiter.hit(key);
  ctx.state.rate.push(r);
  setRateHeaders(ctx);
  if (!r.allowed) throw rateLimited(r, detail);
  return r;
}

/** Sets RateLimit-* from the tighter of the limits counted for this request so far. */
export function setRateHeaders(ctx: AppContext): void {
  const r = tighter(ctx.state.rate);
  if (r) ctx.set(rateHeaders(r));
}
