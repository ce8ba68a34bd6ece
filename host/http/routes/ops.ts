/**
 * The operator's routes: /ops/me, the figures (/ops/forecast, /ops/lateness,
 * /ops/outcomes, /ops/health), the search (/ops/calls), the audit log (/ops/audit) and the
 * actions, each written to it. Operators only: every handler asks host/ops/service.ts first
 * (403 insufficient_scope otherwise); an API key also needs scope `ops` (`x-scope`).
 * @module
 */
import type { AppServices } from '../../services.js';
import type { OpsBlockIn, OpsUnblockIn } from '../../generated/openapi.js';
import type { PageQuery } from '../../paging.js';
import type { WindowQuery } from '../../ops/service.js';
import { requirePrincipal } from '../context.js';
import type { Routes } from '../registrar.js';

/** Registers the ops operations. */
export function register(routes: Routes, services: AppServices): void {
  const ops = services.ops;
  const reader = (p: Parameters<typeof requirePrincipal>[0]) => {
    const principal = requirePrincipal(p);
    return { principal, role: ops.require(principal, 'read') };
  };
  const actor = (p: Parameters<typeof requirePrincipal>[0]) => {
    const principal = requirePrincipal(p);
    ops.require(principal, 'act');
    return principal;
  };

  routes.operation('getOpsRole', ({ principal }) => {
    const r = reader(principal);
    return { status: 200, body: { email: r.principal.account?.email ?? '', role: r.role } };
  });
  routes.operation<unknown, { hours?: number; rate?: number; warn_seconds?: number }>(
    'getOpsForecast',
    async ({ principal, query }) => {
      reader(principal);
      return { status: 200, body: await ops.forecast(query) };
    },
  );
  routes.operation<unknown, WindowQuery & { objective_seconds?: number }>(
    'getOpsLateness',
    async ({ principal, query }) => {
      reader(principal);
      return { status: 200, body: await ops.lateness(query) };
    },
  );
  routes.operation<unknown, WindowQuery>('getOpsOutcomes', async ({ principal, query }) => {
    reader(principal);
    return { status: 200, body: await ops.outcomes(query) };
  });
  routes.operation('getOpsHealth', async ({ principal }) => {
    reader(principal);
    return { status: 200, body: await ops.health() };
  });
  routes.operation<unknown, { q: string; limit?: number }>(
    'searchOpsCalls',
    async ({ principal, query }) => {
      reader(principal);
      return { status: 200, body: await ops.search(query.q, query.limit ?? 20) };
    },
  );
  routes.operation<unknown, PageQuery>('listOpsAudit', async ({ principal, query }) => {
    reader(principal);
    return { status: 200, body: await ops.audit(query) };
  });

  routes.operation<OpsBlockIn | undefined, unknown, { e164: string }>(
    'blockOpsNumber',
    async ({ principal, params, body }) => ({
      status: 200,
      body: await ops.block(
        actor(principal),
        params.e164,
        body?.reason ?? 'manual',
        body?.note ?? null,
      ),
    }),
  );
  routes.operation<OpsUnblockIn | undefined, unknown, { e164: string }>(
    'unblockOpsNumber',
    async ({ principal, params, body }) => ({
      status: 200,
      body: await ops.unblock(actor(principal), params.e164, body?.note ?? null),
    }),
  );
  routes.operation<unknown, unknown, { endpoint_id: string }>(
    'enableOpsWebhookEndpoint',
    async ({ principal, params }) => ({
      status: 200,
      body: await ops.enableEndpoint(actor(principal), params.endpoint_id),
    }),
  );
  routes.operation<unknown, unknown, { endpoint_id: string; delivery_id: string }>(
    'redeliverOpsWebhook',
    async ({ principal, params }) => ({
      status: 202,
      body: await ops.redeliver(actor(principal), params.endpoint_id, params.delivery_id),
    }),
  );
  routes.operation<unknown, unknown, { occurrence_id: string }>(
    'cancelOpsOccurrence',
    async ({ principal, params }) => ({
      status: 200,
      body: await ops.cancelOccurrence(actor(principal), params.occurrence_id),
    }),
  );
}
