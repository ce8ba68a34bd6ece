/**
 * Lifetimes and limits of phone verification codes (decided values shared with the e-mail
 * sign-in codes). Codes themselves are minted, hashed (scrypt, per-code salt), compared in
 * constant time and counted towards the lock by `host/verification/code.ts`, the one
 * mechanism of one-time codes.
 * @module
 */
import type { CodeRules } from '../verification/code.js';

/** Verification lifetimes and limits. */
export const VERIFICATION = Object.freeze({
  /** Code length in digits. */
  digits: 6,
  /** A code is accepted for 10 minutes after it was sent. */
  codeTtlMs: 10 * 60_000,
  /** The fifth wrong code in a row locks the number's verification... */
  maxWrongCodes: 5,
  /** ...for 15 minutes (429 verification_locked, Retry-After). */
  lockMs: 15 * 60_000,
  /** A verified number stays verified for 365 days (`verification_expires_at`). */
  verifiedForMs: 365 * 24 * 3_600_000,
});

/** The rules of phone codes, for host/verification/code.ts. */
export const PHONE_CODES: CodeRules = Object.freeze({
  validMs: VERIFICATION.codeTtlMs,
  maxWrongTries: VERIFICATION.maxWrongCodes,
  lockMs: VERIFICATION.lockMs,
});
