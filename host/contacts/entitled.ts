/**
 * Whether an account may text its contacts now: a plan, the trial or call credits
 * (`Plan.entitled` of host/entitlement/usage.ts). A deleted account may not.
 * @module
 */
import type { Clock } from '../../engine/index.js';
import { findAccountById } from '../db/accounts.js';
import type { Db } from '../db/sql.js';
import { currentPlan } from '../entitlement/usage.js';

/** True when the account exists and its current plan is entitled. */
export async function mayTextContacts(db: Db, clock: Clock, accountId: string): Promise<boolean> {
  const account = await findAccountById(db, accountId);
  return account !== undefined && (await currentPlan(db, account, clock.now())).entitled;
}
