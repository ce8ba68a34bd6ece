/**
 * Builds the payment providers from the billing configuration: the payment provider
 * (WAKEUP_PAYMENTS: the built-in simulator, a Stripe-compatible REST API, or none) and the
 * in-app purchase provider (WAKEUP_INAPP_*). `host/compose.ts` hands them to the billing
 * service, and the simulator to the dev pages (`services.dev.payments`).
 * @module
 */
import type { Clock } from '../../engine/index.js';
import { createInappProvider } from '../adapters/payments/inapp.js';
import { createSimulatedPayments, type SimulatedPayments } from '../adapters/payments/simulator.js';
import { createStripeProvider } from '../adapters/payments/stripe.js';
import type { BillingConfig } from '../billing/config.js';
import type { Db } from '../db/sql.js';
import type { Logger } from '../logger.js';
import type { InappProvider, PaymentProvider } from '../ports/payments.js';

/** The providers billing uses. */
export interface Payments {
  /** The payment provider, or null with WAKEUP_PAYMENTS=none. */
  readonly provider: PaymentProvider | null;
  /** The simulator when it is the payment provider (its hosted pages and the dev endpoint), else null. */
  readonly simulator: SimulatedPayments | null;
  /** The in-app purchase provider, or null when not configured. */
  readonly inapp: InappProvider | null;
}

/** Builds the providers `config` names. */
export function createPayments(deps: {
  db: Db;
  clock: Clock;
  logger: Logger;
  config: BillingConfig;
  siteUrl: () => string;
}): Payments {
  const { config } = deps;
  const simulator =
    config.payments === 'simulator'
      ? createSimulatedPayments({
          db: deps.db,
          clock: deps.clock,
          logger: deps.logger,
          plans: config.plans,
          webhookSecret: config.webhookSecret,
          siteUrl: deps.siteUrl,
        })
      : null;
  return {
    provider: simulator ?? (config.stripe ? createStripeProvider(config.stripe) : null),
    simulator,
    inapp: config.inapp ? createInappProvider(config.inapp) : null,
  };
}
