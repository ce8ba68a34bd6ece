/**
 * Subscribing on the web: the offer GET /me shows (when payments are set up and the account has
 * no plan), the one-time links that carry an app user to the site (POST /billing/web-checkout;
 * only the token's hash is stored; a link is used once and lasts ten minutes), and the web
 * session the site's pages sign in with.
 * @module
 */
import { createHash } from 'node:crypto';
import { randomBase62, startWebSession, webSessionAccountId } from '../auth/index.js';
import { findAccountById } from '../db/accounts.js';
import {
  findWebCheckoutLink,
  insertWebCheckoutLink,
  useWebCheckoutLink,
} from '../db/web-checkout-links.js';
import { currentPlan } from '../entitlement/usage.js';
import { invalid, problem } from '../errors.js';
import type { MeBilling } from '../generated/openapi.js';
import { isoInstant } from '../instant.js';
import type { BillingContext } from './context.js';
import { displayPrice, type CatalogPlan } from './plans.js';
import type { BillingService } from './contract.js';

/** How long a web checkout link lasts. */
export const WEB_CHECKOUT_LINK_MS = 10 * 60_000;
/** Plans the web checkout sells (schema WebCheckoutIn). */
export const WEB_CHECKOUT_PLANS = ['traveler_monthly', 'traveler_yearly'] as const;

/** The offer, the links and the web session. */
export type WebCheckoutJobs = Pick<
  BillingService,
  | 'meBilling'
  | 'createWebCheckoutLink'
  | 'openWebCheckoutLink'
  | 'continueWebCheckout'
  | 'webSessionAccount'
  | 'startWebSession'
>;

/** sha256 of a link token (only the hash is stored). */
function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Creates them. */
export function createWebCheckoutJobs(ctx: BillingContext): WebCheckoutJobs {
  const { db, clock, config, provider } = ctx.deps;
  const webCheckoutOffered = () => provider !== null && config.webCheckout;
  // GET /me's web checkout plans: the catalogue is configuration, so they are formatted once.
  let offeredPlans: MeBilling['web_checkout_plans'] | undefined;
  const webPlans = () =>
    WEB_CHECKOUT_PLANS.map((c) => ctx.findPlan(c)).filter(
      (p): p is CatalogPlan => p !== undefined && p.purchasable,
    );

  const openWebCheckoutLink: WebCheckoutJobs['openWebCheckoutLink'] = async (token) => {
    const link = /^[A-Za-z0-9]{43}$/.test(token)
      ? await findWebCheckoutLink(db, hashLinkToken(token))
      : undefined;
    const a = link && (await findAccountById(db, link.accountId));
    const plan = link && ctx.findPlan(link.planCode);
    if (!link || !a || !plan) return { ok: false, reason: 'unknown' };
    if (link.usedAt !== null) return { ok: false, reason: 'used' };
    if (link.expiresAt <= clock.now()) return { ok: false, reason: 'expired' };
    return { ok: true, account: a, plan, expiresAt: link.expiresAt };
  };

  return {
    async webSessionAccount(cookie) {
      const now = clock.now();
      const accountId = await webSessionAccountId(db, cookie, now);
      const account = accountId ? await findAccountById(db, accountId) : undefined;
      return account ? { account, plan: await currentPlan(db, account, now) } : null;
    },

    async startWebSession(accountId) {
      return await startWebSession(db, ctx.deps.ids, accountId, clock.now());
    },

    async meBilling(a, now, known) {
      if (!provider) return null;
      // `known`: whether it has a live subscription, when the caller read that already (GET /me).
      const offered = webCheckoutOffered() && !(known ?? (await ctx.hasPlan(a.id, now)));
      return {
        web_checkout_link: offered,
        web_checkout_plans: offered
          ? (offeredPlans ??= webPlans().map((p) => ({
              code: p.code,
              currency: p.currency,
              display_price: displayPrice(p.price_cents, p.currency),
              interval: p.interval,
              name: p.name,
              price_cents: p.price_cents,
            })))
          : [],
      };
    },

    async createWebCheckoutLink(accountId, planCode) {
      const now = clock.now();
      if (!webCheckoutOffered()) {
        throw problem('web_checkout_disabled', {
          detail: 'Subscribing on the web is not offered by this server.',
        });
      }
      if (await ctx.hasPlan(accountId, now))
        throw problem('already_subscribed', { detail: 'This account already has a plan.' });
      const plan = webPlans().find((p) => p.code === planCode);
      if (!plan)
        throw invalid({
          field: 'plan',
          in: 'body',
          code: 'enum',
          message: `${planCode} is not sold on the web`,
        });
      const token = randomBase62(43);
      const expiresAt = now + WEB_CHECKOUT_LINK_MS;
      await insertWebCheckoutLink(
        db,
        hashLinkToken(token),
        { accountId, planCode: plan.code, expiresAt },
        now,
      );
      return {
        url: `${ctx.deps.siteUrl()}/app/subscribe/${token}`,
        expires_at: isoInstant(expiresAt),
      };
    },

    openWebCheckoutLink,

    async continueWebCheckout(token) {
      const state = await openWebCheckoutLink(token);
      if (!state.ok) return state;
      if (!(await useWebCheckoutLink(db, hashLinkToken(token), clock.now())))
        return { ok: false, reason: 'used' };
      const site = ctx.deps.siteUrl();
      if (await ctx.hasPlan(state.account.id, clock.now()))
        return { ok: true, account: state.account, url: `${site}/app/subscribe/done` };
      const url = await ctx.startCheckout(
        state.account.id,
        state.plan,
        `${site}/app/subscribe/done`,
        `${site}/app/subscribe/canceled`,
      );
      return { ok: true, account: state.account, url };
    },
  };
}
