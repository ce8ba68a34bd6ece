/**
 * Contact routes: list (paged, oldest first), add and invite, get, rename,
 * remove, invite again, agree with the code. Rules in `host/contacts/service.ts`.
 * @module
 */
import type { AppServices } from '../../services.js';
import type { ContactAgreeIn, ContactIn, ContactPatchIn } from '../../generated/openapi.js';
import type { PageQuery } from '../../paging.js';
import { requirePrincipal } from '../context.js';
import type { Routes } from '../registrar.js';

type IdParams = { contact_id: string };

/** Registers the contact operations. */
export function register(routes: Routes, services: AppServices): void {
  const { contacts } = services;
  const me = (p: Parameters<typeof requirePrincipal>[0]) => requirePrincipal(p).accountId;

  routes.operation<unknown, PageQuery>('listContacts', async ({ principal, query }) => ({
    status: 200,
    body: await contacts.list(me(principal), query),
  }));

  routes.operation<ContactIn>('createContact', async ({ principal, body, ctx }) => {
    const r = await contacts.create(me(principal), body, ctx.state.client);
    return { status: r.created ? 201 : 200, body: r.contact };
  });

  routes.operation<unknown, unknown, IdParams>('getContact', async ({ principal, params }) => ({
    status: 200,
    body: await contacts.get(me(principal), params.contact_id),
  }));

  routes.operation<ContactPatchIn, unknown, IdParams>(
    'updateContact',
    async ({ principal, body, params }) => ({
      status: 200,
      body: await contacts.update(me(principal), params.contact_id, body),
    }),
  );

  routes.operation<unknown, unknown, IdParams>('deleteContact', async ({ principal, params }) => {
    await contacts.remove(me(principal), params.contact_id);
    return { status: 204 };
  });

  routes.operation<unknown, unknown, IdParams>(
    'inviteContact',
    async ({ principal, params, ctx }) => ({
      status: 200,
      body: await contacts.invite(me(principal), params.contact_id, ctx.state.client),
    }),
  );

  routes.operation<ContactAgreeIn, unknown, IdParams>(
    'agreeContact',
    async ({ principal, body, params }) => ({
      status: 200,
      body: await contacts.agree(me(principal), params.contact_id, body.code),
    }),
  );
}
