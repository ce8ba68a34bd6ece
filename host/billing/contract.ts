/**
 * The billing feature's contract: the {@link BillingService} interface that routes, the account
 * feature (through a use case) and the operator's commands use, declared apart from the jobs
 * that implement it (service.ts assembles them).
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import type { Account } from '../db/accounts.js';
import type { Subscription } from '../db/subscriptions.js';
import type { BillingPlan, InappSyncOut, MeBilling, Plan } from '../generated/openapi.js';
import type { NotificationReply } from './notifications.js';
import type { CatalogPlan } from './plans.js';

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
