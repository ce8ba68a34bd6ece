/**
 * GET /metrics: Prometheus text exposition at the site root. With WAKEUP_METRICS_TOKEN set it
 * asks for `Authorization: Bearer <token>` (401 unauthenticated otherwise, compared in
 * constant time); unset, it is open, like /healthz: put it behind your proxy's rules or set
 * the token when the port is reachable from outside.
 * @module
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { problem } from '../../errors.js';
import type { AppServices } from '../../services.js';
import type { Routes } from '../registrar.js';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Registers the page. */
export function register(routes: Routes, services: AppServices): void {
  const expected =
    services.config.metricsToken === null ? null : digest(services.config.metricsToken);
  routes.page('GET', '/metrics', async (ctx) => {
    if (expected) {
      const m = /^Bearer (\S+)$/i.exec(ctx.get('Authorization'));
      if (!m || !timingSafeEqual(digest(m[1]!), expected)) {
        ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
        throw problem('unauthenticated', {
          detail: 'GET /metrics needs Authorization: Bearer <WAKEUP_METRICS_TOKEN>.',
        });
      }
    }
    const { contentType, text } = await services.metrics.render();
    ctx.set('Cache-Control', 'no-store');
    ctx.type = contentType;
    ctx.body = text;
  });
}
