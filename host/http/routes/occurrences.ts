/**
 * Occurrence routes: GET /occurrences (status filter; `from` inclusive, `to` exclusive; by
 * default the last day and the next seven days; soonest first, paged), GET
 * /occurrences/{id} with its attempts, and POST /occurrences/{id}/cancel (a ringing call is
 * hung up; 409 occurrence_terminal once finished). Another account's occurrence is 404.
 * @module
 */
import type { OccurrenceStatus } from '../../../engine/index.js';
import type { AppDeps } from '../../deps.js';
import { findAccountById } from '../../db/accounts.js';
import { getOccurrenceView, listOccurrenceAttempts, listOccurrenceViews, type OccurrenceView } from '../../db/calls.js';
import { occurrenceDetailOut, occurrenceOut, type OccurrenceContext } from '../../calls/present.js';
import { requirePrincipal } from '../context.js';
import { cursorKey, pageRequest, pageResponse } from '../paging.js';
import { problem } from '../../errors.js';
import type { Routes } from '../registrar.js';

/** The default window of GET /occurrences: from 24 hours ago to 7 days ahead. */
export const DEFAULT_WINDOW = Object.freeze({ pastMs: 86_400_000, aheadMs: 7 * 86_400_000 });

type ListQuery = { cursor?: string; limit?: number; status?: OccurrenceStatus; from?: string; to?: string };
type IdParams = { occurrence_id: string };

/** Registers the occurrence operations (move belongs to the travel work). */
export function register(routes: Routes, deps: AppDeps): void {
  const { db, clock } = deps;

  const context = (accountId: string): OccurrenceContext => ({
    homeTimezone: findAccountById(db, accountId)?.homeTimezone ?? null,
    now: clock.now(),
  });

  const owned = (accountId: string, id: string): OccurrenceView => {
    const v = getOccurrenceView(db, accountId, id);
    if (!v) throw problem('not_found', { detail: 'No occurrence with that id.' });
    return v;
  };

  routes.operation<unknown, ListQuery>('listOccurrences', ({ principal, query }) => {
    const p = requirePrincipal(principal);
    const page = pageRequest(query);
    const after = cursorKey<[number, string]>(page.after, ['number', 'string']);
    const ctx = context(p.accountId);
    // The schema checked the format; Date.parse reads any offset (Z or +HH:MM).
    let from = query.from === undefined ? null : Date.parse(query.from);
    let to = query.to === undefined ? null : Date.parse(query.to);
    if (from === null && to === null) {
      from = ctx.now - DEFAULT_WINDOW.pastMs;
      to = ctx.now + DEFAULT_WINDOW.aheadMs;
    }
    const rows = listOccurrenceViews(db, p.accountId, {
      status: query.status ?? null,
      from,
      to,
      after: after && { scheduledAt: after[0], id: after[1] },
      limit: page.limit + 1,
    });
    return {
      status: 200,
      body: pageResponse(
        rows,
        page.limit,
        (v) => [v.record.scheduledAt, v.record.id],
        (v) => occurrenceOut(v, ctx),
      ),
    };
  });

  routes.operation<unknown, unknown, IdParams>('getOccurrence', ({ principal, params }) => {
    const p = requirePrincipal(principal);
    const v = owned(p.accountId, params.occurrence_id);
    return { status: 200, body: occurrenceDetailOut(v, listOccurrenceAttempts(db, v.record.id), context(p.accountId)) };
  });

  routes.operation<unknown, unknown, IdParams>('cancelOccurrence', async ({ principal, params }) => {
    const p = requirePrincipal(principal);
    const v = owned(p.accountId, params.occurrence_id);
    const r = await deps.runtime.cancel(v.record.id);
    if (!r.ok) {
      if (r.code === 'occurrence_terminal') {
        throw problem('occurrence_terminal', { detail: `This call already finished (${v.record.status}); there is nothing to cancel.` });
      }
      throw problem('not_found', { detail: 'No occurrence with that id.' });
    }
    const after = owned(p.accountId, v.record.id);
    return { status: 200, body: occurrenceDetailOut(after, listOccurrenceAttempts(db, after.record.id), context(p.accountId)) };
  });
}
