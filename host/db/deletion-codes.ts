/**
 * Account-deletion codes: one row per account with the current code's hash and the
 * wrong-code counter and lock (as e-mail sign-in keeps them per address). Codes themselves
 * are never stored.
 * @module
 */
import type { Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';

/** The deletion-code state of one account. */
export interface DeletionChallenge {
  codeHash: string | null;
  codeSalt: string | null;
  codeExpiresAt: EpochMs | null;
  failedCount: number;
  lockedUntil: EpochMs | null;
}

interface Row {
  code_hash: string | null;
  code_salt: string | null;
  code_expires_at: number | null;
  failed_count: number;
  locked_until: number | null;
}

/** The account's challenge, if it ever asked for a code. */
export async function findDeletionChallenge(db: Db, accountId: string): Promise<DeletionChallenge | undefined> {
  const r = await db.get<Row>('SELECT * FROM deletion_codes WHERE account_id = ?', [accountId]);
  return (
    r && {
      codeHash: r.code_hash,
      codeSalt: r.code_salt,
      codeExpiresAt: r.code_expires_at,
      failedCount: r.failed_count,
      lockedUntil: r.locked_until,
    }
  );
}

/** Stores a fresh code hash, replacing any earlier code; the wrong-code count is kept (an expired lock resets it). */
export async function storeDeletionCode(
  db: Db,
  accountId: string,
  code: { hash: string; salt: string; expiresAt: EpochMs },
  now: EpochMs,
): Promise<void> {
  await db.run(
    `INSERT INTO deletion_codes (account_id, code_hash, code_salt, code_expires_at, failed_count, locked_until, updated_at)
     VALUES (?, ?, ?, ?, 0, NULL, ?)
     ON CONFLICT (account_id) DO UPDATE SET
       code_hash = excluded.code_hash, code_salt = excluded.code_salt, code_expires_at = excluded.code_expires_at,
       failed_count = CASE WHEN deletion_codes.locked_until IS NOT NULL AND deletion_codes.locked_until <= excluded.updated_at THEN 0 ELSE deletion_codes.failed_count END,
       locked_until = CASE WHEN deletion_codes.locked_until IS NOT NULL AND deletion_codes.locked_until <= excluded.updated_at THEN NULL ELSE deletion_codes.locked_until END,
       updated_at = excluded.updated_at`,
    [accountId, code.hash, code.salt, code.expiresAt, now],
  );
}

/**
 * Counts one wrong code; at `maxFailures` the account's deletion is locked until
 * `lockUntil` and the code discarded. Returns the new lock (null when not locked).
 */
export async function recordDeletionFailure(
  db: Db,
  accountId: string,
  maxFailures: number,
  lockUntil: EpochMs,
  now: EpochMs,
): Promise<EpochMs | null> {
  return await db.tx(async (tx) => {
    await tx.run('INSERT INTO deletion_codes (account_id, failed_count, updated_at) VALUES (?, 0, ?) ON CONFLICT (account_id) DO NOTHING', [
      accountId,
      now,
    ]);
    await tx.run(
      `UPDATE deletion_codes SET failed_count = 0, locked_until = NULL
       WHERE account_id = ? AND locked_until IS NOT NULL AND locked_until <= ?`,
      [accountId, now],
    );
    await tx.run('UPDATE deletion_codes SET failed_count = failed_count + 1, updated_at = ? WHERE account_id = ?', [now, accountId]);
    await tx.run(
      `UPDATE deletion_codes SET locked_until = ?, code_hash = NULL, code_salt = NULL, code_expires_at = NULL
       WHERE account_id = ? AND failed_count >= ?`,
      [lockUntil, accountId, maxFailures],
    );
    return (await tx.get<{ locked_until: number | null }>('SELECT locked_until FROM deletion_codes WHERE account_id = ?', [accountId]))!
      .locked_until;
  });
}

/** Consumes the checked code (single use): false when a concurrent request consumed it first. */
export async function consumeDeletionCode(db: Db, accountId: string, codeHash: string): Promise<boolean> {
  return (await db.run('DELETE FROM deletion_codes WHERE account_id = ? AND code_hash = ?', [accountId, codeHash])).changes === 1;
}
