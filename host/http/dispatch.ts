/**
 * Routing and the general per-IP limit, before anything route-specific runs.
 * @module
 */
import type { Middleware } from 'koa';
import type { AppState } from './context.js';
import { API_PREFIX } from './operation.js';
import type { GeneralLimits } from './operation.js';
import { problem } from '../errors.js';
import { rateLimited } from '../rate-limit/limiter.js';
import { setRateHeaders } from './rate-limit.js';
import type { RouteTable } from './router.js';

/** Whether a path is under the API prefix (and so carries rate headers). */
export function isApiPath(path: string): boolean {
  return path === API_PREFIX || path.startsWith(API_PREFIX + '/');
}

/**
 * Counts every API request against the client IP's general limit (the socket address, or
 * the Nth X-Forwarded-For address from the right with WAKEUP_TRUST_PROXY=N; an IPv6 one by
 * its prefix, `ctx.state.client`) and
 * sets the RateLimit-* headers, which stay on the response whatever happens next.
 */
export function ipRateLimit(limits: GeneralLimits): Middleware<AppState> {
  return async (ctx, next) => {
    if (!isApiPath(ctx.path)) {
      await next();
      return;
    }
    const r = await limits.ip.hit(ctx.state.client);
    ctx.state.rate.push(r);
    setRateHeaders(ctx);
    if (!r.allowed) throw rateLimited(r);
    await next();
  };
}

/** Runs the matched route; 404 not_found or 405 method_not_allowed (with Allow) otherwise. */
export function dispatch(table: RouteTable): Middleware<AppState> {
  return async (ctx) => {
    const m = table.match(ctx.method, ctx.path);
    if (m.kind === 'not_found') throw problem('not_found', { detail: 'Nothing is at this path.' });
    if (m.kind === 'method_not_allowed') {
      const allow = m.allow.join(', ');
      throw problem('method_not_allowed', {
        detail: `This path accepts ${allow}.`,
        headers: { Allow: allow },
      });
    }
    await m.route.run(ctx, m.params);
  };
}
