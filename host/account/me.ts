/**
 * The account view (schema `MeOut`) for GET /me, PATCH /me and sign-in.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { EpochMs } from '../../engine/index.js';
import type { Account } from '../db/accounts.js';
import type { MeBilling, MeOut } from '../generated/openapi.js';
import { loadAccountFacts } from '../db/readiness.js';
import { currentPlan } from '../usage/usage.js';
import { isoInstantOrNull } from '../instant.js';
import { onboardingOut } from './onboarding.js';
import { scheduleFacts } from '../db/schedules.js';

/**
 * Builds MeOut for `account` at `now`. `billing` is the web checkout offer (the billing
 * service's `meBilling`); answers that do not compute it show null.
 */
export async function meOut(db: Db, account: Account, now: EpochMs, billing: MeBilling | null = null): Promise<MeOut> {
  const facts = await loadAccountFacts(db, account.id, now);
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
    plan: await currentPlan(db, account, now),
    onboarding: onboardingOut({
      state: account.onboardingState,
      homeTimezone: account.homeTimezone,
      facts,
      schedules: await scheduleFacts(db, account.id),
      now,
    }),
    billing,
  };
}
