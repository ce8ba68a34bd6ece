/**
 * `createApp(services)`: the Koa application with every route mounted, not listening (see
 * `server.ts`). Pure wiring: it takes already-built services (`host/compose.ts`) and
 * writes nothing anywhere. Middleware, outermost first:
 *
 * 1. request context: request id, child logger, access log; then request metrics;
 * 2. error handler: everything below becomes application/problem+json;
 * 3. per-IP general rate limit and RateLimit-* headers (API paths only);
 * 4. dispatch: 404 / 405 from the route table, then the route (for schema operations the
 *    pipeline in `http/operation.ts`: auth, per-account limit, validation, idempotency,
 *    handler).
 * @module
 */
import Koa from 'koa';
import type { AppServices } from './services.js';
import type { AppState } from './http/context.js';
import { dispatch, ipRateLimit } from './http/dispatch.js';
import { errorHandler } from './http/error-handler.js';
import type { GeneralLimits } from './http/operation.js';
import { RateLimiter } from './rate-limit/limiter.js';
import { createRegistrar } from './http/registrar.js';
import type { RouteModule } from './http/registrar.js';
import { requestContext } from './http/request-context.js';
import { requestMetrics } from './http/metrics.js';
import { RouteTable } from './http/router.js';
import { devRouteModules, routeModules } from './http/routes/index.js';

/** Window of the general limits, in seconds. */
export const GENERAL_WINDOW_SECONDS = 60;

/** Options of {@link createApp}. */
export interface AppOptions {
  /**
   * Route modules to mount instead of `routeModules` from `http/routes/index.ts` (tests and
   * embedders mount a subset or their own). Dev modules follow WAKEUP_DEV either way.
   */
  modules?: readonly RouteModule[];
}

/** Builds the application. */
export function createApp(services: AppServices, options: AppOptions = {}): Koa<AppState> {
  // WAKEUP_TRUST_PROXY=N: ctx.ip is the Nth X-Forwarded-For address from the right (Koa keeps
  // the last maxIpsCount entries and takes the first of them).
  const hops = services.config.trustProxy;
  const app = new Koa<AppState>({ proxy: hops > 0, maxIpsCount: hops });
  const limits: GeneralLimits = {
    ip: new RateLimiter({
      name: 'api.ip',
      limit: services.config.rateLimitIp,
      windowSeconds: GENERAL_WINDOW_SECONDS,
      clock: services.clock,
      store: services.shared.rateWindows,
    }),
    account: new RateLimiter({
      name: 'api.account',
      limit: services.config.rateLimitAccount,
      windowSeconds: GENERAL_WINDOW_SECONDS,
      clock: services.clock,
      store: services.shared.rateWindows,
    }),
  };
  const table = new RouteTable();
  const routes = createRegistrar(table, services, limits);
  for (const m of options.modules ?? routeModules) m.register(routes, services);
  if (services.config.dev) for (const m of devRouteModules) m.register(routes, services);

  app.use(requestContext(services));
  app.use(requestMetrics(services));
  app.use(errorHandler(services));
  app.use(ipRateLimit(limits));
  app.use(dispatch(table));
  // Errors are answered and logged by errorHandler; keep Koa from printing them again.
  app.silent = true;
  return app;
}
