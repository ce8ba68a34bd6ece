/**
 * What GET /me (and sign-in's answer) shows of billing: the web checkout offer of the billing
 * feature, as the account feature's `meBilling` port. What the offer holds is billing's;
 * where it appears in MeOut is the account's.
 * @module
 */
import type { AccountServiceDeps } from '../account/service.js';
import type { BillingService } from '../billing/index.js';

/** The account feature's `meBilling`, from the billing service. */
export function meBilling(
  billing: Pick<BillingService, 'meBilling'>,
): NonNullable<AccountServiceDeps['meBilling']> {
  return (account, now, hasPlan) => billing.meBilling(account, now, hasPlan);
}
