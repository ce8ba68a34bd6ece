/**
 * Usage and entitlement: the trial of the contract (§4: from the first sign-in, 7 days,
 * 5 wake-up calls, test calls included), `Plan.entitled`, GET /me/usage and the daily cap
 * (calls placed per account per UTC day, config WAKEUP_DAILY_CAP).
 *
 * There are no paid plans yet, so the only period is the trial: UsageOut's period is the
 * trial's window, calls_included the trial's calls. What counts is defined in
 * `host/db/account-calls.ts`.
 * @module
 */
import type { Database } from 'better-sqlite3';
import type { EpochMs } from '../../engine/index.js';
import type { Account } from '../db/accounts.js';
import { countCallsPlaced, countCallsUsed } from '../db/account-calls.js';
import { planOf, trialCallsLeft } from '../account/plan.js';
import type { Plan, UsageOut } from '../generated/openapi.js';
import { isoInstant } from '../instant.js';

const DAY_MS = 86_400_000;

/** Share of the period's included calls at or under which `near_limit` is true. */
export const NEAR_LIMIT_SHARE = 0.2;

/** Wake-up calls the account used in its trial window. */
export function trialCallsUsed(db: Database, account: Account): number {
  return countCallsUsed(db, account.id, account.trialStartedAt, account.trialEndsAt);
}

/** The account's plan now (schema Plan): trialing while trial days and calls remain, else none. */
export function currentPlan(db: Database, account: Account, now: EpochMs): Plan {
  return planOf(account, trialCallsUsed(db, account), now);
}

/** Start (inclusive) and end (exclusive) of the UTC day holding `at`. */
export function utcDay(at: EpochMs): { start: EpochMs; end: EpochMs } {
  const start = Math.floor(at / DAY_MS) * DAY_MS;
  return { start, end: start + DAY_MS };
}

/** Whole seconds from `now` to the next midnight UTC (at least 1): the daily cap's Retry-After. */
export function secondsToUtcMidnight(now: EpochMs): number {
  return Math.max(1, Math.ceil((utcDay(now).end - now) / 1000));
}

/** Phone calls the account placed in the UTC day holding `now`. */
export function callsPlacedToday(db: Database, accountId: string, now: EpochMs): number {
  const day = utcDay(now);
  return countCallsPlaced(db, accountId, day.start, day.end);
}

/** GET /me/usage. */
export function usageOut(db: Database, account: Account, now: EpochMs): UsageOut {
  const used = trialCallsUsed(db, account);
  const left = trialCallsLeft(account, used);
  const plan = planOf(account, used, now);
  const included = account.trialCallsIncluded;
  return {
    calls_included: included,
    calls_used: used,
    credits_remaining: 0,
    near_limit: left <= Math.floor(included * NEAR_LIMIT_SHARE) || !plan.entitled,
    period_start: isoInstant(account.trialStartedAt),
    period_end: isoInstant(account.trialEndsAt),
    plan,
    // Calls left reads 0 once the trial's days are over, whatever calls were not used.
    trial: { calls_left: now < account.trialEndsAt ? left : 0, ends_at: isoInstant(account.trialEndsAt) },
    trial_calls_included: included,
    trial_calls_used: used,
    trial_started_at: isoInstant(account.trialStartedAt),
    trial_ends_at: isoInstant(account.trialEndsAt),
  };
}
