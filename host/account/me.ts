/**
 * The account view (schema `MeOut`) for GET /me, PATCH /me and sign-in.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { EpochMs } from '../../engine/index.js';
import type { Account } from '../db/accounts.js';
import type { MeBilling, MeOut } from '../generated/openapi.js';
import { loadAccountFacts } from '../db/readiness.js';
import { usageState } from '../entitlement/usage.js';
import { planOf } from '../entitlement/plan.js';
import { isoInstantOrNull } from '../instant.js';
import { onboardingOut } from './onboarding.js';

/**
 * Builds MeOut for `account` at `now`. `billing` makes the web checkout offer (the billing
 * service's `meBilling`) from whether the account has a live subscription, which the plan
 * read here tells; answers that do not compute it show null.
 */
export async function meOut(
  db: Db,
  account: Account,
  now: EpochMs,
  billing: ((hasPlan: boolean) => Promise<MeBilling | null>) | null = null,
): Promise<MeOut> {
  // The trial's calls used come with the facts (one read of the engine), not read again.
  const facts = await loadAccountFacts(db, account, now);
  const usage = await usageState(db, account, now, facts.trialCallsUsed);
  return {
    id: account.id,
    email: account.email,
    display_name: account.displayName,
    greeting_name: account.greetingName,
    home_timezone: account.homeTimezone,
    time_format: account.timeFormat,
    locale: account.locale,
    voice: account.voice,
    onboarding_state: account.onboardingState,
    marketing_opt_in: account.marketingOptIn,
    digest_opt_in: account.digestOptIn,
    default_retry_policy: account.defaultRetryPolicy,
    default_backup_alarm: account.defaultBackupAlarm,
    calls_revoked_at: isoInstantOrNull(account.callsRevokedAt),
    // One definition of what the trial counts: host/db/account-calls.ts, via the usage module.
    plan: planOf(usage),
    onboarding: onboardingOut({
      state: account.onboardingState,
      homeTimezone: account.homeTimezone,
      facts,
      schedules: facts,
      now,
    }),
    billing: billing ? await billing(usage.subscription !== null) : null,
  };
}
