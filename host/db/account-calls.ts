/**
 * The account's calls: the calls-off switch (`accounts.calls_revoked_at`, set by key 9,
 * cleared by POST /me/resume-calls) and the counts the admission rules and GET /me/usage
 * read (calls placed in a window, wake-up calls used), through the engine's read model (the
 * host never reads the engine's tables itself); writes only `accounts.calls_revoked_at`.
 *
 * What counts (the project's reading of the spec's "counted as one wake-up call"):
 * - A call is *placed* once its attempt's intent is stored (status `requested` onwards) and
 *   the provider did not refuse or fail it (status `failed`): a refused call costs nothing.
 * - Usage (trial): a wake-up call counts once, when one of its attempts was placed (its
 *   retries and snoozes are free); a standalone test call counts as one.
 * - Daily cap: every placed phone call (first, retry, snooze and test attempts).
 * @module
 */
import type { Db } from './sql.js';
import type { Account } from './accounts.js';
import type { EpochMs } from '../../engine/index.js';
import { engineReads } from './engine-store.js';

/** Sets `calls_revoked_at` (keeps an earlier instant). Returns whether the account exists. */
export async function revokeCalls(db: Db, accountId: string, at: EpochMs): Promise<boolean> {
  const r = await db.run(
    'UPDATE accounts SET calls_revoked_at = COALESCE(calls_revoked_at, ?), updated_at = ? WHERE id = ? AND deleted_at IS NULL',
    [at, at, accountId],
  );
  return r.changes === 1;
}

/** Clears `calls_revoked_at`. */
export async function clearCallsRevoked(db: Db, accountId: string, at: EpochMs): Promise<void> {
  await db.run(
    'UPDATE accounts SET calls_revoked_at = NULL, updated_at = ? WHERE id = ? AND calls_revoked_at IS NOT NULL',
    [at, accountId],
  );
}

/** Attempts that are phone calls an account places: wake-up attempts and test calls (not demo calls). */
const PHONE_CALLS = ['first', 'retry', 'snooze', 'test'] as const;

/** Phone calls of the account placed in [from, to): wake-up attempts and test calls, refused ones excluded. */
export async function countCallsPlaced(
  db: Db,
  accountId: string,
  from: EpochMs,
  to: EpochMs,
): Promise<number> {
  return (await countCallsPlacedBy(db, [accountId], from, to)).get(accountId) ?? 0;
}

/**
 * Wake-up calls used in [from, to): occurrences dispatched then with a placed attempt, plus
 * standalone test calls placed then.
 */
export async function countCallsUsed(
  db: Db,
  accountId: string,
  from: EpochMs,
  to: EpochMs,
): Promise<number> {
  return (await listCallsUsedTo(db, accountId, from, to)).length;
}

/** {@link countCallsPlaced} of several accounts over one window, in one read (accounts with none are absent). */
export async function countCallsPlacedBy(
  db: Db,
  accountIds: readonly string[],
  from: EpochMs,
  to: EpochMs,
): Promise<Map<string, number>> {
  return await engineReads(db).countPlacedAttempts(accountIds, from, to, PHONE_CALLS);
}

/**
 * {@link countCallsUsed} of several accounts, each over its own trial window (its trial_started_at
 * to trial_ends_at), in one read (accounts with none are absent).
 */
export async function countTrialCallsUsed(
  db: Db,
  accounts: readonly Pick<Account, 'id' | 'trialStartedAt' | 'trialEndsAt'>[],
): Promise<Map<string, number>> {
  if (accounts.length === 0) return new Map();
  const used = await engineReads(db).listCallsUsed(
    accounts.map((a) => ({ accountId: a.id, from: a.trialStartedAt, to: a.trialEndsAt })),
    'test',
  );
  return new Map([...used].map(([id, calls]) => [id, calls.length]));
}

/** The occurrences among these that already count as used (one of their attempts was placed), in one read. */
export async function occurrencesCounted(
  db: Db,
  occurrenceIds: readonly string[],
): Promise<Set<string>> {
  return await engineReads(db).occurrencesWithPlacedAttempt(occurrenceIds);
}

/**
 * The numbers of the wake-up calls used in [from, to), one entry per call counted by
 * {@link countCallsUsed} (an occurrence gives the number of its first placed attempt), so
 * that billing can weigh Tier B calls.
 */
export async function listCallsUsedTo(
  db: Db,
  accountId: string,
  from: EpochMs,
  to: EpochMs,
): Promise<string[]> {
  return (
    (await engineReads(db).listCallsUsed([{ accountId, from, to }], 'test')).get(accountId) ?? []
  );
}

/**
 * {@link listCallsUsedTo} of several accounts, each over its own window, in one read (accounts
 * with none are absent): the live subscriptions' periods of a dispatch batch.
 */
export async function listCallsUsedIn(
  db: Db,
  windows: readonly { accountId: string; from: EpochMs; to: EpochMs }[],
): Promise<Map<string, string[]>> {
  if (windows.length === 0) return new Map();
  return await engineReads(db).listCallsUsed(windows, 'test');
}
