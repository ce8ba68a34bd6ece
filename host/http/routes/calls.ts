/**
 * Call routes: GET /calls (newest first, paged: every attempt of the account's wake-up calls
 * and its standalone test calls) and GET /calls/{id} (rules in `host/calls/service.ts`).
 *
 * GET /calls/{id} accepts anonymous callers for demo calls only: a demo call's id (returned
 * by POST /demo/call, unguessable) is the capability to read it. Without credentials any
 * other id, existing or not, answers 401 unauthenticated, so ids cannot be probed. With
 * credentials, another account's call answers 404.
 * @module
 */
import type { AppServices } from '../../services.js';
import type { PageQuery } from '../../paging.js';
import { requirePrincipal } from '../context.js';
import type { Routes } from '../registrar.js';

/** Registers listCalls and getCall. */
export function register(routes: Routes, services: AppServices): void {
  routes.operation<unknown, PageQuery>('listCalls', async ({ principal, query }) => ({
    status: 200,
    body: await services.calls.list(requirePrincipal(principal).accountId, query),
  }));

  routes.operation<unknown, unknown, { call_id: string }>(
    'getCall',
    async ({ principal, params }) => ({
      status: 200,
      body: await services.calls.get(params.call_id, principal?.accountId ?? null),
    }),
  );
}
