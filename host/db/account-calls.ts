/**
 * The account's calls: the calls-off switch (`accounts.calls_revoked_at`, set by key 9,
 * cleared by POST /me/resume-calls) and the counts the admission rules and GET /me/usage
 * read (calls placed in a window, wake-up calls used). Reads the engine's tables
 * (occurrences, attempts, migration 0002), writes only `accounts.calls_revoked_at`.
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
import type { EpochMs } from '../../engine/index.js';
import { settleEngine } from './engine-store.js';

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
  await db.run('UPDATE accounts SET calls_revoked_at = NULL, updated_at = ? WHERE id = ? AND calls_revoked_at IS NOT NULL', [
    at,
    accountId,
  ]);
}

/** Phone calls of the account placed in [from, to): wake-up attempts and test calls, refused ones excluded. */
export async function countCallsPlaced(db: Db, accountId: string, from: EpochMs, to: EpochMs): Promise<number> {
  await settleEngine(db, { accounts: [accountId] });
  return (await db.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM attempts
     WHERE account_id = ? AND created_at >= ? AND created_at < ?
       AND kind IN ('first', 'retry', 'snooze', 'test') AND requested_at IS NOT NULL AND status <> 'failed'`,
    [accountId, from, to],
  ))!.n;
}

/**
 * Wake-up calls used in [from, to): occurrences dispatched then with a placed attempt, plus
 * standalone test calls placed then.
 */
export async function countCallsUsed(db: Db, accountId: string, from: EpochMs, to: EpochMs): Promise<number> {
  await settleEngine(db, { accounts: [accountId] });
  return (await db.get<{ n: number }>(
    `SELECT
       (SELECT COUNT(*) FROM occurrences o
          WHERE o.account_id = @account AND o.dispatched_at >= @from AND o.dispatched_at < @to
            AND EXISTS (SELECT 1 FROM attempts a WHERE a.occurrence_id = o.id AND a.status <> 'failed'))
     + (SELECT COUNT(*) FROM attempts
          WHERE account_id = @account AND occurrence_id IS NULL AND kind = 'test'
            AND created_at >= @from AND created_at < @to AND requested_at IS NOT NULL AND status <> 'failed') AS n`,
    { account: accountId, from, to },
  ))!.n;
}

/** Whether the occurrence already counts as used (one of its attempts was placed). */
export async function occurrenceCounted(db: Db, occurrenceId: string): Promise<boolean> {
  await settleEngine(db, { occurrences: [occurrenceId] });
  return (await db.get(`SELECT 1 FROM attempts WHERE occurrence_id = ? AND status <> 'failed' LIMIT 1`, [occurrenceId])) !== undefined;
}

/**
 * The numbers of the wake-up calls used in [from, to), one entry per call counted by
 * {@link countCallsUsed} (an occurrence gives the number of its first placed attempt), so
 * that billing can weigh Tier B calls.
 */
export async function listCallsUsedTo(db: Db, accountId: string, from: EpochMs, to: EpochMs): Promise<string[]> {
  await settleEngine(db, { accounts: [accountId] });
  return (
    await db.all<{ to_e164: string }>(
      `SELECT (SELECT a.to_e164 FROM attempts a WHERE a.occurrence_id = o.id AND a.status <> 'failed' ORDER BY a.n LIMIT 1) AS to_e164
       FROM occurrences o
      WHERE o.account_id = @account AND o.dispatched_at >= @from AND o.dispatched_at < @to
        AND EXISTS (SELECT 1 FROM attempts a WHERE a.occurrence_id = o.id AND a.status <> 'failed')
     UNION ALL
     SELECT to_e164 FROM attempts
      WHERE account_id = @account AND occurrence_id IS NULL AND kind = 'test'
        AND created_at >= @from AND created_at < @to AND requested_at IS NOT NULL AND status <> 'failed'`,
      { account: accountId, from, to },
    )
  ).map((r) => r.to_e164);
}
