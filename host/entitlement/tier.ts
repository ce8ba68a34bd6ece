/**
 * The pricing tier of a called number (GET /countries): Tier B calls use the plan's
 * `tier_b_multiplier` included calls or credits.
 * @module
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { findCountry } from '../reference/countries.js';

/**
 * Tiers of the numbers seen lately. Parsing a number costs about 30 µs, and admission weighs
 * every call a subscription used in its period each time one of its calls is dispatched; a
 * number's tier never changes (the country data is built in). Emptied when full.
 */
const tiers = new Map<string, 'A' | 'B'>();
const MAX_TIERS = 50_000;

/** `B` for a number in a Tier B country, else `A` (unknown numbers are never charged more). */
export function tierOfNumber(e164: string): 'A' | 'B' {
  const known = tiers.get(e164);
  if (known !== undefined) return known;
  const country = parsePhoneNumberFromString(e164)?.country;
  const tier = country !== undefined && findCountry(country)?.tier === 'B' ? 'B' : 'A';
  if (tiers.size >= MAX_TIERS) tiers.clear();
  tiers.set(e164, tier);
  return tier;
}

/** Included calls (or credits) one call to `e164` uses under a plan with this multiplier. */
export function callWeight(e164: string, tierBMultiplier: number): number {
  return tierOfNumber(e164) === 'B' ? tierBMultiplier : 1;
}
