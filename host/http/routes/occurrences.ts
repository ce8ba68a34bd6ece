/**
 * Occurrence routes: GET /occurrences (status filter; `from` inclusive, `to` exclusive; by
 * default the last day and the next seven days; soonest first, paged), GET
 * /occurrences/{id} with its attempts, and POST /occurrences/{id}/cancel (a ringing call is
 * hung up; 409 occurrence_terminal once finished). Another account's occurrence is 404.
 * Rules in `host/calls/service.ts`.
 * @module
 */
import type { AppServices } from '../../services.js';
import type { OccurrenceQuery } from '../../calls/service.js';
import { requirePrincipal } from '../context.js';
import type { Routes } from '../registrar.js';

type IdParams = { occurrence_id: string };

/** Registers the occurrence operations (move belongs to the travel work). */
export function register(routes: Routes, services: AppServices): void {
  routes.operation<unknown, OccurrenceQuery>('listOccurrences', async ({ principal, query }) => ({
    status: 200,
    body: await services.calls.listOccurrences(
      requirePrincipal(principal).accountId,
      query,
      principal!.account,
    ),
  }));

  routes.operation<unknown, unknown, IdParams>('getOccurrence', async ({ principal, params }) => ({
    status: 200,
    body: await services.calls.getOccurrence(
      requirePrincipal(principal).accountId,
      params.occurrence_id,
    ),
  }));

  routes.operation<unknown, unknown, IdParams>(
    'cancelOccurrence',
    async ({ principal, params }) => ({
      status: 200,
      body: await services.calls.cancelOccurrence(
        requirePrincipal(principal).accountId,
        params.occurrence_id,
      ),
    }),
  );
}
