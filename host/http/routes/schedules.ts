/**
 * Schedule routes (the wake-up calls): list, create, preview, get, change, preview a change,
 * delete, pause, resume, skip-next and upcoming. The test call lives in test-calls.ts.
 * Thin: the rules are in host/schedules/ (plan.ts checks, apply.ts saves, present.ts shows),
 * and each preview runs the same plan as its save without saving it.
 * Each schedule is an engine series (host/schedules/series.ts): the engine makes each next
 * occurrence itself and repairs any series left without one at start.
 * @module
 */
import type { AppDeps } from '../../deps.js';
import { findAccountById, type Account } from '../../db/accounts.js';
import { getSchedule, listSchedules, type Schedule, type ScheduleSource, type ScheduleStatus } from '../../db/schedules.js';
import { applyPlan, deleteSchedule } from '../../schedules/apply.js';
import type { ScheduleInBody, SchedulePatchBody } from '../../schedules/input.js';
import { planChange, planCreate, type PlanContext } from '../../schedules/plan.js';
import { planPause, planResume, planSkipNext } from '../../schedules/actions.js';
import { previewOut, scheduleOut, upcomingOut } from '../../schedules/present.js';
import { requirePrincipal, type Principal } from '../context.js';
import { cursorKey, pageRequest, pageResponse } from '../paging.js';
import { problem } from '../../errors.js';
import type { Routes } from '../registrar.js';

type IdParams = { schedule_id: string };

const SOURCE: Record<Principal['credential'], ScheduleSource> = { api_key: 'api', app_session: 'app', web_session: 'web' };

/** Registers the schedule operations. */
export function register(routes: Routes, deps: AppDeps): void {
  const { db, clock, runtime } = deps;

  const account = (p: Principal): Account => {
    const a = findAccountById(db, p.accountId);
    if (!a) throw problem('unauthenticated', { detail: 'The account no longer exists.' });
    return a;
  };
  const context = (a: Account): PlanContext => ({ db, now: clock.now(), account: a, newId: () => deps.ids.uuid() });
  const owned = (a: Account, id: string): Schedule => {
    const s = getSchedule(db, a.id, id);
    if (!s) throw problem('not_found', { detail: 'No schedule with that id.' });
    return s;
  };
  const out = (s: Schedule, a: Account) => scheduleOut(db, s, a, clock.now());

  routes.operation<unknown, { cursor?: string; limit?: number; status?: ScheduleStatus }>('listSchedules', ({ principal, query }) => {
    const a = account(requirePrincipal(principal));
    const page = pageRequest(query);
    const before = cursorKey<[number, number]>(page.after, ['number', 'number']);
    const rows = listSchedules(db, a.id, {
      status: query.status ?? null,
      limit: page.limit + 1,
      before: before && { createdAt: before[0], seq: before[1] },
    });
    return {
      status: 200,
      body: pageResponse(
        rows,
        page.limit,
        (s) => [s.createdAt, s.seq],
        (s) => out(s, a),
      ),
    };
  });

  routes.operation<ScheduleInBody>('createSchedule', async ({ principal, body }) => {
    const p = requirePrincipal(principal);
    const a = account(p);
    const saved = await applyPlan(deps, planCreate(context(a), body, SOURCE[p.credential]));
    return { status: 201, body: out(saved, a) };
  });

  routes.operation<ScheduleInBody>('previewSchedule', ({ principal, body }) => {
    const p = requirePrincipal(principal);
    const a = account(p);
    const ctx = context(a);
    return { status: 200, body: previewOut(planCreate(ctx, body, SOURCE[p.credential]), ctx.now) };
  });

  routes.operation<unknown, unknown, IdParams>('getSchedule', ({ principal, params }) => {
    const a = account(requirePrincipal(principal));
    return { status: 200, body: out(owned(a, params.schedule_id), a) };
  });

  routes.operation<SchedulePatchBody, unknown, IdParams>('updateSchedule', async ({ principal, body, params }) => {
    const a = account(requirePrincipal(principal));
    const plan = planChange(context(a), owned(a, params.schedule_id), body, { refuseInProgress: true });
    return { status: 200, body: out(await applyPlan(deps, plan), a) };
  });

  routes.operation<SchedulePatchBody, unknown, IdParams>('previewScheduleChange', ({ principal, body, params }) => {
    const a = account(requirePrincipal(principal));
    const ctx = context(a);
    return { status: 200, body: previewOut(planChange(ctx, owned(a, params.schedule_id), body, { refuseInProgress: true }), ctx.now) };
  });

  routes.operation<unknown, unknown, IdParams>('deleteSchedule', async ({ principal, params }) => {
    const a = account(requirePrincipal(principal));
    await deleteSchedule(deps, owned(a, params.schedule_id), clock.now());
    return { status: 204 };
  });

  routes.operation<{ until: string }, unknown, IdParams>('pauseSchedule', async ({ principal, body, params }) => {
    const a = account(requirePrincipal(principal));
    return { status: 200, body: out(await applyPlan(deps, planPause(context(a), owned(a, params.schedule_id), body.until)), a) };
  });

  routes.operation<unknown, unknown, IdParams>('resumeSchedule', async ({ principal, params }) => {
    const a = account(requirePrincipal(principal));
    return { status: 200, body: out(await applyPlan(deps, planResume(context(a), owned(a, params.schedule_id))), a) };
  });

  routes.operation<unknown, unknown, IdParams>('skipNextOccurrence', async ({ principal, params }) => {
    const a = account(requirePrincipal(principal));
    return { status: 200, body: out(await applyPlan(deps, planSkipNext(context(a), owned(a, params.schedule_id))), a) };
  });

  routes.operation<unknown, { count?: number }, IdParams>('listUpcoming', ({ principal, query, params }) => {
    const a = account(requirePrincipal(principal));
    const s = owned(a, params.schedule_id);
    return { status: 200, body: { items: upcomingOut(db, s, a, clock.now(), query.count ?? 7) } };
  });
}
