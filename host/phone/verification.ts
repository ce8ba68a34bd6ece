/**
 * Phone verification: sending a code (by text, or by a call that speaks it) and checking
 * it. Lifetimes: a code is valid 10 minutes; the 5th wrong code locks the number's
 * verification for 15 minutes (429 verification_locked with Retry-After; even the right
 * code and new codes are refused meanwhile); a verified number stays verified 365 days.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { Clock, EpochMs, Ids } from '../../engine/index.js';
import {
  issueCode,
  liveCode,
  matchCode,
  retryAfterSeconds,
  runningLock,
} from '../verification/code.js';
import {
  getPhoneNumber,
  markVerified,
  recordWrongCode,
  storeCode,
  type PhoneNumber,
} from '../db/phone-numbers.js';
import { problem } from '../errors.js';
import type { Logger } from '../logger.js';
import { PHONE_CODES, VERIFICATION } from './codes.js';
import type { PhoneRuntime } from './runtime.js';
import { codeText } from '../reference/texts.js';

/** What the verification functions use (a subset of the app's deps). */
export interface PhoneDeps {
  db: Db;
  clock: Clock;
  ids: Ids;
  logger: Logger;
  phone: PhoneRuntime;
}

/** The Verification resource. */
export interface VerificationOut {
  channel: 'sms' | 'call';
  sent: boolean;
  error?: { code: string; detail: string };
}

/** Ring timeout of a verification call. */
const CODE_CALL_RING_SECONDS = 45;

/** Whether the number's verification holds at `now`. */
function isVerified(
  n: Pick<PhoneNumber, 'verifiedAt' | 'verificationExpiresAt'>,
  now: EpochMs,
): boolean {
  return (
    n.verifiedAt !== null && (n.verificationExpiresAt === null || n.verificationExpiresAt > now)
  );
}

/** 429 verification_locked with Retry-After, when the number's verification is locked at `now`. */
export function assertNotLocked(n: Pick<PhoneNumber, 'lockedUntil'>, now: EpochMs): void {
  const lock = runningLock(n, now);
  if (lock !== null) {
    const seconds = retryAfterSeconds(lock, now);
    throw problem('verification_locked', {
      detail: `Too many wrong codes for this number. Try again in ${seconds} seconds.`,
      headers: { 'Retry-After': String(seconds) },
    });
  }
}

/**
 * 403 number_blocked unless codes may go to the number: not blocked, or blocked by key 9
 * (verifying again is how that block is lifted, so its owner must be able to get a code).
 */
export function assertMayReceiveCode(n: Pick<PhoneNumber, 'block'>): void {
  if (n.block && n.block.reason !== 'key_9') {
    throw problem('number_blocked', {
      detail:
        n.block.reason === 'stop'
          ? 'This number texted STOP: no calls or texts go to it. Text START from it to allow them again.'
          : 'Calls and texts to this number are blocked. Contact support to lift the block.',
    });
  }
}

/**
 * Sends a new code to `n` by `channel`, replacing any earlier code. Checks, in order: block
 * (403), lock (429 verification_locked), send limits (429 rate_limited). A provider failure
 * is not an error: it comes back as `sent: false` with `error`.
 */
export async function sendVerificationCode(
  deps: PhoneDeps,
  n: PhoneNumber,
  channel: 'sms' | 'call',
  requester: {
    accountId: string;
    ip: string;
    /** The send limits were already counted (POST /phone-numbers). */ counted?: boolean;
  },
): Promise<VerificationOut> {
  const { db, clock, phone } = deps;
  const now = clock.now();
  assertMayReceiveCode(n);
  assertNotLocked(n, now);
  if (!requester.counted)
    await phone.limits.count({ number: n.e164, account: requester.accountId, ip: requester.ip });

  const { code, hash, salt, expiresAt } = await issueCode(PHONE_CODES, now);
  await storeCode(db, n.id, { hash, salt, channel, expiresAt }, now);

  try {
    if (channel === 'sms') {
      const r = await phone.rawTexts.sendText({ to: n.e164, body: codeText(code, phone.text()) });
      return r.ok
        ? { channel, sent: true }
        : { channel, sent: false, error: { code: r.code, detail: r.detail } };
    }
    const r = await phone.telephony.placeCall({
      idempotencyKey: `verification-${deps.ids.uuid()}`,
      to: n.e164,
      script: { kind: 'verification_code', code },
      ringTimeoutSeconds: CODE_CALL_RING_SECONDS,
    });
    return r.ok
      ? { channel, sent: true }
      : { channel, sent: false, error: { code: r.code, detail: r.detail } };
  } catch (err) {
    // Outcome unknown (network): say so rather than claim it went out.
    deps.logger.warn(
      { err, phoneNumberId: n.id, channel },
      'verification code: provider unreachable',
    );
    return {
      channel,
      sent: false,
      error: {
        code: 'provider_unavailable',
        detail: 'The provider could not be reached; ask for a new code.',
      },
    };
  }
}

/**
 * Checks a code. Right (and unexpired, and not locked): the number is verified for 365
 * days, the code used up, and a key-9 block lifted. Wrong or expired: 400
 * verification_code_invalid, the 5th in a row 429 verification_locked.
 *
 * After the number is verified there is no code to guess, so nothing counts as a wrong guess:
 * the code that verified it, sent again while it would still be valid (a retried request, a
 * double tap), answers as the first time did (the number, verified; nothing changes); any
 * other code answers 400 verification_code_invalid saying the number is already verified,
 * and neither counts towards the lock.
 */
export function checkVerificationCode(
  deps: PhoneDeps,
  number: PhoneNumber,
  code: string,
): Promise<PhoneNumber> {
  return deps.phone.checks.run(number.id, async () => {
    const { db, clock } = deps;
    // Read again: an earlier check of the same number may have locked or verified it.
    const n = (await getPhoneNumber(db, number.accountId, number.id)) ?? number;
    const now = clock.now();
    assertNotLocked(n, now);
    const unexpired = liveCode(n, now);
    // Used: the number was verified after this code was sent (markVerified keeps its hash).
    const used =
      unexpired !== null &&
      n.verifiedAt !== null &&
      n.verifiedAt >= n.codeExpiresAt! - PHONE_CODES.validMs;
    const live = unexpired !== null && !used;
    // Hashed even without a code to compare, so that the answer takes as long either way.
    const matches = await matchCode(code, unexpired);
    if (!live && isVerified(n, now)) {
      if (used && matches) return n;
      throw problem('verification_code_invalid', {
        field: 'code',
        detail:
          'This number is already verified and no code is waiting for it. Ask for a new code only to verify it again.',
      });
    }
    if (!live || !matches) {
      const after = await recordWrongCode(db, n.id, now, PHONE_CODES);
      if (after.lockedUntil !== null) assertNotLocked({ lockedUntil: after.lockedUntil }, now);
      const left = PHONE_CODES.maxWrongTries - after.failedCount;
      throw problem('verification_code_invalid', {
        field: 'code',
        detail: `${live ? 'Wrong code' : 'No valid code: it expired or none was sent; ask for a new one'}. ${left} ${left === 1 ? 'try' : 'tries'} left before verification is locked for 15 minutes.`,
      });
    }
    return (await markVerified(db, n.id, now, now + VERIFICATION.verifiedForMs))!;
  });
}
