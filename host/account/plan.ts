/**
 * The account's plan as GET /me shows it. Until billing records subscriptions, the only plan
 * is the trial: 7 days and 5 calls from the first sign-in (test calls count); after it the
 * status is `none` and `entitled` false.
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import type { Account } from '../db/accounts.js';

import type { Plan } from '../generated/openapi.js';

/** Schema `Plan`. */
export type PlanOut = Plan;

/** Trial calls left (never negative). */
export function trialCallsLeft(account: Account, callsUsed: number): number {
  return Math.max(0, account.trialCallsIncluded - callsUsed);
}

/** Whether the trial still runs at `now` with `callsUsed` calls counted. */
export function inTrial(account: Account, callsUsed: number, now: EpochMs): boolean {
  return now < account.trialEndsAt && trialCallsLeft(account, callsUsed) > 0;
}

/** The plan at `now`. */
export function planOf(account: Account, callsUsed: number, now: EpochMs): PlanOut {
  if (inTrial(account, callsUsed, now)) {
    return { code: 'trial', entitled: true, name: 'Free trial', source: null, status: 'trialing' };
  }
  return { code: null, entitled: false, name: null, source: null, status: 'none' };
}
