/**
 * E-mail sign-in challenges: one row per address, holding the current code's hash and the
 * wrong-code counter and lock. Codes themselves are never stored.
 * @module
 */
import type { Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';

/** The challenge state of one address. */
export interface SignInChallenge {
  email: string;
  codeHash: string | null;
  codeSalt: string | null;
  codeExpiresAt: EpochMs | null;
  failedCount: number;
  lockedUntil: EpochMs | null;
}

interface Row {
  email: string;
  code_hash: string | null;
  code_salt: string | null;
  code_expires_at: number | null;
  failed_count: number;
  locked_until: number | null;
}

/** The challenge of `email`, if it ever asked for a code. */
export async function findChallenge(db: Db, email: string): Promise<SignInChallenge | undefined> {
  const r = await db.get<Row>('SELECT * FROM email_sign_in WHERE email = ?', [email]);
  return (
    r && {
      email: r.email,
      codeHash: r.code_hash,
      codeSalt: r.code_salt,
      codeExpiresAt: r.code_expires_at,
      failedCount: r.failed_count,
      lockedUntil: r.locked_until,
    }
  );
}

/**
 * Stores a fresh code hash, replacing any earlier code. The wrong-code counter is kept, so
 * asking for a new code does not buy more guesses; an expired lock resets it.
 */
export async function storeCode(
  db: Db,
  email: string,
  code: { hash: string; salt: string; expiresAt: EpochMs },
  now: EpochMs,
): Promise<void> {
  await db.run(
    `INSERT INTO email_sign_in (email, code_hash, code_salt, code_expires_at, failed_count, locked_until, updated_at)
     VALUES (?, ?, ?, ?, 0, NULL, ?)
     ON CONFLICT (email) DO UPDATE SET
       code_hash = excluded.code_hash, code_salt = excluded.code_salt, code_expires_at = excluded.code_expires_at,
       failed_count = CASE WHEN email_sign_in.locked_until IS NOT NULL AND email_sign_in.locked_until <= excluded.updated_at THEN 0 ELSE email_sign_in.failed_count END,
       locked_until = CASE WHEN email_sign_in.locked_until IS NOT NULL AND email_sign_in.locked_until <= excluded.updated_at THEN NULL ELSE email_sign_in.locked_until END,
       updated_at = excluded.updated_at`,
    [email, code.hash, code.salt, code.expiresAt, now],
  );
}

/**
 * Counts one wrong code. When the count reaches `maxFailures` the address is locked until
 * `lockUntil` and the code is discarded. Returns the new count and lock.
 */
export async function recordFailure(
  db: Db,
  email: string,
  maxFailures: number,
  lockUntil: EpochMs,
  now: EpochMs,
): Promise<{ failedCount: number; lockedUntil: EpochMs | null }> {
  return await db.tx(async (tx) => {
    await tx.run(
      `INSERT INTO email_sign_in (email, failed_count, updated_at) VALUES (?, 0, ?)
       ON CONFLICT (email) DO NOTHING`,
      [email, now],
    );
    // An expired lock starts a fresh count.
    await tx.run(
      `UPDATE email_sign_in SET failed_count = 0, locked_until = NULL
       WHERE email = ? AND locked_until IS NOT NULL AND locked_until <= ?`,
      [email, now],
    );
    await tx.run('UPDATE email_sign_in SET failed_count = failed_count + 1, updated_at = ? WHERE email = ?', [now, email]);
    await tx.run(
      `UPDATE email_sign_in SET locked_until = ?, code_hash = NULL, code_salt = NULL, code_expires_at = NULL
       WHERE email = ? AND failed_count >= ?`,
      [lockUntil, email, maxFailures],
    );
    const r = (await tx.get<Row>('SELECT failed_count, locked_until FROM email_sign_in WHERE email = ?', [email]))!;
    return { failedCount: r.failed_count, lockedUntil: r.locked_until };
  });
}

/**
 * Consumes the code whose hash was checked: deletes the challenge only if it still holds
 * that hash. Returns false when a concurrent request consumed it first (single use).
 */
export async function consumeCode(db: Db, email: string, codeHash: string): Promise<boolean> {
  return (await db.run('DELETE FROM email_sign_in WHERE email = ? AND code_hash = ?', [email, codeHash])).changes === 1;
}

/**
 * Removes challenge rows that hold no usable code and no running lock and have not changed
 * since `idleBefore` (at most 1,000 a call): what is left of wrong guesses at addresses
 * that never asked for a code, of used codes' locks, and of expired codes.
 */
export async function pruneIdleChallenges(db: Db, idleBefore: EpochMs, now: EpochMs): Promise<number> {
  return (
    await db.run(
      `DELETE FROM email_sign_in WHERE email IN (
       SELECT email FROM email_sign_in
       WHERE updated_at < ?
         AND (code_hash IS NULL OR code_expires_at IS NULL OR code_expires_at <= ?)
         AND (locked_until IS NULL OR locked_until <= ?)
       LIMIT 1000)`,
      [idleBefore, now, now],
    )
  ).changes;
}
