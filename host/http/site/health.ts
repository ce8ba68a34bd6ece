/**
 * Health checks at the site root: GET /healthz (the process answers) and GET /readyz (the
 * database answers a query and the server is not shutting down; else 503).
 * @module
 */
import type { AppDeps } from '../../deps.js';
import type { Routes } from '../registrar.js';

/** Registers the health pages. */
export function register(routes: Routes, deps: AppDeps): void {
  routes.page('GET', '/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  routes.page('GET', '/readyz', (ctx) => {
    let dbOk = false;
    try {
      dbOk = deps.db.open && deps.db.prepare('SELECT 1 AS ok').get() !== undefined;
    } catch {
      dbOk = false;
    }
    const ready = dbOk && !deps.lifecycle.closing;
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ready' : 'unavailable', database: dbOk ? 'ok' : 'unreachable', shutting_down: deps.lifecycle.closing };
  });
}
