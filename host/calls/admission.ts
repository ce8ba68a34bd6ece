/**
 * The account rules that decide whether a call may be placed now, shared by the engine's
 * Accounts port (asked just before each attempt's intent is stored, inside its unit of work)
 * and by the HTTP checks that answer before anything is stored.
 *
 * In order, a call is refused when:
 * 1. `calls_revoked`: the account's calls are off (key 9; POST /me/resume-calls turns them on),
 *    or the account is gone;
 * 2. `number_blocked`: the line is blocked (STOP, complaint, manual block, key 9);
 * 3. `no_entitlement`: the call would count as a new wake-up call (a first attempt, a test
 *    call, or any attempt of an occurrence none of whose attempts was placed yet) and nothing
 *    pays for it: not the subscription's calls of the period (a Tier B call uses the plan's
 *    multiplier), not the trial's, not pack credits (host/usage/usage.ts). A call paid with
 *    credits takes them here, in the same unit of work as the attempt (a refused or failed
 *    call does not give them back). Retries and snoozes of a counted call are free;
 * 4. `daily_cap_reached`: the account placed `dailyCap` calls (every attempt and test call)
 *    in the current UTC day.
 * Demo calls (no account) are refused only for a blocked number; their own limits live with
 * the demo.
 * @module
 */
import type { Database } from 'better-sqlite3';
import type { AttemptKind, CallToAdmit, EpochMs, RefusalReason } from '../../engine/index.js';
import { findAccountById, type Account } from '../db/accounts.js';
import { occurrenceCounted } from '../db/account-calls.js';
import { isBlocked } from '../db/phone-numbers.js';
import { planOf } from '../account/plan.js';
import { spendCredits } from '../db/credits.js';
import { callWeight } from '../billing/tier.js';
import { problem, type AppError } from '../errors.js';
import { callsPlacedToday, secondsToUtcMidnight, usageState } from '../usage/usage.js';

/** A call admitted earlier in the same unit of work, not yet visible in the tables. */
export interface LedgerEntry {
  accountId: string;
  kind: AttemptKind;
  occurrenceId: string | null;
  /** It counted as a new wake-up call of usage. */
  isNew: boolean;
  /** Included calls it used (the Tier B multiplier, or 1); 0 when paid with credits or not new. */
  weight?: number;
}

/**
 * The answer of {@link admitCall}; `isNew` says whether the call counts as a new wake-up call,
 * `weight` how many of the period's included calls it used.
 */
export type Admission = { ok: true; isNew: boolean; weight: number } | { ok: false; reason: RefusalReason };

const WAKE_UP_KINDS = new Set<AttemptKind>(['first', 'retry', 'snooze']);

/**
 * Decides on one call. `ledger` lists calls admitted earlier in the same unit of work (their
 * rows are written only at its commit), so two calls due together cannot both take the last
 * trial call or the last call of the day.
 */
export function admitCall(db: Database, dailyCap: number, call: CallToAdmit, ledger: readonly LedgerEntry[] = []): Admission {
  if (call.accountId === null) {
    return isBlocked(db, call.to) ? { ok: false, reason: 'number_blocked' } : { ok: true, isNew: false, weight: 0 };
  }
  const account = findAccountById(db, call.accountId);
  if (!account || account.callsRevokedAt !== null) return { ok: false, reason: 'calls_revoked' };
  if (isBlocked(db, call.to)) return { ok: false, reason: 'number_blocked' };
  const mine = ledger.filter((e) => e.accountId === call.accountId);
  const isNew = countsAsNewCall(db, call, mine);
  let weight = 0;
  let credits = 0;
  if (isNew) {
    const state = usageState(db, account, call.at);
    const pending = mine.reduce((n, e) => n + (e.weight ?? (e.isNew ? 1 : 0)), 0);
    const needed = state.basis === 'subscription' ? callWeight(call.to, state.tierBMultiplier) : 1;
    if (state.included - state.used - pending >= needed) {
      weight = needed;
    } else {
      credits = callWeight(call.to, state.creditPack?.tierBMultiplier ?? 1);
      if (state.credits < credits) return { ok: false, reason: 'no_entitlement' };
    }
  }
  if (callsPlacedToday(db, call.accountId, call.at) + mine.length >= dailyCap) return { ok: false, reason: 'daily_cap_reached' };
  if (credits > 0) spendCredits(db, account.id, credits, call.occurrenceId, call.at);
  return { ok: true, isNew, weight };
}

/** Whether placing `call` makes a new wake-up call of usage. */
function countsAsNewCall(db: Database, call: CallToAdmit, mine: readonly LedgerEntry[]): boolean {
  if (call.kind === 'test') return true;
  if (!WAKE_UP_KINDS.has(call.kind) || call.occurrenceId === null) return false;
  if (mine.some((e) => e.occurrenceId === call.occurrenceId)) return false;
  return !occurrenceCounted(db, call.occurrenceId);
}

/** The API error for a refusal (429 daily_cap_reached carries Retry-After to midnight UTC). */
export function refusalProblem(reason: RefusalReason, now: EpochMs): AppError {
  switch (reason) {
    case 'calls_revoked':
      return problem('calls_revoked', {
        detail:
          'Calls are turned off for this account (key 9 was pressed). Turn them back on with POST /me/resume-calls and consent true, in the app or on the web.',
      });
    case 'number_blocked':
      return problem('number_blocked', { detail: 'Calls and texts to this number are blocked.' });
    case 'no_entitlement':
      return problem('no_entitlement', {
        detail: 'No wake-up calls are left on the trial, the plan or pack credits; the call would not be placed. See GET /billing/plans.',
      });
    case 'daily_cap_reached': {
      const seconds = secondsToUtcMidnight(now);
      return problem('daily_cap_reached', {
        detail: `This account placed its limit of calls for today (UTC); it resets at midnight UTC, in ${seconds} seconds.`,
        headers: { 'Retry-After': String(seconds) },
      });
    }
  }
}

/**
 * The checks made before storing something that will call (an enabled schedule, a test
 * call): 403 calls_revoked when calls are off, 402 no_entitlement when Plan.entitled is false.
 */
export function assertMayStartCalls(db: Database, account: Account, now: EpochMs): void {
  if (account.callsRevokedAt !== null) throw refusalProblem('calls_revoked', now);
  if (!planOf(usageState(db, account, now)).entitled) throw refusalProblem('no_entitlement', now);
}
