/**
 * Account lifecycle routes: POST /me/onboarding, POST /me/onboarding/skip,
 * POST /me/deletion-code, DELETE /me, GET /me/export and POST /me/idp-authorization.
 * Parse, call the account lifecycle service (host/account/lifecycle.ts), present.
 * @module
 */
import { Readable } from 'node:stream';
import { isoInstant } from '../../instant.js';
import { requirePrincipal } from '../context.js';
import { RateLimiter } from '../../rate-limit/limiter.js';
import { countLimit } from '../rate-limit.js';
import type { Routes } from '../registrar.js';
import type { AppServices } from '../../services.js';
import type {
  DeleteMeIn,
  DeletedOut,
  IdpAuthorizationIn,
  OnboardingIn,
  OnboardingSkipIn,
} from '../../generated/openapi.js';

/** Requests to POST /me/idp-authorization per account per minute. */
export const IDP_REQUESTS_PER_MINUTE = 10;

/** Registers the operations. */
export function register(routes: Routes, services: AppServices): void {
  const svc = services.accountLifecycle;
  const idpLimit = new RateLimiter({
    name: 'account.idp',
    limit: IDP_REQUESTS_PER_MINUTE,
    windowSeconds: 60,
    clock: services.clock,
    store: services.shared.rateWindows,
  });

  routes.operation<OnboardingIn>('setOnboardingStep', async ({ principal, body }) => {
    const p = requirePrincipal(principal);
    const account = await svc.setOnboardingFlag(p.accountId, body.step, body.done ?? true);
    return { status: 200, body: account.onboardingState };
  });

  routes.operation<OnboardingSkipIn>('skipOnboardingStep', async ({ principal, body }) => {
    const p = requirePrincipal(principal);
    const account = await svc.skipOnboardingStep(p.accountId, body.step);
    return { status: 200, body: (await services.account.present(account)).onboarding };
  });

  routes.operation('sendDeletionCode', async ({ principal }) => {
    const p = requirePrincipal(principal);
    return { status: 202, body: await svc.deletion.sendCode(p.accountId) };
  });

  routes.operation<DeleteMeIn>('deleteMe', async ({ principal, body }) => {
    const p = requirePrincipal(principal);
    const r = await svc.deletion.deleteAccount(p.accountId, {
      confirm: body.confirm,
      code: body.code,
    });
    const out: DeletedOut = { deleted_at: isoInstant(r.deletedAt) };
    return { status: 202, body: out };
  });

  routes.operation('exportMe', async ({ principal }) => {
    const p = requirePrincipal(principal);
    const doc = await svc.export.exportAccount(p.accountId);
    return {
      status: 200,
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Disposition': `attachment; filename="${doc.filename}"`,
        'Cache-Control': 'no-store',
      },
      body: Readable.from(doc.chunks, { objectMode: false }),
    };
  });

  routes.operation<IdpAuthorizationIn>('linkIdpAuthorization', async ({ principal, body, ctx }) => {
    const p = requirePrincipal(principal);
    await countLimit(
      ctx,
      idpLimit,
      p.accountId,
      `At most ${IDP_REQUESTS_PER_MINUTE} identity-provider requests a minute.`,
    );
    await svc.idp.link(p.accountId, body.authorization_code);
    return { status: 204 };
  });
}
