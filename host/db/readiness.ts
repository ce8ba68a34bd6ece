/**
 * Read-only facts about an account for GET /me onboarding: its phone numbers' verification
 * and its calls' outcomes (trial usage lives in host/db/account-calls.ts). Reads tables other
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
}

/** Loads the facts at `now`. */
export async function loadAccountFacts(db: Db, accountId: string, now: EpochMs): Promise<AccountFacts> {
  await settleEngine(db, { accounts: [accountId] });
  const phones = (await db.get<{ verified_now: number; ever: number }>(
    `SELECT COALESCE(SUM(CASE WHEN verified_at IS NOT NULL AND (verification_expires_at IS NULL OR verification_expires_at > ?) THEN 1 ELSE 0 END), 0) AS verified_now,
            COALESCE(SUM(CASE WHEN verified_at IS NOT NULL THEN 1 ELSE 0 END), 0) AS ever
     FROM phone_numbers WHERE account_id = ? AND deleted_at IS NULL`,
    [now, accountId],
  ))!;
  const success = (await db.get<{ at: number | null }>(
    `SELECT MAX(COALESCE(ended_at, answered_at, updated_at)) AS at FROM attempts
     WHERE account_id = ? AND status = 'confirmed' AND kind IN ('first', 'retry', 'snooze', 'test')`,
    [accountId],
  ))!;
  const testDone = (await db.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM attempts
     WHERE account_id = ? AND occurrence_id IS NULL AND kind = 'test' AND status = 'confirmed'`,
    [accountId],
  ))!;
  const lastTest = await db.get<{ created_at: number; status: string }>(
    `SELECT created_at, status FROM attempts
     WHERE account_id = ? AND occurrence_id IS NULL AND kind = 'test' AND requested_at IS NOT NULL
     ORDER BY created_at DESC, id DESC LIMIT 1`,
    [accountId],
  );
  return {
    phoneVerified: phones.verified_now > 0,
    phoneExpired: phones.ever > 0 && phones.verified_now === 0,
    testCallDone: testDone.n > 0,
    lastSuccessAt: success.at,
    lastTestAt: lastTest?.created_at ?? null,
    lastTestStatus: lastTest?.status ?? null,
  };
}
