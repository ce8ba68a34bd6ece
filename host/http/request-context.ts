/**
 * Outermost middleware: the request id (X-Request-Id honoured when it looks like an id,
 * else a new UUID; returned on every response), the per-request child logger, and one
 * access-log line per request (method, path without query, status, duration, operation,
 * account). Bodies, query strings and headers are not logged.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppServices } from '../services.js';
import { startStopwatch } from '../adapters/clock/system-clock.js';
import type { AppState, Principal } from './context.js';
import { accessLogger, type Logger } from '../logger.js';
import { clientKey } from '../rate-limit/client-key.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const QUIET_PATHS = new Set(['/livez', '/healthz', '/readyz', '/metrics']);

/** Creates the middleware. */
export function requestContext(services: AppServices): Middleware<AppState> {
  const access = accessLogger(services.logger);
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    // The child logger is made on first use (an error, a handler that logs): most requests
    // only write their access line, through the root logger with the same `reqId` field.
    let log: Logger | undefined;
    Object.defineProperty(ctx.state, 'log', {
      get: () => (log ??= services.logger.child({ reqId: requestId })),
      set: (value: Logger) => (log = value),
      configurable: true,
      enumerable: true,
    });
    ctx.state.principal = null;
    ctx.state.client = clientKey(ctx.ip, services.config.ipv6Prefix);
    ctx.state.rate = [];
    ctx.set('X-Request-Id', requestId);
    // While shutting down, do not invite the client to reuse this connection.
    if (services.lifecycle.closing) ctx.set('Connection', 'close');
    const elapsed = startStopwatch();
    try {
      await next();
    } finally {
      const principal = ctx.state.principal as Principal | null; // set by the operation, if any
      const line = {
        reqId: requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Math.round(elapsed() * 10) / 10,
        op: ctx.state.operationId,
        account: principal?.accountId,
      };
      const level = ctx.status >= 500 ? 'error' : QUIET_PATHS.has(ctx.path) ? 'debug' : 'info';
      access[level](line, 'request');
    }
  };
}
