/**
 * The public face of the billing feature: what another feature or an adapter may import of
 * it (the payment adapters, host/adapters/payments/, read its catalogue, its settings and its
 * notification signature). Its other files are its internals: `npm run check:arch` refuses
 * them from outside the feature, except to the composition root, host/wiring/ and
 * host/http/, which assemble and mount features.
 * @module
 */
export type { InappConfig, StripeConfig } from './config.js';
export type { BillingService } from './contract.js';
export { WEBHOOK_PATH } from './notifications.js';
export { isSubscriptionPlan, type CatalogPlan } from './plans.js';
export { SIGNATURE_HEADER, signPayload } from './signature.js';
