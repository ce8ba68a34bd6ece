/**
 * The billing service: its interface, and {@link createBillingService}, which assembles it from
 * the feature's jobs, each in a file of its own over the helpers they share (context.ts):
 * - checkout.ts: the catalogue, checkout, the portal, the provider's notifications;
 * - web-checkout.ts: GET /me's web checkout offer, its one-time links, the web session;
 * - inapp-sync.ts: in-app purchase sync;
 * - grants.ts: the operator's grants.
 * Built from exactly what it needs (`BillingDeps`); throws AppError. Rules: spec Billing 1-4
 * and the decided points in schema/openapi.yaml.
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import type { Account } from '../db/accounts.js';
import { findSubscription, type Subscription } from '../db/subscriptions.js';
import type { BillingPlan, InappSyncOut, MeBilling, Plan } from '../generated/openapi.js';
import { createCheckoutJobs } from './checkout.js';
import { createBillingContext, type BillingDeps } from './context.js';
import { createGrantJobs } from './grants.js';
import { createInappSync } from './inapp-sync.js';
import type { NotificationReply } from './notifications.js';
import type { CatalogPlan } from './plans.js';
import { createWebCheckoutJobs } from './web-checkout.js';

export type { BillingDeps } from './context.js';
export { WEB_CHECKOUT_LINK_MS, WEB_CHECKOUT_PLANS } from './web-checkout.js';

/** The state of a one-time link when opened. */
export type LinkState =
  | { ok: true; account: Account; plan: CatalogPlan; expiresAt: EpochMs }
  | { ok: false; reason: 'unknown' | 'used' | 'expired' };

/** The billing operations routes, the account feature (through a use case) and the operator use. */
export interface BillingService {
  /** The account (and its plan now) of a browser's web session cookie, or null (the /app/subscribe/done page). */
  webSessionAccount(cookie: string | undefined): Promise<{ account: Account; plan: Plan } | null>;
  /** Signs a browser in to the account (web session) after it pressed "Continue as ..." on a checkout link. */
  startWebSession(accountId: string): Promise<{ token: string; csrf: string }>;
  /** The account's subscription row, if any (the simulated portal page). */
  subscription(accountId: string): Promise<Subscription | undefined>;
  /** GET /billing/plans: the catalogue, cheapest first. */
  listPlans(): BillingPlan[];
  /** POST /billing/checkout. */
  checkout(accountId: string, planCode: string): Promise<{ url: string }>;
  /** POST /billing/portal. */
  portal(accountId: string): Promise<{ url: string }>;
  /** POST /webhooks/payments. */
  notify(rawBody: string, signature: string | undefined): Promise<NotificationReply>;
  /**
   * GET /me `billing`: null when payments are not set up. `known`: whether the account has a
   * live subscription, when the caller read that already.
   */
  meBilling(a: Account, now: EpochMs, known?: boolean): Promise<MeBilling | null>;
  /** POST /billing/web-checkout: a one-time link. */
  createWebCheckoutLink(
    accountId: string,
    planCode: string,
  ): Promise<{ url: string; expires_at: string }>;
  /** What a one-time link shows (opening does not use it). */
  openWebCheckoutLink(token: string): Promise<LinkState>;
  /**
   * "Continue as <email>": uses the link (once), then starts the provider's checkout, which
   * returns to /app/subscribe/done. Returns the account (the caller signs the browser in)
   * and where to send the browser.
   */
  continueWebCheckout(
    token: string,
  ): Promise<
    | { ok: true; account: Account; url: string }
    | { ok: false; reason: 'unknown' | 'used' | 'expired' }
  >;
  /** POST /billing/inapp/sync. */
  syncInapp(accountId: string, appUserId: string | null | undefined): Promise<InappSyncOut>;
  /** Operator: grants a plan (source manual) to the account with this email. */
  grant(email: string, planCode: string, now: EpochMs): Promise<string>;
  /** Operator: ends the account's manual plan now. Null when done, else why not. */
  revoke(email: string, now: EpochMs): Promise<string | null>;
  /** The plan of the account with this email, for the operator. */
  show(email: string, now: EpochMs): Promise<Plan | string>;
}

/** Creates the service. */
export function createBillingService(deps: BillingDeps): BillingService {
  const ctx = createBillingContext(deps);
  return {
    ...createCheckoutJobs(ctx),
    ...createWebCheckoutJobs(ctx),
    syncInapp: createInappSync(ctx),
    ...createGrantJobs(ctx),
    subscription: (accountId) => findSubscription(deps.db, accountId),
  };
}
