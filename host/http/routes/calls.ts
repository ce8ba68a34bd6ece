/**
 * Call routes: GET /calls (newest first, paged: every attempt of the account's wake-up calls
 * and its standalone test calls) and GET /calls/{id}.
 *
 * GET /calls/{id} accepts anonymous callers for demo calls only: a demo call's id (returned
 * by POST /demo/call, unguessable) is the capability to read it. Without credentials any
 * other id, existing or not, answers 401 unauthenticated, so ids cannot be probed. With
 * credentials, another account's call answers 404.
 * @module
 */
import type { AppDeps } from '../../deps.js';
import { getAttemptById, listCallRows } from '../../db/calls.js';
import { attemptOut } from '../../calls/present.js';
import { requirePrincipal } from '../context.js';
import { cursorKey, pageRequest, pageResponse } from '../paging.js';
import { problem } from '../../errors.js';
import type { Routes } from '../registrar.js';

/** Registers listCalls and getCall. */
export function register(routes: Routes, deps: AppDeps): void {
  const { db } = deps;

  routes.operation<unknown, { cursor?: string; limit?: number }>('listCalls', ({ principal, query }) => {
    const p = requirePrincipal(principal);
    const page = pageRequest(query);
    const after = cursorKey<[number, number]>(page.after, ['number', 'number']);
    const rows = listCallRows(db, p.accountId, { after: after && { createdAt: after[0], seq: after[1] }, limit: page.limit + 1 });
    return {
      status: 200,
      body: pageResponse(
        rows,
        page.limit,
        (r) => [r.attempt.createdAt, r.seq],
        (r) => attemptOut(r.attempt),
      ),
    };
  });

  routes.operation<unknown, unknown, { call_id: string }>('getCall', ({ principal, params }) => {
    const a = getAttemptById(db, params.call_id);
    if (a?.kind === 'demo') return { status: 200, body: attemptOut(a) };
    if (principal === null) {
      throw problem('unauthenticated', {
        detail: 'Sign in (or send an API key) to read this call; only demo calls can be read without credentials.',
      });
    }
    if (!a || a.accountId !== principal.accountId) throw problem('not_found', { detail: 'No call with that id.' });
    return { status: 200, body: attemptOut(a) };
  });
}
