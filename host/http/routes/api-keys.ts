/**
 * API key routes: GET /api-keys (paged, newest first), POST /api-keys, DELETE /api-keys/{key_id}
 * (rules in `host/auth/api-keys.ts`).
 * @module
 */
import type { AppServices } from '../../services.js';
import { requirePrincipal } from '../context.js';
import type { Routes } from '../registrar.js';
import type { ApiKeyIn } from '../../generated/openapi.js';
import type { PageQuery } from '../../paging.js';

/** Registers the API key operations. */
export function register(routes: Routes, services: AppServices): void {
  routes.operation<unknown, PageQuery>('listApiKeys', async ({ principal, query }) => ({
    status: 200,
    body: await services.apiKeys.list(requirePrincipal(principal).accountId, query),
  }));

  routes.operation<ApiKeyIn>('createApiKey', async ({ principal, body }) => {
    // Scope ops is an operator's to give (403 insufficient_scope otherwise).
    if (body.scopes?.includes('ops')) services.ops.require(requirePrincipal(principal), 'read');
    const out = await services.apiKeys.create(requirePrincipal(principal).accountId, body);
    // `key` is shown once: never kept for an Idempotency-Key replay.
    return { status: 201, body: out, secretFields: ['key'] };
  });

  routes.operation<unknown, unknown, { key_id: string }>(
    'deleteApiKey',
    async ({ principal, params }) => {
      await services.apiKeys.revoke(requirePrincipal(principal).accountId, params.key_id);
      return { status: 204 };
    },
  );
}
