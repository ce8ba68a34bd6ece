/**
 * Destination countries: where a number may be added and called, with its pricing tier.
 *
 * The list is deliberately short. Every country on it is one where outbound voice and
 * application-to-person texts are cheap, reliable and low in fraud; countries known for
 * SMS pumping (inflated verification-text traffic to premium ranges) and NANP islands with
 * premium-like termination rates are left out. A number whose country is not listed is
 * refused with 400 `country_not_supported`.
 *
 * Tiers (the value of `Country.tier`):
 * - `A`: standard destinations. Voice and text termination is cheapest here; every plan
 *   includes them at the standard rate. Includes US, CA and GB (contract §4).
 * - `B`: supported destinations whose termination costs noticeably more (roughly 2–5x
 *   tier A). Billing may count or price them differently; they are never blocked.
 *
 * Calling codes come from libphonenumber's metadata, so they cannot drift from the parser.
 * @module
 */
import { getCountryCallingCode, type CountryCode } from 'libphonenumber-js/max';

/** Pricing tier of a destination country. */
export type Tier = 'A' | 'B';

/** One destination country, as served by GET /countries. */
export interface Country {
  /** ISO 3166-1 alpha-2, upper case. */
  country_code: string;
  /** English short name. */
  name: string;
  /** Country calling code with its leading `+`, e.g. `+44`. */
  calling_code: string;
  tier: Tier;
}

/** [ISO code, English name, tier], in the order GET /countries lists them (by name within a tier). */
const TABLE: ReadonlyArray<readonly [CountryCode, string, Tier]> = [
  ['AU', 'Australia', 'A'],
  ['AT', 'Austria', 'A'],
  ['BE', 'Belgium', 'A'],
  ['CA', 'Canada', 'A'],
  ['DK', 'Denmark', 'A'],
  ['FI', 'Finland', 'A'],
  ['FR', 'France', 'A'],
  ['DE', 'Germany', 'A'],
  ['IS', 'Iceland', 'A'],
  ['IE', 'Ireland', 'A'],
  ['IT', 'Italy', 'A'],
  ['LU', 'Luxembourg', 'A'],
  ['NL', 'Netherlands', 'A'],
  ['NZ', 'New Zealand', 'A'],
  ['NO', 'Norway', 'A'],
  ['PT', 'Portugal', 'A'],
  ['PR', 'Puerto Rico', 'A'],
  ['ES', 'Spain', 'A'],
  ['SE', 'Sweden', 'A'],
  ['CH', 'Switzerland', 'A'],
  ['GB', 'United Kingdom', 'A'],
  ['US', 'United States', 'A'],
  ['AR', 'Argentina', 'B'],
  ['BR', 'Brazil', 'B'],
  ['BG', 'Bulgaria', 'B'],
  ['CL', 'Chile', 'B'],
  ['HR', 'Croatia', 'B'],
  ['CY', 'Cyprus', 'B'],
  ['CZ', 'Czechia', 'B'],
  ['EE', 'Estonia', 'B'],
  ['GR', 'Greece', 'B'],
  ['GG', 'Guernsey', 'B'],
  ['HK', 'Hong Kong', 'B'],
  ['HU', 'Hungary', 'B'],
  ['IM', 'Isle of Man', 'B'],
  ['IL', 'Israel', 'B'],
  ['JP', 'Japan', 'B'],
  ['JE', 'Jersey', 'B'],
  ['LV', 'Latvia', 'B'],
  ['LT', 'Lithuania', 'B'],
  ['MT', 'Malta', 'B'],
  ['MX', 'Mexico', 'B'],
  ['PL', 'Poland', 'B'],
  ['RO', 'Romania', 'B'],
  ['SG', 'Singapore', 'B'],
  ['SK', 'Slovakia', 'B'],
  ['SI', 'Slovenia', 'B'],
  ['ZA', 'South Africa', 'B'],
  ['KR', 'South Korea', 'B'],
  ['TW', 'Taiwan', 'B'],
];

/** Every destination country, tier A first, then tier B, each by name. Frozen. */
export const COUNTRIES: readonly Country[] = Object.freeze(
  TABLE.map(([code, name, tier]) =>
    Object.freeze({
      country_code: code,
      name,
      calling_code: `+${getCountryCallingCode(code)}`,
      tier,
    }),
  ),
);

const BY_CODE = new Map(COUNTRIES.map((c) => [c.country_code, c]));

/** The destination country for an ISO code, or undefined when numbers there are refused. */
export function findCountry(countryCode: string): Country | undefined {
  return BY_CODE.get(countryCode.toUpperCase());
}
