/**
 * Account routes: GET /me and PATCH /me (rules in `host/account/service.ts`).
 * @module
 */
import type { AppServices } from '../../services.js';
import { requirePrincipal } from '../context.js';
import type { Routes } from '../registrar.js';
import type { MePatchIn } from '../../generated/openapi.js';

/** Registers the account operations. */
export function register(routes: Routes, services: AppServices): void {
  routes.operation('getMe', async ({ principal }) => {
    const caller = requirePrincipal(principal);
    return { status: 200, body: await services.account.me(caller.accountId, caller.account) };
  });

  routes.operation<MePatchIn>('updateMe', async ({ principal, body }) => ({
    status: 200,
    body: await services.account.update(requirePrincipal(principal).accountId, body),
  }));
}
