/**
 * The billing service: {@link createBillingService} assembles the interface of contract.ts from
 * the feature's jobs, each in a file of its own over the helpers they share (context.ts):
 * - checkout.ts: the catalogue, checkout, the portal, the provider's notifications;
 * - web-checkout.ts: GET /me's web checkout offer, its one-time links, the web session;
 * - inapp-sync.ts: in-app purchase sync;
 * - grants.ts: the operator's grants.
 * Built from exactly what it needs (`BillingDeps`); throws AppError. Rules: spec Billing 1-4
 * and the decided points in schema/openapi.yaml.
 * @module
 */
import { findSubscription } from '../db/subscriptions.js';
import { createCheckoutJobs } from './checkout.js';
import { createBillingContext, type BillingDeps } from './context.js';
import { createGrantJobs } from './grants.js';
import { createInappSync } from './inapp-sync.js';
import type { BillingService } from './contract.js';
import { createWebCheckoutJobs } from './web-checkout.js';

export type { BillingDeps } from './context.js';
export type { BillingService, LinkState } from './contract.js';
export { WEB_CHECKOUT_LINK_MS, WEB_CHECKOUT_PLANS } from './web-checkout.js';

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
