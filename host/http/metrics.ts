/**
 * Records each answered request in the metrics (`services.metrics`): count and duration by
 * operationId and status. Mounted just inside the request context, outside the error handler,
 * so the status is the one sent. Requests that matched no operation are grouped coarsely
 * (`page`, `dev`, `unmatched`) to keep the label set bounded whatever paths clients try.
 * @module
 */
import type { Middleware } from 'koa';
import type { AppServices } from '../services.js';
import type { AppState } from './context.js';
import { startStopwatch } from '../adapters/clock/system-clock.js';

const PAGES = new Set(['/livez', '/healthz', '/readyz', '/metrics']);

/** The label for a request without an operationId. */
function group(path: string, status: number): string {
  if (PAGES.has(path)) return path.slice(1);
  if (status === 404 || status === 405) return 'unmatched';
  if (path.startsWith('/dev/')) return 'dev';
  return 'page';
}

/** Creates the middleware. */
export function requestMetrics(services: AppServices): Middleware<AppState> {
  return async (ctx, next) => {
    const elapsed = startStopwatch();
    try {
      await next();
    } finally {
      services.metrics.observeRequest(
        ctx.state.operationId ?? group(ctx.path, ctx.status),
        ctx.status,
        elapsed() / 1000,
      );
    }
  };
}
