/**
 * The account's plan as GET /me and GET /me/usage show it (schema `Plan`), from the usage
 * state of `usage.ts`. In order:
 *
 * 1. a live subscription (paid at the provider, in an app store, or granted by an operator):
 *    its code, name and source; status `active`, `past_due` (a renewal failed, the provider
 *    retries; still entitled) or `canceled` (ends at the end of the period; entitled until
 *    then). Entitled while the period's included calls or pack credits remain;
 * 2. the trial (7 days, 5 calls from the first sign-in), while it has days and calls left:
 *    code `trial`, status `trialing`;
 * 3. pack credits alone: the latest pack's code and name, status `active`;
 * 4. a subscription that ended (canceled to its end, refunded, revoked): status `expired`,
 *    not entitled;
 * 5. nothing: status `none`, not entitled.
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import type { Account } from '../db/accounts.js';
import type { Plan } from '../generated/openapi.js';
import type { UsageState } from './state.js';

/** The trial: 7 days and 5 calls from the first sign-in (written on the account then: host/auth/sign-in.ts). */
export const TRIAL_DAYS = 7;
export const TRIAL_CALLS = 5;

/** Schema `Plan`. */
export type PlanOut = Plan;

/** Trial calls left (never negative). */
export function trialCallsLeft(
  account: Pick<Account, 'trialCallsIncluded'>,
  callsUsed: number,
): number {
  return Math.max(0, account.trialCallsIncluded - callsUsed);
}

/** Whether the trial still runs at `now` with `callsUsed` calls counted. */
export function inTrial(account: Account, callsUsed: number, now: EpochMs): boolean {
  return now < account.trialEndsAt && trialCallsLeft(account, callsUsed) > 0;
}

/** The plan for a usage state. */
export function planOf(state: UsageState): PlanOut {
  const entitled = state.included - state.used >= 1 || state.credits >= 1;
  const sub = state.subscription;
  if (sub) {
    const status = sub.status === 'expired' ? 'active' : sub.status;
    return { code: sub.planCode, entitled, name: sub.planName, source: sub.source, status };
  }
  if (state.basis === 'trial') {
    return { code: 'trial', entitled: true, name: 'Free trial', source: null, status: 'trialing' };
  }
  if (state.credits >= 1) {
    return {
      code: state.creditPack?.code ?? null,
      entitled: true,
      name: state.creditPack?.name ?? null,
      source: null,
      status: 'active',
    };
  }
  return {
    code: null,
    entitled: false,
    name: null,
    source: null,
    status: state.lapsed ? 'expired' : 'none',
  };
}
