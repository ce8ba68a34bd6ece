/**
 * The billing service: plans, checkout, portal, the provider's notifications, the web
 * checkout offer and its one-time links, in-app purchase sync and operator grants.
 * Built by {@link createBillingService} from exactly what it needs; throws AppError.
 *
 * Rules (spec Billing 1-4, decided points in schema/openapi.yaml):
 * - "Has a plan" (409 already_subscribed) means a live subscription: active, past_due, or
 *   canceled before its end. The trial and pack credits are not a plan. Packs are not
 *   subscriptions: they can be bought with or without one.
 * - Payments not set up (WAKEUP_PAYMENTS=none) or the provider unreachable: 503
 *   provider_unavailable.
 * @module
 */
import { createHash } from 'node:crypto';
import type { Db } from '../db/sql.js';
import type { Clock, EpochMs, Ids } from '../../engine/index.js';
import type { Logger } from '../logger.js';
import type { Account } from '../db/accounts.js';
import { findAccountById, findAccountByEmail } from '../db/accounts.js';
import {
  expireSubscription,
  findCustomerId,
  findSubscription,
  saveCustomerId,
  saveSubscription,
} from '../db/subscriptions.js';
import {
  findWebCheckoutLink,
  insertWebCheckoutLink,
  useWebCheckoutLink,
} from '../db/web-checkout-links.js';
import { grantCredits } from '../db/credits.js';
import { invalid, problem } from '../errors.js';
import type { BillingPlan, InappSyncOut, MeBilling, Plan } from '../generated/openapi.js';
import { isoInstant } from '../instant.js';
import { randomBase62, startWebSession, webSessionAccountId } from '../auth/index.js';
import { currentPlan, isLive } from '../entitlement/usage.js';
import type { BillingConfig } from './config.js';
import { handleNotification, type NotificationReply } from './notifications.js';
import { displayPrice, isSubscriptionPlan, sortPlans, type CatalogPlan } from './plans.js';
import { ProviderError, type InappProvider, type PaymentProvider } from '../ports/payments.js';

/** How long a web checkout link lasts. */
export const WEB_CHECKOUT_LINK_MS = 10 * 60_000;
/** Plans the web checkout sells (schema WebCheckoutIn). */
export const WEB_CHECKOUT_PLANS = ['traveler_monthly', 'traveler_yearly'] as const;

/** What the service needs. */
export interface BillingDeps {
  db: Db;
  clock: Clock;
  ids: Ids;
  logger: Logger;
  config: BillingConfig;
  /** Public origin (links, return urls). */
  siteUrl: () => string;
  /** The payment provider (WAKEUP_PAYMENTS; built by the root: host/adapters/payments/), or null when none is set up. */
  provider: PaymentProvider | null;
  /** The in-app purchase provider (WAKEUP_INAPP_*), or null when none is set up. */
  inapp: InappProvider | null;
}

/** The state of a one-time link when opened. */
export type LinkState =
  | { ok: true; account: Account; plan: CatalogPlan; expiresAt: EpochMs }
  | { ok: false; reason: 'unknown' | 'used' | 'expired' };

/** The billing service. */
export type BillingService = ReturnType<typeof createBillingService>;

/** Creates the service. */
export function createBillingService(deps: BillingDeps) {
  const { db, clock, logger, config } = deps;
  const { provider, inapp } = deps;
  const priceToPlan = Object.fromEntries(
    Object.entries(config.stripe?.prices ?? {}).map(([plan, price]) => [price, plan]),
  );

  const findPlan = (code: string) => config.plans.find((p) => p.code === code);
  const purchasable = (code: string, field = 'plan'): CatalogPlan => {
    const plan = findPlan(code);
    if (!plan || !plan.purchasable) {
      throw invalid({
        field,
        in: 'body',
        code: 'enum',
        message: `${code} is not a purchasable plan (see GET /billing/plans)`,
      });
    }
    return plan;
  };
  const account = async (id: string): Promise<Account> => {
    const a = await findAccountById(db, id);
    if (!a) throw problem('unauthenticated', { detail: 'The account no longer exists.' });
    return a;
  };
  const hasPlan = async (accountId: string, now: EpochMs) => {
    const sub = await findSubscription(db, accountId);
    return sub !== undefined && isLive(sub, now);
  };
  const requireProvider = (): PaymentProvider => {
    if (!provider)
      throw problem('provider_unavailable', {
        detail: 'Payments are not set up on this server (WAKEUP_PAYMENTS=none).',
      });
    return provider;
  };
  const unavailable = (err: unknown) => {
    if (err instanceof ProviderError) {
      logger.warn({ err }, 'payment provider failed');
      return problem('provider_unavailable', {
        detail: 'The payment provider cannot be reached. Try again later.',
        headers: { 'Retry-After': '30' },
      });
    }
    return err;
  };
  async function customerOf(a: Account, p: PaymentProvider): Promise<string> {
    const known = await findCustomerId(db, a.id, p.name);
    if (known) return known;
    const id = await p.createCustomer({ id: a.id, email: a.email });
    await saveCustomerId(db, a.id, p.name, id, clock.now());
    return (await findCustomerId(db, a.id, p.name))!;
  }
  async function startCheckout(
    accountId: string,
    plan: CatalogPlan,
    successUrl: string,
    cancelUrl: string,
  ): Promise<string> {
    const p = requireProvider();
    const a = await account(accountId);
    try {
      const customerId = await customerOf(a, p);
      return (
        await p.createCheckout({
          accountId,
          email: a.email,
          customerId,
          plan,
          successUrl,
          cancelUrl,
        })
      ).url;
    } catch (err) {
      throw unavailable(err);
    }
  }
  const webCheckoutOffered = () => provider !== null && config.webCheckout;
  // GET /me's web checkout plans: the catalogue is configuration, so they are formatted once.
  let offeredPlans: MeBilling['web_checkout_plans'] | undefined;
  const webPlans = () =>
    WEB_CHECKOUT_PLANS.map((c) => findPlan(c)).filter(
      (p): p is CatalogPlan => p !== undefined && p.purchasable,
    );

  return {
    /** The account (and its plan now) of a browser's web session cookie, or null (the /app/subscribe/done page). */
    async webSessionAccount(
      cookie: string | undefined,
    ): Promise<{ account: Account; plan: Plan } | null> {
      const now = clock.now();
      const accountId = await webSessionAccountId(db, cookie, now);
      const account = accountId ? await findAccountById(db, accountId) : undefined;
      return account ? { account, plan: await currentPlan(db, account, now) } : null;
    },

    /** Signs a browser in to the account (web session) after it pressed "Continue as ..." on a checkout link. */
    async startWebSession(accountId: string): Promise<{ token: string; csrf: string }> {
      return await startWebSession(db, deps.ids, accountId, clock.now());
    },

    /** The account's subscription row, if any (the simulated portal page). */
    async subscription(accountId: string) {
      return await findSubscription(db, accountId);
    },

    /** GET /billing/plans: the catalogue, cheapest first. */
    listPlans(): BillingPlan[] {
      return sortPlans(config.plans);
    },

    /** POST /billing/checkout. */
    async checkout(accountId: string, planCode: string): Promise<{ url: string }> {
      const plan = purchasable(planCode);
      if (isSubscriptionPlan(plan) && (await hasPlan(accountId, clock.now()))) {
        throw problem('already_subscribed', {
          detail:
            'This account already has a plan; change it in the portal (POST /billing/portal).',
        });
      }
      const site = deps.siteUrl();
      return {
        url: await startCheckout(
          accountId,
          plan,
          `${site}/app/subscribe/done`,
          `${site}/app/subscribe/canceled`,
        ),
      };
    },

    /** POST /billing/portal. */
    async portal(accountId: string): Promise<{ url: string }> {
      const p = requireProvider();
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
          returnUrl: `${deps.siteUrl()}/app/subscribe/done`,
        });
      } catch (err) {
        throw unavailable(err);
      }
    },

    /** POST /webhooks/payments. */
    async notify(rawBody: string, signature: string | undefined): Promise<NotificationReply> {
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

    /** GET /me `billing`: null when payments are not set up. */
    async meBilling(a: Account, now: EpochMs, known?: boolean): Promise<MeBilling | null> {
      if (!provider) return null;
      // `known`: whether it has a live subscription, when the caller read that already (GET /me).
      const offered = webCheckoutOffered() && !(known ?? (await hasPlan(a.id, now)));
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

    /** POST /billing/web-checkout: a one-time link. */
    async createWebCheckoutLink(
      accountId: string,
      planCode: string,
    ): Promise<{ url: string; expires_at: string }> {
      const now = clock.now();
      if (!webCheckoutOffered()) {
        throw problem('web_checkout_disabled', {
          detail: 'Subscribing on the web is not offered by this server.',
        });
      }
      if (await hasPlan(accountId, now))
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
      return { url: `${deps.siteUrl()}/app/subscribe/${token}`, expires_at: isoInstant(expiresAt) };
    },

    /** What a one-time link shows (opening does not use it). */
    async openWebCheckoutLink(token: string): Promise<LinkState> {
      const link = /^[A-Za-z0-9]{43}$/.test(token)
        ? await findWebCheckoutLink(db, hashLinkToken(token))
        : undefined;
      const a = link && (await findAccountById(db, link.accountId));
      const plan = link && findPlan(link.planCode);
      if (!link || !a || !plan) return { ok: false, reason: 'unknown' };
      if (link.usedAt !== null) return { ok: false, reason: 'used' };
      if (link.expiresAt <= clock.now()) return { ok: false, reason: 'expired' };
      return { ok: true, account: a, plan, expiresAt: link.expiresAt };
    },

    /**
     * "Continue as <email>": uses the link (once), then starts the provider's checkout, which
     * returns to /app/subscribe/done. Returns the account (the caller signs the browser in)
     * and where to send the browser.
     */
    async continueWebCheckout(
      token: string,
    ): Promise<
      | { ok: true; account: Account; url: string }
      | { ok: false; reason: 'unknown' | 'used' | 'expired' }
    > {
      const state = await this.openWebCheckoutLink(token);
      if (!state.ok) return state;
      if (!(await useWebCheckoutLink(db, hashLinkToken(token), clock.now())))
        return { ok: false, reason: 'used' };
      const site = deps.siteUrl();
      if (await hasPlan(state.account.id, clock.now()))
        return { ok: true, account: state.account, url: `${site}/app/subscribe/done` };
      const url = await startCheckout(
        state.account.id,
        state.plan,
        `${site}/app/subscribe/done`,
        `${site}/app/subscribe/canceled`,
      );
      return { ok: true, account: state.account, url };
    },

    /** POST /billing/inapp/sync. */
    async syncInapp(
      accountId: string,
      appUserId: string | null | undefined,
    ): Promise<InappSyncOut> {
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
        throw unavailable(err);
      }
      const now = clock.now();
      const a = await account(accountId);
      const before = await currentPlan(db, a, now);
      await db.tx(async (tx) => {
        const current = await findSubscription(tx, accountId);
        const storeSub =
          current && (current.source === 'ios_store' || current.source === 'android_store')
            ? current
            : undefined;
        const best = found
          .map((s) => ({ ...s, plan: findPlan(config.inapp?.products[s.productId] ?? '') }))
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
      const plan = await currentPlan(db, await account(accountId), now);
      return { changed: !samePlan(before, plan), plan };
    },

    /** Operator: grants a plan (source manual) to the account with this email. */
    async grant(email: string, planCode: string, now: EpochMs): Promise<string> {
      const a = await findAccountByEmail(db, email.trim().toLowerCase());
      if (!a) return `no account with email ${email}`;
      const plan = findPlan(planCode);
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
            ref: `manual:${deps.ids.uuid()}`,
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

    /** Operator: ends the account's manual plan now. Null when done, else why not. */
    async revoke(email: string, now: EpochMs): Promise<string | null> {
      const a = await findAccountByEmail(db, email.trim().toLowerCase());
      if (!a) return `no account with email ${email}`;
      const sub = await findSubscription(db, a.id);
      if (!sub || !isLive(sub, now)) return `${a.email} has no live plan`;
      if (sub.source !== 'manual')
        return `${a.email}'s plan is billed by ${sub.source}; cancel it there`;
      await expireSubscription(db, a.id, now);
      return null;
    },

    /** The plan of the account with this email, for the operator. */
    async show(email: string, now: EpochMs): Promise<Plan | string> {
      const a = await findAccountByEmail(db, email.trim().toLowerCase());
      return a ? await currentPlan(db, a, now) : `no account with email ${email}`;
    },
  };
}

/** sha256 of a link token (only the hash is stored). */
function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function samePlan(a: Plan, b: Plan): boolean {
  return (
    a.code === b.code && a.status === b.status && a.source === b.source && a.entitled === b.entitled
  );
}
