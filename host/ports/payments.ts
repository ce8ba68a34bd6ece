/**
 * The payment ports: what the billing service asks of a payment provider and of an in-app
 * purchase provider.
 *
 * The payment provider promises hosted pages (checkout, customer portal) and a customer per
 * account; it deliberately leaves out the outcome: a payment is known only from the provider's signed notification
 * to `POST /webhooks/payments` (host/billing/notifications.ts), never from a return value,
 * so that a closed browser tab or a crash cannot lose or fake a subscription.
 *
 * Adapters (host/adapters/payments/): `simulator.ts` (built in, dev mode) and `stripe.ts` (a
 * Stripe-compatible REST API); `inapp.ts` (a RevenueCat-style REST API) for in-app purchases.
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import type { BillingPlan } from '../generated/openapi.js';

/** What a checkout sells and where the browser goes after it. */
export interface CheckoutRequest {
  accountId: string;
  email: string;
  customerId: string;
  /** The plan of the catalogue sold (host/billing/plans.ts). */
  plan: BillingPlan;
  successUrl: string;
  cancelUrl: string;
}

/** A payment provider. Every method may throw {@link ProviderError}. */
export interface PaymentProvider {
  /** `stripe` or `simulator`; also the key of the account's customer id. */
  readonly name: 'simulator' | 'stripe';
  /** Creates the provider's customer for an account; returns its id. */
  createCustomer(account: { id: string; email: string }): Promise<string>;
  /** A hosted checkout: `url` leads to the provider's page. */
  createCheckout(request: CheckoutRequest): Promise<{ id: string; url: string }>;
  /** A customer portal session (change plan, card, cancel), valid for minutes. */
  createPortal(request: {
    accountId: string;
    customerId: string;
    returnUrl: string;
  }): Promise<{ url: string }>;
}

/** The provider could not be reached or refused the request (answered as 503 provider_unavailable). */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
}

/** One store subscription of the account. */
export interface StoreSubscription {
  productId: string;
  store: 'ios_store' | 'android_store';
  periodStart: EpochMs;
  expiresAt: EpochMs;
  willRenew: boolean;
  billingIssue: boolean;
}

/** The in-app purchase provider. */
export interface InappProvider {
  /** The account's store subscriptions (expired ones included). Throws ProviderError. */
  subscriber(appUserId: string): Promise<StoreSubscription[]>;
}
