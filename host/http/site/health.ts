/**
 * Health checks at the site root: GET /healthz (the process answers) and GET /readyz (the
 * database answers a query and the server is not shutting down; else 503).
 * @module
 */
import type { AppServices } from '../../services.js';
import type { Routes } from '../registrar.js';

/** Registers the health pages. */
export function register(routes: Routes, services: AppServices): void {
  routes.page('GET', '/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  routes.page('GET', '/readyz', (ctx) => {
    const dbOk = services.databaseReady();
    const ready = dbOk && !services.lifecycle.closing;
    ctx.status = ready ? 200 : 503;
    ctx.body = {
      status: ready ? 'ready' : 'unavailable',
      database: dbOk ? 'ok' : 'unreachable',
      shutting_down: services.lifecycle.closing,
    };
  });
}
