/**
 * Billing's purchases in the app: the catalogue (GET /billing/plans), checkout (POST
 * /billing/checkout), the portal (POST /billing/portal) and the provider's notifications
 * (POST /webhooks/payments). Packs are not subscriptions: they can be bought with or without
 * one; a subscription plan is refused (409 already_subscribed) while the account has a plan.
 * @module
 */
import { findCustomerId } from '../db/subscriptions.js';
import { problem } from '../errors.js';
import type { BillingContext } from './context.js';
import { handleNotification } from './notifications.js';
import { isSubscriptionPlan, sortPlans } from './plans.js';
import type { BillingService } from './contract.js';

/** The catalogue, checkout, portal and notifications. */
export type CheckoutJobs = Pick<BillingService, 'listPlans' | 'checkout' | 'portal' | 'notify'>;

/** Creates them. */
export function createCheckoutJobs(ctx: BillingContext): CheckoutJobs {
  const { db, clock, logger, config, provider } = ctx.deps;
  const priceToPlan = Object.fromEntries(
    Object.entries(config.stripe?.prices ?? {}).map(([plan, price]) => [price, plan]),
  );

  return {
    listPlans: () => sortPlans(config.plans),

    async checkout(accountId, planCode) {
      const plan = ctx.purchasable(planCode);
      if (isSubscriptionPlan(plan) && (await ctx.hasPlan(accountId, clock.now()))) {
        throw problem('already_subscribed', {
          detail:
            'This account already has a plan; change it in the portal (POST /billing/portal).',
        });
      }
      const site = ctx.deps.siteUrl();
      return {
        url: await ctx.startCheckout(
          accountId,
          plan,
          `${site}/app/subscribe/done`,
          `${site}/app/subscribe/canceled`,
        ),
      };
    },

    async portal(accountId) {
      const p = ctx.requireProvider();
      const customerId = await findCustomerId(db, accountId, p.name);
      if (!customerId) {
        throw problem('validation_error', {
          detail:
            'This account has no billing customer yet: buy a plan first (POST /billing/checkout).',
          errors: [
            {
              field: '',
              in: 'body',
              code: 'invalid',
              message: 'no billing customer for this account yet',
            },
          ],
        });
      }
      try {
        return await p.createPortal({
          accountId,
          customerId,
          returnUrl: `${ctx.deps.siteUrl()}/app/subscribe/done`,
        });
      } catch (err) {
        throw ctx.unavailable(err);
      }
    },

    async notify(rawBody, signature) {
      return await handleNotification(
        {
          db,
          clock,
          logger,
          plans: config.plans,
          webhookSecret: config.webhookSecret,
          provider: provider?.name ?? 'none',
          priceToPlan,
        },
        rawBody,
        signature,
      );
    },
  };
}
