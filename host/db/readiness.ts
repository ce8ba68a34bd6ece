/**
 * Read-only facts about an account for GET /me onboarding: its phone numbers' verification,
 * its calls' outcomes and whether it has wake-up calls (host/db/schedules.ts' `scheduleFacts`) (trial usage lives in host/db/account-calls.ts). Reads tables other
 * modules write (phone_numbers, attempts); never writes.
 * @module
 */
import type { Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';
import { settleEngine } from './engine-store.js';

/** What the account's numbers and calls say. */
export interface AccountFacts {
  /** At least one number is verified now. */
  phoneVerified: boolean;
  /** Some number was verified once, but none is now. */
  phoneExpired: boolean;
  /** A standalone test call was confirmed. */
  testCallDone: boolean;
  /** Newest confirmed call (test or real). */
  lastSuccessAt: EpochMs | null;
  /** created_at and status of the newest placed standalone test call. */
  lastTestAt: EpochMs | null;
  lastTestStatus: string | null;
  /** The account has a wake-up call (schedule), and one enabled and active. */
  hasSchedule: boolean;
  hasEnabledSchedule: boolean;
}

/** Loads the facts at `now`. */
export async function loadAccountFacts(db: Db, accountId: string, now: EpochMs): Promise<AccountFacts> {
  await settleEngine(db, { accounts: [accountId] });
  // One statement for every fact (issue 27: each account fact read once, by one query).
  const f = (await db.get<{
    verified_now: number | null;
    ever: number | null;
    success_at: number | null;
    test_done: number;
    last_test_at: number | null;
    last_test_status: string | null;
    schedules: number;
    enabled_schedules: number;
  }>(
    `SELECT
       (SELECT SUM(CASE WHEN verified_at IS NOT NULL AND (verification_expires_at IS NULL OR verification_expires_at > @now) THEN 1 ELSE 0 END)
          FROM phone_numbers WHERE account_id = @account AND deleted_at IS NULL) AS verified_now,
       (SELECT SUM(CASE WHEN verified_at IS NOT NULL THEN 1 ELSE 0 END)
          FROM phone_numbers WHERE account_id = @account AND deleted_at IS NULL) AS ever,
       (SELECT MAX(COALESCE(ended_at, answered_at, updated_at)) FROM attempts
          WHERE account_id = @account AND status = 'confirmed' AND kind IN ('first', 'retry', 'snooze', 'test')) AS success_at,
       (SELECT COUNT(*) FROM attempts
          WHERE account_id = @account AND occurrence_id IS NULL AND kind = 'test' AND status = 'confirmed') AS test_done,
       (SELECT COUNT(*) FROM schedules s WHERE s.account_id = @account) AS schedules,
       (SELECT COUNT(*) FROM schedules s LEFT JOIN series se ON se.id = s.id
          WHERE s.account_id = @account AND s.enabled = 1 AND COALESCE(se.status, s.status) = 'active') AS enabled_schedules,
       t.created_at AS last_test_at, t.status AS last_test_status
     FROM (SELECT 1 AS one) AS x
     LEFT JOIN (SELECT created_at, status FROM attempts
          WHERE account_id = @account AND occurrence_id IS NULL AND kind = 'test' AND requested_at IS NOT NULL
          ORDER BY created_at DESC, id DESC LIMIT 1) AS t ON 1 = 1`,
    { account: accountId, now },
  ))!;
  const verifiedNow = f.verified_now ?? 0;
  const ever = f.ever ?? 0;
  return {
    phoneVerified: verifiedNow > 0,
    phoneExpired: ever > 0 && verifiedNow === 0,
    testCallDone: f.test_done > 0,
    lastSuccessAt: f.success_at,
    lastTestAt: f.last_test_at,
    lastTestStatus: f.last_test_status,
    hasSchedule: f.schedules > 0,
    hasEnabledSchedule: f.enabled_schedules > 0,
  };
}
