/**
 * Phone number routes: list (paged, oldest first), add (sends a code at once), change
 * label / primary, remove, and the verification pair verify/start and verify/check.
 *
 * Rules in `host/phone/service.ts`.
 * @module
 */
import type { AppServices } from '../../services.js';
import type { PageQuery } from '../../paging.js';
import { requirePrincipal } from '../context.js';
import type { Routes } from '../registrar.js';

type IdParams = { phone_number_id: string };

/** Registers the phone number operations. */
export function register(routes: Routes, services: AppServices): void {
  const { phone } = services;

  routes.operation<unknown, PageQuery>('listPhoneNumbers', async ({ principal, query }) => ({
    status: 200,
    body: await phone.list(requirePrincipal(principal).accountId, query),
  }));

  routes.operation<{ e164: string; label?: string | null }>(
    'createPhoneNumber',
    async ({ principal, body, ctx }) => ({
      status: 201,
      body: await phone.create(requirePrincipal(principal).accountId, body, ctx.state.client),
    }),
  );

  routes.operation<{ is_primary?: boolean | null; label?: string | null }, unknown, IdParams>(
    'updatePhoneNumber',
    async ({ principal, body, params }) => ({
      status: 200,
      body: await phone.update(requirePrincipal(principal).accountId, params.phone_number_id, body),
    }),
  );

  routes.operation<unknown, unknown, IdParams>(
    'deletePhoneNumber',
    async ({ principal, params }) => {
      await phone.remove(requirePrincipal(principal).accountId, params.phone_number_id);
      return { status: 204 };
    },
  );

  routes.operation<{ channel?: 'sms' | 'call' | null } | undefined, unknown, IdParams>(
    'startPhoneVerification',
    async ({ principal, body, params, ctx }) => ({
      status: 200,
      body: await phone.startVerification(
        requirePrincipal(principal).accountId,
        params.phone_number_id,
        body?.channel,
        ctx.state.client,
      ),
    }),
  );

  routes.operation<{ code: string }, unknown, IdParams>(
    'checkPhoneVerification',
    async ({ principal, body, params }) => ({
      status: 200,
      body: await phone.checkVerification(
        requirePrincipal(principal).accountId,
        params.phone_number_id,
        body.code,
      ),
    }),
  );
}
