/**
 * Test calls (POST /phone-numbers/{id}/test-call, POST /schedules/{id}/test-call): one real
 * call now through the runtime, counted as one wake-up call of usage and in the daily cap.
 *
 * - A test call to that number still live (requested, ringing or answered): 200 with it,
 *   nothing placed (checked first, so a repeated tap never fails on the call it started).
 * - The number must be verified now: 400 phone_number_unverified.
 * - The account rules (host/entitlement/admission.ts) decide inside the runtime's unit of work; a refusal
 *   stores nothing and answers 403 calls_revoked / 403 number_blocked / 402 no_entitlement /
 *   429 daily_cap_reached (Retry-After to midnight UTC).
 * - Otherwise 201 with the new attempt (kind `test`, status `requested`); the number's
 *   `last_test_call_at` is set once the runtime has stored the attempt.
 * Keys: 1 confirms, 9 turns calls off (as on a wake-up call); no snooze on a test call.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { CallScript, Clock, Runtime } from '../../engine/index.js';
import type { PhoneNumber } from '../db/phone-numbers.js';
import { setLastTestCallAt } from '../db/phone-numbers.js';
import { findLiveTestCall, getAttemptById } from '../db/calls.js';
import { problem } from '../errors.js';
import { isVerified } from '../phone/index.js';
import { refusalProblem } from '../entitlement/admission.js';
import { attemptOut } from './present.js';

/** What a test call says and how long it rings. */
export interface TestCallOptions {
  script: CallScript;
  /** @defaultValue 45 */
  ringTimeoutSeconds?: number;
}

/** The outcome of both endpoints: the attempt, and whether it was placed now (201) or was live already (200). */
export interface TestCallResult {
  placed: boolean;
  attempt: ReturnType<typeof attemptOut>;
}

/** Places (or finds the live) test call to `phone` for `accountId`. */
export async function placeTestCall(
  deps: { db: Db; clock: Clock; runtime: Runtime },
  accountId: string,
  phone: PhoneNumber,
  options: TestCallOptions,
): Promise<TestCallResult> {
  const { db, clock, runtime } = deps;
  const live = await findLiveTestCall(db, accountId, phone.id);
  if (live) return { placed: false, attempt: attemptOut(live) };
  const now = clock.now();
  if (!isVerified(phone, now)) {
    throw problem('phone_number_unverified', {
      detail: 'Verify this number before calling it.',
      field: 'phone_number_id',
    });
  }
  const r = await runtime.placeCall({
    kind: 'test',
    accountId,
    phoneNumberId: phone.id,
    to: phone.e164,
    script: options.script,
    ...(options.ringTimeoutSeconds !== undefined
      ? { ringTimeoutSeconds: options.ringTimeoutSeconds }
      : {}),
  });
  if (!r.ok) throw refusalProblem(r.reason, now);
  const attemptId = r.attempt.id;
  await setLastTestCallAt(db, phone.id, now);
  const attempt = (await getAttemptById(db, attemptId))!;
  return { placed: true, attempt: attemptOut(attempt) };
}
