/**
 * Verification codes: 6 random digits, stored only as a salted hash, compared in constant
 * time.
 *
 * A 6-digit code has a million values, so the hash is not what protects it; the 10-minute
 * lifetime and the lock after 5 wrong tries are. The per-code salt keeps equal codes from
 * having equal hashes and the HMAC keeps the stored value useless without the salt.
 * @module
 */
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** Lifetimes and limits of phone verification (decided values shared with sign-in codes). */
export const VERIFICATION = Object.freeze({
  /** Code length in digits. */
  digits: 6,
  /** A code is accepted for 10 minutes after it was sent. */
  codeTtlMs: 10 * 60_000,
  /** The fifth wrong code locks the number... */
  maxWrongCodes: 5,
  /** ...for 15 minutes (429 verification_locked, Retry-After). */
  lockMs: 15 * 60_000,
  /** A verified number stays verified for 365 days (`verification_expires_at`). */
  verifiedForMs: 365 * 24 * 3_600_000,
});

/** A new random 6-digit code, zero-padded. */
export function newCode(): string {
  return String(randomInt(0, 10 ** VERIFICATION.digits)).padStart(VERIFICATION.digits, '0');
}

/** What is stored for a code: a random salt and HMAC-SHA256(salt, code), both hex. */
export interface CodeHash {
  salt: string;
  hash: string;
}

/** Hashes `code` with a fresh random salt. */
export function hashCode(code: string): CodeHash {
  const salt = randomBytes(16).toString('hex');
  return { salt, hash: digest(salt, code) };
}

/** Whether `code` matches the stored hash; constant time in the compared bytes. */
export function codeMatches(code: string, stored: CodeHash): boolean {
  const expected = Buffer.from(stored.hash, 'hex');
  const actual = Buffer.from(digest(stored.salt, code), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

function digest(salt: string, code: string): string {
  return createHmac('sha256', salt).update(code).digest('hex');
}
