/**
 * The schedule service: list, create, preview, read, change (and preview a change),
 * delete, pause, resume, skip the next occurrence, and the upcoming list. Thin over the
 * rules: `plan.ts` checks, `apply.ts` saves, `present.ts` shows; each preview runs the same
 * plan as its save without saving it. The next-occurrence chain (`chain.ts`) is wired to the
 * runtime by `host/compose.ts`, not here.
 * @module
 */
import type { Database } from 'better-sqlite3';
import type { Clock, Ids, Runtime } from '../../engine/index.js';
import type { Principal } from '../auth/principal.js';
import { findAccountById, type Account } from '../db/accounts.js';
import { getSchedule, listSchedules, type Schedule, type ScheduleSource, type ScheduleStatus } from '../db/schedules.js';
import { problem } from '../errors.js';
import { cursorKey, pageRequest, pageResponse, type PageQuery } from '../paging.js';
import { planPause, planResume, planSkipNext } from './actions.js';
import { applyPlan, deleteSchedule } from './apply.js';
import type { ScheduleInBody, SchedulePatchBody } from './input.js';
import { planChange, planCreate, type PlanContext } from './plan.js';
import { previewOut, scheduleOut, upcomingOut } from './present.js';

type ScheduleOut = ReturnType<typeof scheduleOut>;
type PreviewOut = ReturnType<typeof previewOut>;
type UpcomingOut = ReturnType<typeof upcomingOut>;

const SOURCE: Record<Principal['credential'], ScheduleSource> = { api_key: 'api', app_session: 'app', web_session: 'web' };

/** What the schedule operations need. */
export interface ScheduleServiceDeps {
  db: Database;
  clock: Clock;
  ids: Ids;
  runtime: Runtime;
}

/** The schedule operations of the calling account. */
export interface ScheduleService {
  list(accountId: string, query: PageQuery & { status?: ScheduleStatus }): { items: ScheduleOut[]; next_cursor: string | null };
  /** Creates; the caller's credential kind is stored as the schedule's source. */
  create(caller: Principal, body: ScheduleInBody): Promise<ScheduleOut>;
  preview(caller: Principal, body: ScheduleInBody): PreviewOut;
  get(accountId: string, id: string): ScheduleOut;
  update(accountId: string, id: string, body: SchedulePatchBody): Promise<ScheduleOut>;
  previewChange(accountId: string, id: string, body: SchedulePatchBody): PreviewOut;
  remove(accountId: string, id: string): Promise<void>;
  pause(accountId: string, id: string, until: string): Promise<ScheduleOut>;
  resume(accountId: string, id: string): Promise<ScheduleOut>;
  skipNext(accountId: string, id: string): Promise<ScheduleOut>;
  upcoming(accountId: string, id: string, count: number): UpcomingOut;
}

/** Creates the schedule service. */
export function createScheduleService(deps: ScheduleServiceDeps): ScheduleService {
  const { db, clock } = deps;
  const account = (accountId: string): Account => {
    const a = findAccountById(db, accountId);
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

  return {
    list(accountId, query) {
      const a = account(accountId);
      const page = pageRequest(query);
      const before = cursorKey<[number, number]>(page.after, ['number', 'number']);
      const rows = listSchedules(db, a.id, {
        status: query.status ?? null,
        limit: page.limit + 1,
        before: before && { createdAt: before[0], seq: before[1] },
      });
      return pageResponse(
        rows,
        page.limit,
        (s) => [s.createdAt, s.seq],
        (s) => out(s, a),
      );
    },
    async create(caller, body) {
      const a = account(caller.accountId);
      return out(await applyPlan(deps, planCreate(context(a), body, SOURCE[caller.credential])), a);
    },
    preview(caller, body) {
      const ctx = context(account(caller.accountId));
      return previewOut(planCreate(ctx, body, SOURCE[caller.credential]), ctx.now);
    },
    get(accountId, id) {
      const a = account(accountId);
      return out(owned(a, id), a);
    },
    async update(accountId, id, body) {
      const a = account(accountId);
      const plan = planChange(context(a), owned(a, id), body, { refuseInProgress: true });
      return out(await applyPlan(deps, plan), a);
    },
    previewChange(accountId, id, body) {
      const a = account(accountId);
      const ctx = context(a);
      return previewOut(planChange(ctx, owned(a, id), body, { refuseInProgress: true }), ctx.now);
    },
    async remove(accountId, id) {
      const a = account(accountId);
      await deleteSchedule(deps, owned(a, id), clock.now());
    },
    async pause(accountId, id, until) {
      const a = account(accountId);
      return out(await applyPlan(deps, planPause(context(a), owned(a, id), until)), a);
    },
    async resume(accountId, id) {
      const a = account(accountId);
      return out(await applyPlan(deps, planResume(context(a), owned(a, id))), a);
    },
    async skipNext(accountId, id) {
      const a = account(accountId);
      return out(await applyPlan(deps, planSkipNext(context(a), owned(a, id))), a);
    },
    upcoming(accountId, id, count) {
      const a = account(accountId);
      return upcomingOut(db, owned(a, id), a, clock.now(), count);
    },
  };
}
