/**
 * The call service: the account's calls (GET /calls, /calls/{id}), its occurrences (GET
 * /occurrences, /occurrences/{id}, POST .../cancel) and test calls (POST
 * /phone-numbers/{id}/test-call, /schedules/{id}/test-call; rules in `test-calls.ts`).
 *
 * - Occurrences: status filter; `from` inclusive, `to` exclusive; by default the last day and
 *   the next seven days; soonest first, paged. Cancelling hangs up a ringing call; 409
 *   occurrence_terminal once finished. Another account's occurrence is 404.
 * - A call's id read without credentials: only demo calls answer (their unguessable id is the
 *   capability); any other id, existing or not, answers 401 unauthenticated, so ids cannot be
 *   probed. With credentials, another account's call answers 404.
 * @module
 */
import type { Db } from '../db/sql.js';
import {
  EngineError,
  type Clock,
  type OccurrenceStatus,
  type Runtime,
} from '../../engine/index.js';
import { findAccountById, type Account } from '../db/accounts.js';
import {
  getAttemptById,
  getOccurrenceView,
  listCallRows,
  listOccurrenceAttempts,
  listOccurrenceViews,
  type OccurrenceView,
} from '../db/calls.js';
import { toldOfOccurrence } from '../db/contacts.js';
import { getPhoneNumber } from '../db/phone-numbers.js';
import { invalid, problem } from '../errors.js';
import { cursorKey, pageRequest, pageResponse, type PageQuery } from '../paging.js';
import { getSchedule, policyInEffect } from '../schedules/index.js';
import {
  attemptOut,
  occurrenceDetailOut,
  occurrenceOut,
  type OccurrenceContext,
} from './present.js';
import { placeTestCall, type TestCallResult } from './test-calls.js';

type AttemptOut = ReturnType<typeof attemptOut>;
type OccurrenceOut = ReturnType<typeof occurrenceOut>;
type OccurrenceDetailOut = ReturnType<typeof occurrenceDetailOut>;

/** The default window of GET /occurrences: from 24 hours ago to 7 days ahead. */
export const DEFAULT_WINDOW = Object.freeze({ pastMs: 86_400_000, aheadMs: 7 * 86_400_000 });

/** Query of GET /occurrences (validated). */
export type OccurrenceQuery = PageQuery & { status?: OccurrenceStatus; from?: string; to?: string };

/** What the call operations need. */
export interface CallServiceDeps {
  db: Db;
  clock: Clock;
  runtime: Runtime;
}

/** The call, occurrence and test call operations. */
export interface CallService {
  list(
    accountId: string,
    query: PageQuery,
  ): Promise<{ items: AttemptOut[]; next_cursor: string | null }>;
  /** `accountId` null: an anonymous caller (demo calls only). */
  get(callId: string, accountId: string | null): Promise<AttemptOut>;
  /** `known`: the caller's account as this request's credential check read it. */
  listOccurrences(
    accountId: string,
    query: OccurrenceQuery,
    known?: Account,
  ): Promise<{ items: OccurrenceOut[]; next_cursor: string | null }>;
  getOccurrence(accountId: string, id: string): Promise<OccurrenceDetailOut>;
  cancelOccurrence(accountId: string, id: string): Promise<OccurrenceDetailOut>;
  testCallPhoneNumber(accountId: string, phoneNumberId: string): Promise<TestCallResult>;
  testCallSchedule(accountId: string, scheduleId: string): Promise<TestCallResult>;
}

/** Creates the call service. */
export function createCallService(deps: CallServiceDeps): CallService {
  const { db, clock, runtime } = deps;

  const account = async (id: string): Promise<Account> => {
    const a = await findAccountById(db, id);
    if (!a) throw problem('unauthenticated', { detail: 'The account no longer exists.' });
    return a;
  };
  const context = async (accountId: string, known?: Account): Promise<OccurrenceContext> => ({
    homeTimezone: (known ?? (await findAccountById(db, accountId)))?.homeTimezone ?? null,
    now: clock.now(),
  });
  const owned = async (accountId: string, id: string): Promise<OccurrenceView> => {
    const v = await getOccurrenceView(db, accountId, id);
    if (!v) throw problem('not_found', { detail: 'No occurrence with that id.' });
    return v;
  };

  return {
    async list(accountId, query) {
      const page = pageRequest(query);
      const after = cursorKey<[number, number]>(page.after, ['number', 'number']);
      const rows = await listCallRows(db, accountId, {
        after: after && { createdAt: after[0], seq: after[1] },
        limit: page.limit + 1,
      });
      return pageResponse(
        rows,
        page.limit,
        (r) => [r.attempt.createdAt, r.seq],
        (r) => attemptOut(r.attempt),
      );
    },

    async get(callId, accountId) {
      const a = await getAttemptById(db, callId);
      if (a?.kind === 'demo') return attemptOut(a);
      if (accountId === null) {
        throw problem('unauthenticated', {
          detail:
            'Sign in (or send an API key) to read this call; only demo calls can be read without credentials.',
        });
      }
      if (!a || a.accountId !== accountId)
        throw problem('not_found', { detail: 'No call with that id.' });
      return attemptOut(a);
    },

    async listOccurrences(accountId, query, known) {
      const page = pageRequest(query);
      const after = cursorKey<[number, string]>(page.after, ['number', 'string']);
      const ctx = await context(accountId, known);
      // The schema checked the format; Date.parse reads any offset (Z or +HH:MM).
      let from = query.from === undefined ? null : Date.parse(query.from);
      let to = query.to === undefined ? null : Date.parse(query.to);
      if (from === null && to === null) {
        from = ctx.now - DEFAULT_WINDOW.pastMs;
        to = ctx.now + DEFAULT_WINDOW.aheadMs;
      }
      const rows = await listOccurrenceViews(db, accountId, {
        status: query.status ?? null,
        from,
        to,
        after: after && { scheduledAt: after[0], id: after[1] },
        limit: page.limit + 1,
      });
      return pageResponse(
        rows,
        page.limit,
        (v) => [v.record.scheduledAt, v.record.id],
        (v) => occurrenceOut(v, ctx),
      );
    },

    async getOccurrence(accountId, id) {
      const v = await owned(accountId, id);
      return occurrenceDetailOut(
        v,
        await listOccurrenceAttempts(db, accountId, v.record.id),
        await toldOfOccurrence(db, accountId, v.record.id),
        await context(accountId),
      );
    },

    async cancelOccurrence(accountId, id) {
      const v = await owned(accountId, id);
      await runtime.cancel(v.record.id).catch((err: unknown) => {
        if (!EngineError.is(err)) throw err;
        if (err.code === 'occurrence_terminal') {
          throw problem('occurrence_terminal', {
            detail: `This call already finished (${v.record.status}); there is nothing to cancel.`,
          });
        }
        throw problem('not_found', { detail: 'No occurrence with that id.' });
      });
      const after = await owned(accountId, v.record.id);
      return occurrenceDetailOut(
        after,
        await listOccurrenceAttempts(db, accountId, after.record.id),
        await toldOfOccurrence(db, accountId, after.record.id),
        await context(accountId),
      );
    },

    async testCallPhoneNumber(accountId, phoneNumberId) {
      const phone = await getPhoneNumber(db, accountId, phoneNumberId);
      if (!phone) throw problem('not_found', { detail: 'No phone number with that id.' });
      const a = await account(accountId);
      return placeTestCall(deps, accountId, phone, {
        script: { kind: 'test', greetingName: a.greetingName, voice: a.voice },
      });
    },

    async testCallSchedule(accountId, scheduleId) {
      const s = await getSchedule(db, accountId, scheduleId);
      if (!s) throw problem('not_found', { detail: 'No schedule with that id.' });
      const phone =
        s.phoneNumberId === null ? undefined : await getPhoneNumber(db, accountId, s.phoneNumberId);
      if (!phone) {
        throw invalid({
          field: 'schedule_id',
          in: 'path',
          code: 'invalid',
          message:
            'names a schedule whose phone number was deleted; give it a number with PATCH first',
        });
      }
      const a = await account(accountId);
      return placeTestCall(deps, accountId, phone, {
        // What the wake-up call says, without the snooze offer (a test call knows keys 1 and 9).
        script: {
          kind: 'wake_up',
          greetingName: s.greetingName ?? a.greetingName,
          message: s.message,
          snoozeAllowed: false,
          voice: a.voice,
        },
        ringTimeoutSeconds: policyInEffect(s, a).ring_timeout_seconds,
      });
    },
  };
}
