/**
 * Usage and the calls-off switch: GET /me/usage, and POST /me/resume-calls, which turns
 * calls back on after key 9 with explicit consent (`consent: true`; false, null or missing
 * give 400 confirmation_required; API keys are refused by the schema's x-credentials).
 *
 * Resuming clears `calls_revoked_at` only. A number blocked by key 9 stays blocked until
 * it is verified again with a code (POST .../verify/start then verify/check), because the
 * person who pressed 9 on that phone need not be the account holder giving consent here.
 * @module
 */
import type { AppServices } from '../../services.js';
import { requirePrincipal } from '../context.js';
import { problem } from '../../errors.js';
import type { Routes } from '../registrar.js';

/** Registers getUsage and resumeCalls. */
export function register(routes: Routes, services: AppServices): void {
  routes.operation('getUsage', async ({ principal }) => ({
    status: 200,
    body: await services.account.usage(requirePrincipal(principal).accountId),
  }));

  routes.operation<{ consent?: boolean | null }>('resumeCalls', async ({ principal, body }) => {
    const p = requirePrincipal(principal);
    if (body?.consent !== true) {
      throw problem('confirmation_required', {
        field: 'consent',
        detail: 'Send consent: true to agree to receive wake-up calls again.',
      });
    }
    return { status: 200, body: await services.account.resumeCalls(p.accountId) };
  });
}
