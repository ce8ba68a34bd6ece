/**
 * In-app purchase sync (POST /billing/inapp/sync): the store's subscriber read from the in-app
 * provider and written as the account's subscription. The best live store subscription wins;
 * a live subscription billed elsewhere (web, manual) is left alone; a store subscription that
 * is no longer live is expired.
 * @module
 */
import { expireSubscription, findSubscription, saveSubscription } from '../db/subscriptions.js';
import { currentPlan, isLive } from '../entitlement/usage.js';
import { invalid, problem } from '../errors.js';
import type { Plan } from '../generated/openapi.js';
import type { BillingContext } from './context.js';
import { isSubscriptionPlan } from './plans.js';
import type { BillingService } from './contract.js';

function samePlan(a: Plan, b: Plan): boolean {
  return (
    a.code === b.code && a.status === b.status && a.source === b.source && a.entitled === b.entitled
  );
}

/** Creates `syncInapp`. */
export function createInappSync(ctx: BillingContext): BillingService['syncInapp'] {
  const { db, clock, config, inapp } = ctx.deps;
  return async function syncInapp(accountId, appUserId) {
    if (appUserId !== undefined && appUserId !== null && appUserId !== accountId) {
      throw invalid({
        field: 'app_user_id',
        in: 'body',
        code: 'invalid',
        message: 'must equal the account id (id of GET /me)',
      });
    }
    if (!inapp)
      throw problem('provider_unavailable', {
        detail: 'In-app purchases are not set up on this server.',
      });
    let found;
    try {
      found = await inapp.subscriber(accountId);
    } catch (err) {
      throw ctx.unavailable(err);
    }
    const now = clock.now();
    const before = await currentPlan(db, await ctx.account(accountId), now);
    await db.tx(async (tx) => {
      const current = await findSubscription(tx, accountId);
      const storeSub =
        current && (current.source === 'ios_store' || current.source === 'android_store')
          ? current
          : undefined;
      const best = found
        .map((s) => ({ ...s, plan: ctx.findPlan(config.inapp?.products[s.productId] ?? '') }))
        .filter((s) => s.plan !== undefined && isSubscriptionPlan(s.plan) && s.expiresAt > now)
        .sort((x, y) => y.expiresAt - x.expiresAt)[0];
      if (best?.plan) {
        // A live subscription billed elsewhere (web, manual) is left alone.
        if (current && isLive(current, now) && !storeSub) return;
        const same =
          storeSub && storeSub.planCode === best.plan.code && storeSub.status !== 'expired';
        await saveSubscription(
          tx,
          {
            accountId,
            planCode: best.plan.code,
            planName: same ? storeSub.planName : best.plan.name,
            interval: same ? storeSub.interval : best.plan.interval,
            includedCalls: same ? storeSub.includedCalls : best.plan.included_calls_per_period,
            tierBMultiplier: same ? storeSub.tierBMultiplier : best.plan.tier_b_multiplier,
            source: best.store,
            status: best.billingIssue ? 'past_due' : best.willRenew ? 'active' : 'canceled',
            periodAnchor: best.periodStart,
            endsAt: best.willRenew ? null : best.expiresAt,
            providerSubscriptionId: `${best.store}:${best.productId}`,
          },
          now,
        );
      } else if (storeSub && isLive(storeSub, now)) {
        await expireSubscription(tx, accountId, now);
      }
    });
    const plan = await currentPlan(db, await ctx.account(accountId), now);
    return { changed: !samePlan(before, plan), plan };
  };
}
