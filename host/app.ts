/**
 * `createApp(deps)`: the Koa application with every route mounted, not listening (see
 * `server.ts`). Middleware, outermost first:
 *
 * 1. request context: request id, child logger, access log;
 * 2. error handler: everything below becomes application/problem+json;
 * 3. per-IP general rate limit and RateLimit-* headers (API paths only);
 * 4. dispatch: 404 / 405 from the route table, then the route (for schema operations the
 *    pipeline in `http/operation.ts`: auth, per-account limit, validation, idempotency,
 *    handler).
 * @module
 */
import Koa from 'koa';
import type { AppDeps } from './deps.js';
import type { AppState } from './http/context.js';
import { dispatch, ipRateLimit } from './http/dispatch.js';
import { errorHandler } from './http/error-handler.js';
import type { GeneralLimits } from './http/operation.js';
import { RateLimiter } from './http/rate-limit.js';
import { createRegistrar } from './http/registrar.js';
import type { RouteModule } from './http/registrar.js';
import { requestContext } from './http/request-context.js';
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
export function createApp(deps: AppDeps, options: AppOptions = {}): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: deps.config.trustProxy });
  const limits: GeneralLimits = {
    ip: new RateLimiter({ limit: deps.config.rateLimitIp, windowSeconds: GENERAL_WINDOW_SECONDS, clock: deps.clock }),
    account: new RateLimiter({ limit: deps.config.rateLimitAccount, windowSeconds: GENERAL_WINDOW_SECONDS, clock: deps.clock }),
  };
  const table = new RouteTable();
  const routes = createRegistrar(table, deps, limits);
  for (const m of options.modules ?? routeModules) m.register(routes, deps);
  if (deps.config.dev) for (const m of devRouteModules) m.register(routes, deps);

  app.use(requestContext(deps));
  app.use(errorHandler(deps));
  app.use(ipRateLimit(limits));
  app.use(dispatch(table));
  // Errors are answered and logged by errorHandler; keep Koa from printing them again.
  app.silent = true;
  return app;
}
