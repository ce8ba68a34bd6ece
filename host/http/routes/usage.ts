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
import type { AppDeps } from '../../deps.js';
import { findAccountById } from '../../db/accounts.js';
import { clearCallsRevoked } from '../../db/account-calls.js';
import { meOut } from '../../account/me.js';
import { usageOut } from '../../usage/usage.js';
import { requirePrincipal } from '../context.js';
import { problem } from '../../errors.js';
import type { Routes } from '../registrar.js';

/** Registers getUsage and resumeCalls. */
export function register(routes: Routes, deps: AppDeps): void {
  const { db, clock } = deps;

  const account = (id: string) => {
    const a = findAccountById(db, id);
    if (!a) throw problem('unauthenticated', { detail: 'The account no longer exists.' });
    return a;
  };

  routes.operation('getUsage', ({ principal }) => {
    const p = requirePrincipal(principal);
    return { status: 200, body: usageOut(db, account(p.accountId), clock.now()) };
  });

  routes.operation<{ consent?: boolean | null }>('resumeCalls', ({ principal, body }) => {
    const p = requirePrincipal(principal);
    if (body?.consent !== true) {
      throw problem('confirmation_required', {
        field: 'consent',
        detail: 'Send consent: true to agree to receive wake-up calls again.',
      });
    }
    const now = clock.now();
    clearCallsRevoked(db, p.accountId, now);
    return { status: 200, body: meOut(db, account(p.accountId), now) };
  });
}
