/**
 * The pricing tier of a called number (GET /countries): Tier B calls use the plan's
 * `tier_b_multiplier` included calls or credits.
 * @module
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { findCountry } from '../reference/countries.js';

/** `B` for a number in a Tier B country, else `A` (unknown numbers are never charged more). */
export function tierOfNumber(e164: string): 'A' | 'B' {
  const country = parsePhoneNumberFromString(e164)?.country;
  return country !== undefined && findCountry(country)?.tier === 'B' ? 'B' : 'A';
}

/** Included calls (or credits) one call to `e164` uses under a plan with this multiplier. */
export function callWeight(e164: string, tierBMultiplier: number): number {
  return tierOfNumber(e164) === 'B' ? tierBMultiplier : 1;
}
