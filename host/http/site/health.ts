/**
 * Health checks at the site root: GET /livez and GET /healthz (the process answers: no
 * database query, for a liveness probe that restarts a hung process) and GET /readyz (the
 * database answers a query and the server is not shutting down; else 503: for a readiness
 * probe or a container HEALTHCHECK). /readyz also shows each provider's health (email, texts,
 * telephony, payments: host/ops/provider-health.ts) and lists the failing ones in `failing`;
 * a failing provider does not make the server unready (taking every host out of a balancer
 * because the mail relay is down would stop the calls too).
 * @module
 */
import type { AppServices } from '../../services.js';
import type { Routes } from '../registrar.js';

/** Registers the health pages. */
export function register(routes: Routes, services: AppServices): void {
  for (const path of ['/livez', '/healthz']) {
    routes.page('GET', path, (ctx) => {
      ctx.body = { status: 'ok' };
    });
  }
  routes.page('GET', '/readyz', async (ctx) => {
    const dbOk = await services.databaseReady();
    const ready = dbOk && !services.lifecycle.closing;
    ctx.status = ready ? 200 : 503;
    const providers = services.providers.snapshot();
    ctx.body = {
      status: ready ? 'ready' : 'unavailable',
      database: dbOk ? 'ok' : 'unreachable',
      shutting_down: services.lifecycle.closing,
      failing: Object.entries(providers)
        .filter(([, p]) => p.status === 'failing')
        .map(([port]) => port),
      providers,
    };
  });
}
