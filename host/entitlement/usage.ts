/**
 * Usage: what the account's calls are paid by now, `Plan.entitled` and GET /me/usage (the
 * daily cap is `daily-cap.ts`, the plan `plan.ts`, the decision on one call `admission.ts`).
 *
 * What pays for a new wake-up call, in order (see {@link usageState}):
 * 1. a live subscription (host/db/subscriptions.ts): its included calls of the current billing
 *    period; a call to a Tier B number uses `tier_b_multiplier` of them;
 * 2. without one, the trial of the contract (§4: from the first sign-in, 7 days, 5 wake-up
 *    calls, test calls included; every call counts as one);
 * 3. pack credits (host/db/credits.ts), taken when the calls above are used up.
 *
 * The period (period_start, period_end) is the subscription's billing period: periods start
 * at the subscription's anchor and follow each other by its interval (calendar months or
 * years, UTC; a day missing in a shorter month clamps to its last day). Without a live
 * subscription the period is the trial's window. What counts as a call is defined in
 * `host/db/account-calls.ts`.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { EpochMs } from '../../engine/index.js';
import type { Account, AccountTerms } from '../db/accounts.js';
import { countTrialCallsUsed, listCallsUsedIn } from '../db/account-calls.js';
import { creditsOf } from '../db/credits.js';
import { findSubscriptions, type Subscription } from '../db/subscriptions.js';
import { planOf, trialCallsLeft } from './plan.js';
import { callWeight } from './tier.js';
import type { Plan, UsageOut } from '../generated/openapi.js';
import { isoInstant } from '../instant.js';
import type { UsageState } from './state.js';

/** Share of the period's included calls at or under which `near_limit` is true. */
export const NEAR_LIMIT_SHARE = 0.2;

export type { UsageState } from './state.js';

/** Whether the subscription still runs at `now`. */
export function isLive(sub: Subscription, now: EpochMs): boolean {
  return sub.status !== 'expired' && (sub.endsAt === null || now < sub.endsAt);
}

/** `at` plus `months` calendar months (UTC), the day clamped to the target month's length. */
export function addMonths(at: EpochMs, months: number): EpochMs {
  const d = new Date(at);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  return Date.UTC(
    target.getUTCFullYear(),
    target.getUTCMonth(),
    Math.min(d.getUTCDate(), lastDay),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  );
}

/** The billing period holding `now` for a subscription anchored at `anchor`. */
export function periodAt(
  anchor: EpochMs,
  interval: Subscription['interval'],
  now: EpochMs,
): { start: EpochMs; end: EpochMs } {
  if (interval === 'none') return { start: anchor, end: Number.MAX_SAFE_INTEGER };
  const step = interval === 'year' ? 12 : 1;
  if (now < anchor) return { start: anchor, end: addMonths(anchor, step) };
  const a = new Date(anchor);
  const n = new Date(now);
  let k = Math.max(
    0,
    Math.floor(
      ((n.getUTCFullYear() - a.getUTCFullYear()) * 12 + n.getUTCMonth() - a.getUTCMonth()) / step,
    ) - 1,
  );
  while (addMonths(anchor, (k + 1) * step) <= now) k++;
  return { start: addMonths(anchor, k * step), end: addMonths(anchor, (k + 1) * step) };
}

/** What pays for the account's calls at `now`. */
export async function usageState(
  db: Db,
  account: Account,
  now: EpochMs,
  trialUsed?: number,
): Promise<UsageState> {
  return (
    await usageStates(
      db,
      [account],
      now,
      trialUsed === undefined ? undefined : new Map([[account.id, trialUsed]]),
    )
  ).get(account.id)!;
}

/**
 * {@link usageState} of several accounts at one instant, by account id: each fact in one
 * statement for all of them (admission reads a dispatch batch's accounts so), the weighted
 * calls of the live subscriptions' periods too (one window per account, one statement).
 */
export async function usageStates(
  db: Db,
  accounts: readonly AccountTerms[],
  now: EpochMs,
  knownTrialUsed?: Map<string, number>,
): Promise<Map<string, UsageState>> {
  const ids = accounts.map((a) => a.id);
  // Independent reads: one round trip's wait on PostgreSQL instead of three.
  const [subscriptions, trialUsed, credits] = await Promise.all([
    findSubscriptions(db, ids),
    knownTrialUsed ?? countTrialCallsUsed(db, accounts),
    creditsOf(db, ids),
  ]);
  // The live subscriptions' periods, and the calls used in each (one read for all of them).
  const periods = new Map<string, { live: Subscription; start: EpochMs; end: EpochMs }>();
  for (const stored of subscriptions.values()) {
    if (!isLive(stored, now)) continue;
    const period = periodAt(stored.periodAnchor, stored.interval, now);
    periods.set(stored.accountId, { live: stored, ...period });
  }
  const usedInPeriod =
    periods.size === 0
      ? new Map<string, string[]>()
      : await listCallsUsedIn(
          db,
          [...periods].map(([accountId, p]) => ({ accountId, from: p.start, to: p.end })),
        );
  const out = new Map<string, UsageState>();
  for (const account of accounts) {
    const stored = subscriptions.get(account.id) ?? null;
    const paid = periods.get(account.id);
    const credit = credits.get(account.id)!;
    const grant = credit.grant;
    const creditPack = grant
      ? { code: grant.planCode, name: grant.planName, tierBMultiplier: grant.tierBMultiplier }
      : null;
    const used = trialUsed.get(account.id) ?? 0;
    if (paid) {
      const { live } = paid;
      let weighted = 0;
      for (const to of usedInPeriod.get(account.id) ?? [])
        weighted += callWeight(to, live.tierBMultiplier);
      out.set(account.id, {
        lapsed: null,
        trialUsed: used,
        credits: credit.remaining,
        creditPack,
        basis: 'subscription',
        subscription: live,
        period: { start: paid.start, end: paid.end },
        included: live.includedCalls,
        used: weighted,
        tierBMultiplier: live.tierBMultiplier,
      });
      continue;
    }
    const trialRuns = now < account.trialEndsAt && trialCallsLeft(account, used) > 0;
    out.set(account.id, {
      lapsed: stored,
      trialUsed: used,
      credits: credit.remaining,
      creditPack,
      basis: trialRuns ? 'trial' : 'none',
      subscription: null,
      period: { start: account.trialStartedAt, end: account.trialEndsAt },
      included: trialRuns ? account.trialCallsIncluded : 0,
      used: trialRuns ? used : 0,
      tierBMultiplier: 1,
    });
  }
  return out;
}

/** The account's plan now (schema Plan). */
export async function currentPlan(db: Db, account: Account, now: EpochMs): Promise<Plan> {
  return planOf(await usageState(db, account, now));
}

/** GET /me/usage. */
export async function usageOut(db: Db, account: Account, now: EpochMs): Promise<UsageOut> {
  const state = await usageState(db, account, now);
  const plan = planOf(state);
  const trialLeft = trialCallsLeft(account, state.trialUsed);
  const left = Math.max(0, state.included - state.used);
  const nearLimit =
    state.basis === 'none'
      ? !plan.entitled
      : left + state.credits <= Math.floor(state.included * NEAR_LIMIT_SHARE);
  return {
    calls_included: state.basis === 'none' ? account.trialCallsIncluded : state.included,
    calls_used: state.basis === 'none' ? state.trialUsed : state.used,
    credits_remaining: state.credits,
    near_limit: nearLimit || !plan.entitled,
    period_start: isoInstant(state.period.start),
    period_end: isoInstant(state.period.end),
    plan,
    // Calls left reads 0 once the trial's days are over, whatever calls were not used.
    trial: {
      calls_left: now < account.trialEndsAt ? trialLeft : 0,
      ends_at: isoInstant(account.trialEndsAt),
    },
    trial_calls_included: account.trialCallsIncluded,
    trial_calls_used: state.trialUsed,
    trial_started_at: isoInstant(account.trialStartedAt),
    trial_ends_at: isoInstant(account.trialEndsAt),
  };
}
