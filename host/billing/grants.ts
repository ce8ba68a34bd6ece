/**
 * The operator's plan commands (`wakeup-admin plan`, host/billing/admin.ts): grant a plan
 * (source manual) or a pack's credits, revoke a manual plan, show an account's plan.
 * @module
 */
import { findAccountByEmail } from '../db/accounts.js';
import { grantCredits } from '../db/credits.js';
import { expireSubscription, findSubscription, saveSubscription } from '../db/subscriptions.js';
import { currentPlan, isLive } from '../entitlement/usage.js';
import type { BillingContext } from './context.js';
import { isSubscriptionPlan } from './plans.js';
import type { BillingService } from './contract.js';

/** Grant, revoke, show. */
export type GrantJobs = Pick<BillingService, 'grant' | 'revoke' | 'show'>;

/** Creates them. */
export function createGrantJobs(ctx: BillingContext): GrantJobs {
  const { db, config, ids } = ctx.deps;
  const byEmail = (email: string) => findAccountByEmail(db, email.trim().toLowerCase());

  return {
    async grant(email, planCode, now) {
      const a = await byEmail(email);
      if (!a) return `no account with email ${email}`;
      const plan = ctx.findPlan(planCode);
      if (!plan || plan.code === 'trial')
        return `${planCode}: not a plan (one of ${config.plans.map((p) => p.code).join(', ')})`;
      if (!isSubscriptionPlan(plan)) {
        await grantCredits(
          db,
          {
            accountId: a.id,
            calls: plan.included_calls_per_period,
            planCode: plan.code,
            planName: plan.name,
            tierBMultiplier: plan.tier_b_multiplier,
            ref: `manual:${ids.uuid()}`,
          },
          now,
        );
        return `granted ${plan.included_calls_per_period} credits (${plan.code}) to ${a.email}`;
      }
      await saveSubscription(
        db,
        {
          accountId: a.id,
          planCode: plan.code,
          planName: plan.name,
          interval: plan.interval,
          includedCalls: plan.included_calls_per_period,
          tierBMultiplier: plan.tier_b_multiplier,
          source: 'manual',
          status: 'active',
          periodAnchor: now,
          endsAt: null,
          providerSubscriptionId: null,
        },
        now,
      );
      return `granted ${plan.code} (source manual) to ${a.email}`;
    },

    async revoke(email, now) {
      const a = await byEmail(email);
      if (!a) return `no account with email ${email}`;
      const sub = await findSubscription(db, a.id);
      if (!sub || !isLive(sub, now)) return `${a.email} has no live plan`;
      if (sub.source !== 'manual')
        return `${a.email}'s plan is billed by ${sub.source}; cancel it there`;
      await expireSubscription(db, a.id, now);
      return null;
    },

    async show(email, now) {
      const a = await byEmail(email);
      return a ? await currentPlan(db, a, now) : `no account with email ${email}`;
    },
  };
}
