/**
 * What the billing feature's jobs share (checkout.ts, web-checkout.ts, inapp-sync.ts,
 * grants.ts): their dependencies, the catalogue's look-ups, the account, whether it has a
 * plan, the payment provider and its failures as problems, and the start of a checkout.
 *
 * "Has a plan" (409 already_subscribed) means a live subscription: active, past_due, or
 * canceled before its end. The trial and pack credits are not a plan. Payments not set up
 * (WAKEUP_PAYMENTS=none) or the provider unreachable: 503 provider_unavailable.
 * @module
 */
import type { Clock, EpochMs, Ids } from '../../engine/index.js';
import { findAccountById, type Account } from '../db/accounts.js';
import type { Db } from '../db/sql.js';
import { findCustomerId, findSubscription, saveCustomerId } from '../db/subscriptions.js';
import { invalid, problem } from '../errors.js';
import { isLive } from '../entitlement/usage.js';
import type { Logger } from '../logger.js';
import { ProviderError, type InappProvider, type PaymentProvider } from '../ports/payments.js';
import type { BillingConfig } from './config.js';
import type { CatalogPlan } from './plans.js';

/** What the billing service needs. */
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

/** The shared helpers, over one set of {@link BillingDeps}. */
export interface BillingContext {
  readonly deps: BillingDeps;
  /** The catalogue's plan with that code. */
  findPlan(code: string): CatalogPlan | undefined;
  /** The purchasable plan with that code, or 400 naming `field`. */
  purchasable(code: string, field?: string): CatalogPlan;
  /** The account, or 401 when it no longer exists. */
  account(id: string): Promise<Account>;
  /** Whether the account has a live subscription at `now`. */
  hasPlan(accountId: string, now: EpochMs): Promise<boolean>;
  /** The payment provider, or 503 when none is set up. */
  requireProvider(): PaymentProvider;
  /** A provider failure as 503 provider_unavailable (logged); anything else as it is. */
  unavailable(err: unknown): unknown;
  /** Starts the provider's checkout of `plan` for the account; its URL. */
  startCheckout(
    accountId: string,
    plan: CatalogPlan,
    successUrl: string,
    cancelUrl: string,
  ): Promise<string>;
}

/** Creates the shared helpers. */
export function createBillingContext(deps: BillingDeps): BillingContext {
  const { db, clock, logger, config, provider } = deps;

  const findPlan = (code: string) => config.plans.find((p) => p.code === code);
  const account = async (id: string): Promise<Account> => {
    const a = await findAccountById(db, id);
    if (!a) throw problem('unauthenticated', { detail: 'The account no longer exists.' });
    return a;
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

  return {
    deps,
    findPlan,
    purchasable(code, field = 'plan') {
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
    },
    account,
    async hasPlan(accountId, now) {
      const sub = await findSubscription(db, accountId);
      return sub !== undefined && isLive(sub, now);
    },
    requireProvider,
    unavailable,
    async startCheckout(accountId, plan, successUrl, cancelUrl) {
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
    },
  };
}
