/**
 * Phone numbers at the HTTP edge: stored rows to PhoneNumberOut and PhoneRef.
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import type { PhoneNumber } from '../db/phone-numbers.js';
import { isoInstant, isoInstantOrNull } from '../instant.js';
import { maskE164 } from './numbers.js';

/** PhoneNumberOut (spec "Phone number"). */
export interface PhoneNumberOut {
  id: string;
  e164: string;
  e164_masked: string;
  label: string;
  country_code: string;
  type: string;
  is_primary: boolean;
  verified: boolean;
  verified_at: string | null;
  verification_expires_at: string | null;
  blocked: boolean;
  blocked_reason: string | null;
  last_test_call_at: string | null;
  last_confirmed_at: string | null;
  created_at: string;
}

/** PhoneRef, embedded in schedules and occurrences. */
export interface PhoneRef {
  id: string;
  e164_masked: string;
  label: string;
}

/** Whether the number is verified and its verification has not expired at `now`. */
export function isVerified(
  n: Pick<PhoneNumber, 'verifiedAt' | 'verificationExpiresAt'>,
  now: EpochMs,
): boolean {
  return n.verifiedAt !== null && n.verificationExpiresAt !== null && n.verificationExpiresAt > now;
}

/** The API form of a number at `now` (`verified` depends on the time). */
export function toPhoneNumberOut(n: PhoneNumber, now: EpochMs): PhoneNumberOut {
  return {
    id: n.id,
    e164: n.e164,
    e164_masked: maskE164(n.e164),
    label: n.label,
    country_code: n.countryCode,
    type: n.type,
    is_primary: n.isPrimary,
    verified: isVerified(n, now),
    verified_at: isoInstantOrNull(n.verifiedAt),
    verification_expires_at: isoInstantOrNull(n.verificationExpiresAt),
    blocked: n.block !== null,
    blocked_reason: n.block?.reason ?? null,
    last_test_call_at: isoInstantOrNull(n.lastTestCallAt),
    last_confirmed_at: isoInstantOrNull(n.lastConfirmedAt),
    created_at: isoInstant(n.createdAt),
  };
}

/** The PhoneRef of a number. */
export function toPhoneRef(n: Pick<PhoneNumber, 'id' | 'e164' | 'label'>): PhoneRef {
  return { id: n.id, e164_masked: maskE164(n.e164), label: n.label };
}
