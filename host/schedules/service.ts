/**
 * The schedule service: list, create, preview, read, change (and preview a change),
 * delete, pause, resume, skip the next occurrence, and the upcoming list. Thin over the
 * rules: `plan.ts` checks, `apply.ts` saves, `present.ts` shows; each preview runs the same
 * plan as its save without saving it. A schedule is the engine's series (`schedule.ts`): the
 * engine makes each next occurrence itself.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { Clock, Ids, Runtime } from '../../engine/index.js';
import type { Principal } from '../auth/index.js';
import { findAccountById, type Account } from '../db/accounts.js';
import {
  findSchedule,
  listSchedules,
  type ScheduleSource,
  type ScheduleStatus,
  type ScheduleWithNext,
} from './records.js';
import { problem } from '../errors.js';
import { cursorKey, pageRequest, pageResponse, type PageQuery } from '../paging.js';
import { planPause, planResume, planSkipNext } from './actions.js';
import { applyPlan, deleteSchedule } from './apply.js';
import type { ScheduleInBody, SchedulePatchBody } from './input.js';
import { planChange, planCreate, type PlanContext } from './plan.js';
import { previewOut, scheduleOut, upcomingOut } from './present.js';
import {
  checkTellContacts,
  dropTellContacts,
  saveTellContacts,
} from '../contacts/schedule-rule.js';

type ScheduleOut = Awaited<ReturnType<typeof scheduleOut>>;
type PreviewOut = Awaited<ReturnType<typeof previewOut>>;
type UpcomingOut = Awaited<ReturnType<typeof upcomingOut>>;

const SOURCE: Record<Principal['credential'], ScheduleSource> = {
  api_key: 'api',
  app_session: 'app',
  web_session: 'web',
};

/** What the schedule operations need. */
export interface ScheduleServiceDeps {
  db: Db;
  clock: Clock;
  ids: Ids;
  runtime: Runtime;
}

/** The schedule operations of the calling account. */
export interface ScheduleService {
  list(
    accountId: string,
    query: PageQuery & { status?: ScheduleStatus },
  ): Promise<{ items: ScheduleOut[]; next_cursor: string | null }>;
  /** Creates; the caller's credential kind is stored as the schedule's source. */
  create(caller: Principal, body: ScheduleInBody): Promise<ScheduleOut>;
  preview(caller: Principal, body: ScheduleInBody): Promise<PreviewOut>;
  get(accountId: string, id: string): Promise<ScheduleOut>;
  update(accountId: string, id: string, body: SchedulePatchBody): Promise<ScheduleOut>;
  previewChange(accountId: string, id: string, body: SchedulePatchBody): Promise<PreviewOut>;
  remove(accountId: string, id: string): Promise<void>;
  pause(accountId: string, id: string, until: string): Promise<ScheduleOut>;
  resume(accountId: string, id: string): Promise<ScheduleOut>;
  skipNext(accountId: string, id: string): Promise<ScheduleOut>;
  upcoming(accountId: string, id: string, count: number): Promise<UpcomingOut>;
}

/** Creates the schedule service. */
export function createScheduleService(deps: ScheduleServiceDeps): ScheduleService {
  const { db, clock } = deps;
  const account = async (accountId: string): Promise<Account> => {
    const a = await findAccountById(db, accountId);
    if (!a) throw problem('unauthenticated', { detail: 'The account no longer exists.' });
    return a;
  };
  const context = (a: Account): PlanContext => ({
    db,
    now: clock.now(),
    account: a,
    newId: () => deps.ids.uuid(),
  });
  const owned = async (a: Account, id: string): Promise<ScheduleWithNext> => {
    const s = await findSchedule(db, a.id, id);
    if (!s) throw problem('not_found', { detail: 'No schedule with that id.' });
    return s;
  };
  const out = async (s: ScheduleWithNext, a: Account) => await scheduleOut(db, s, a, clock.now());

  return {
    async list(accountId, query) {
      const a = await account(accountId);
      const page = pageRequest(query);
      const before = cursorKey<[number, number]>(page.after, ['number', 'number']);
      const rows = await listSchedules(db, a.id, {
        status: query.status ?? null,
        limit: page.limit + 1,
        before: before && { createdAt: before[0], seq: before[1] },
      });
      const r = pageResponse(
        rows,
        page.limit,
        (s) => [s.schedule.createdAt, s.seq],
        async (s) => await out(s, a),
      );
      return { ...r, items: await Promise.all(r.items) };
    },
    async create(caller, body) {
      const a = await account(caller.accountId);
      const tell = await checkTellContacts(db, a.id, body.tell_contacts);
      const saved = await applyPlan(
        deps,
        await planCreate(context(a), body, SOURCE[caller.credential]),
      );
      await saveTellContacts(db, a.id, saved.schedule.id, tell, clock.now());
      return await out(saved, a);
    },
    async preview(caller, body) {
      // Read-only: the account the credential check read in this request.
      const ctx = context(caller.account ?? (await account(caller.accountId)));
      await checkTellContacts(db, ctx.account.id, body.tell_contacts);
      return previewOut(await planCreate(ctx, body, SOURCE[caller.credential]), ctx.now);
    },
    async get(accountId, id) {
      const a = await account(accountId);
      return await out(await owned(a, id), a);
    },
    async update(accountId, id, body) {
      const a = await account(accountId);
      const before = await owned(a, id);
      const tell = await checkTellContacts(db, a.id, body.tell_contacts);
      const plan = await planChange(context(a), before.schedule, body, { refuseInProgress: true });
      const saved = await applyPlan(deps, plan);
      await saveTellContacts(db, a.id, saved.schedule.id, tell, clock.now());
      return await out(saved, a);
    },
    async previewChange(accountId, id, body) {
      const a = await account(accountId);
      const ctx = context(a);
      const before = await owned(a, id);
      await checkTellContacts(db, a.id, body.tell_contacts);
      return previewOut(
        await planChange(ctx, before.schedule, body, { refuseInProgress: true }),
        ctx.now,
      );
    },
    async remove(accountId, id) {
      const a = await account(accountId);
      const s = await owned(a, id);
      if (await deleteSchedule(deps, s.schedule, s.stored, clock.now()))
        await dropTellContacts(db, a.id, id, clock.now());
    },
    async pause(accountId, id, until) {
      const a = await account(accountId);
      return await out(
        await applyPlan(deps, await planPause(context(a), (await owned(a, id)).schedule, until)),
        a,
      );
    },
    async resume(accountId, id) {
      const a = await account(accountId);
      return await out(
        await applyPlan(deps, await planResume(context(a), (await owned(a, id)).schedule)),
        a,
      );
    },
    async skipNext(accountId, id) {
      const a = await account(accountId);
      return await out(
        await applyPlan(deps, await planSkipNext(context(a), (await owned(a, id)).schedule)),
        a,
      );
    },
    async upcoming(accountId, id, count) {
      const a = await account(accountId);
      return upcomingOut(await owned(a, id), a, clock.now(), count);
    },
  };
}
