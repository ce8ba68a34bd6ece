/**
 * Read-only facts about an account for GET /me onboarding: its phone numbers' verification
 * (the host's table), its calls' outcomes and whether it has wake-up calls (through the
 * engine's read model); trial usage lives in host/db/account-calls.ts. Never writes.
 * @module
 */
import type { Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';
import type { Account } from './accounts.js';
import { engineReads } from './engine-store.js';

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
  /** Wake-up calls used in the trial window (host/db/account-calls.ts' definition), read with the rest. */
  trialCallsUsed: number;
}

/**
 * Loads the facts at `now`: the numbers in one statement, the calls, the schedules and the
 * trial's calls used in one read of the engine, at once.
 */
export async function loadAccountFacts(
  db: Db,
  account: Pick<Account, 'id' | 'trialStartedAt' | 'trialEndsAt'>,
  now: EpochMs,
): Promise<AccountFacts> {
  const accountId = account.id;
  const [phones, calls] = await Promise.all([
    db.get<{ verified_now: number | null; ever: number | null }>(
      `SELECT SUM(CASE WHEN verified_at IS NOT NULL AND (verification_expires_at IS NULL OR verification_expires_at > @now) THEN 1 ELSE 0 END) AS verified_now,
              SUM(CASE WHEN verified_at IS NOT NULL THEN 1 ELSE 0 END) AS ever
         FROM phone_numbers WHERE account_id = @account AND deleted_at IS NULL`,
      { account: accountId, now },
    ),
    engineReads(db).summarizeAccount({
      accountId,
      kinds: ['first', 'retry', 'snooze', 'test'],
      standaloneKind: 'test',
      usedIn: { from: account.trialStartedAt, to: account.trialEndsAt },
    }),
  ]);
  const verifiedNow = phones?.verified_now ?? 0;
  const ever = phones?.ever ?? 0;
  return {
    phoneVerified: verifiedNow > 0,
    phoneExpired: ever > 0 && verifiedNow === 0,
    testCallDone: calls.standaloneConfirmed > 0,
    lastSuccessAt: calls.lastConfirmedAt,
    lastTestAt: calls.lastStandalone?.createdAt ?? null,
    lastTestStatus: calls.lastStandalone?.status ?? null,
    hasSchedule: calls.series > 0,
    hasEnabledSchedule: calls.activeSeries > 0,
    trialCallsUsed: calls.callsUsed,
  };
}
