/**
 * The account's calls: the calls-off switch (`accounts.calls_revoked_at`, set by key 9,
 * cleared by POST /me/resume-calls) and the counts the admission rules and GET /me/usage
 * read (calls placed in a window, wake-up calls used). Reads the engine's tables
 * (occurrences, attempts: engine/tables), writes only `accounts.calls_revoked_at`.
 *
 * What counts (the project's reading of the spec's "counted as one wake-up call"):
 * - A call is *placed* once its attempt's intent is stored (status `requested` onwards) and
 *   the provider did not refuse or fail it (status `failed`): a refused call costs nothing.
 * - Usage (trial): a wake-up call counts once, when one of its attempts was placed (its
 *   retries and snoozes are free); a standalone test call counts as one.
 * - Daily cap: every placed phone call (first, retry, snooze and test attempts).
 * @module
 */
import { idsIn, type Db } from './sql.js';
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

/** {@link countCallsPlaced} of several accounts over one window, in one statement (accounts with none are absent). */
export async function countCallsPlacedBy(db: Db, accountIds: readonly string[], from: EpochMs, to: EpochMs): Promise<Map<string, number>> {
  if (accountIds.length === 0) return new Map();
  await settleEngine(db, { accounts: accountIds });
  const rows = await db.all<{ account_id: string; n: number }>(
    `SELECT account_id, COUNT(*) AS n FROM attempts
     WHERE account_id IN ${idsIn(db)} AND created_at >= ? AND created_at < ?
       AND kind IN ('first', 'retry', 'snooze', 'test') AND requested_at IS NOT NULL AND status <> 'failed'
     GROUP BY account_id`,
    [JSON.stringify(accountIds), from, to],
  );
  return new Map(rows.map((r) => [r.account_id, r.n]));
}

/**
 * {@link countCallsUsed} of several accounts, each over its own trial window (accounts.trial_started_at to
 * trial_ends_at), in one statement (accounts with none are absent).
 */
export async function countTrialCallsUsed(db: Db, accountIds: readonly string[]): Promise<Map<string, number>> {
  if (accountIds.length === 0) return new Map();
  await settleEngine(db, { accounts: accountIds });
  const rows = await db.all<{ account_id: string; n: number }>(
    `SELECT account_id, SUM(n) AS n FROM (
       SELECT o.account_id, COUNT(*) AS n FROM occurrences o JOIN accounts ac ON ac.id = o.account_id
        WHERE o.account_id IN ${idsIn(db)} AND o.dispatched_at >= ac.trial_started_at AND o.dispatched_at < ac.trial_ends_at
          AND EXISTS (SELECT 1 FROM attempts a WHERE a.occurrence_id = o.id AND a.status <> 'failed')
        GROUP BY o.account_id
       UNION ALL
       SELECT t.account_id, COUNT(*) AS n FROM attempts t JOIN accounts ac ON ac.id = t.account_id
        WHERE t.account_id IN ${idsIn(db)} AND t.occurrence_id IS NULL AND t.kind = 'test'
          AND t.created_at >= ac.trial_started_at AND t.created_at < ac.trial_ends_at AND t.requested_at IS NOT NULL AND t.status <> 'failed'
        GROUP BY t.account_id
     ) u GROUP BY account_id`,
    [JSON.stringify(accountIds), JSON.stringify(accountIds)],
  );
  return new Map(rows.map((r) => [r.account_id, Number(r.n)]));
}

/** The occurrences among these that already count as used (one of their attempts was placed), in one statement. */
export async function occurrencesCounted(db: Db, occurrenceIds: readonly string[]): Promise<Set<string>> {
  if (occurrenceIds.length === 0) return new Set();
  await settleEngine(db, { occurrences: occurrenceIds });
  const rows = await db.all<{ occurrence_id: string }>(
    `SELECT DISTINCT occurrence_id FROM attempts WHERE occurrence_id IN ${idsIn(db)} AND status <> 'failed'`,
    [JSON.stringify(occurrenceIds)],
  );
  return new Set(rows.map((r) => r.occurrence_id));
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
