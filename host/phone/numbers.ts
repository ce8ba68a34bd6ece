/**
 * Phone number parsing, typing and masking, with libphonenumber's full ("max") metadata so
 * that the number type (mobile, landline, ...) is known and not just the length.
 * @module
 */
import {
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
  type NumberType,
} from 'libphonenumber-js/max';
import { findCountry, type Country } from '../reference/countries.js';

/**
 * Number type as stored and served in `PhoneNumberOut.type`.
 * `fixed_line_or_mobile` is what libphonenumber says for most NANP (US, CA) numbers, whose
 * ranges do not tell a landline from a mobile.
 */
export type PhoneType = 'mobile' | 'fixed_line' | 'fixed_line_or_mobile' | 'voip' | 'unknown';

/** A number that passed every check: valid, callable type, supported country. */
export interface ParsedPhone {
  e164: string;
  /** ISO 3166-1 alpha-2 of the number's region. */
  countryCode: string;
  country: Country;
  type: PhoneType;
}

/** Why a number was refused; `code` is the catalogue code to answer with. */
export interface PhoneRefusal {
  code: 'invalid_phone_number' | 'country_not_supported';
  detail: string;
}

/** Visual separators accepted (and dropped) inside an otherwise E.164 string. */
const SEPARATORS = /[\s\-.()]/g;
const E164 = /^\+[1-9]\d{1,14}$/;

/**
 * Types that are valid numbers but cannot take a wake-up call or a code: premium and
 * shared-cost ranges (the usual SMS-pumping targets), toll-free, pagers, voicemail access
 * and "personal numbers" (re-routable, a known fraud vector in some countries).
 */
const REFUSED_TYPES: ReadonlySet<NumberType> = new Set<NumberType>([
  'PREMIUM_RATE',
  'SHARED_COST',
  'TOLL_FREE',
  'UAN',
  'PAGER',
  'VOICEMAIL',
  'PERSONAL_NUMBER',
]);

/**
 * Parses what a client sent as `e164`. Accepts a leading `+`, the country calling code and
 * the subscriber digits; spaces, hyphens, dots and parentheses between digits are ignored
 * (`+1 (201) 555-0123` is `+12015550123`). Anything else (no `+`, letters, an extension,
 * more than 15 digits, a number not valid in its country's numbering plan, a premium-rate or
 * toll-free range) is `invalid_phone_number`; a valid number outside the destination list
 * is `country_not_supported`.
 */
export function parsePhone(
  input: string,
): { ok: true; phone: ParsedPhone } | ({ ok: false } & PhoneRefusal) {
  const compact = input.trim().replace(SEPARATORS, '');
  if (!E164.test(compact)) {
    return {
      ok: false,
      code: 'invalid_phone_number',
      detail:
        'Give the number in E.164 form: a plus sign, the country calling code and the number, for example +12015550123.',
    };
  }
  const parsed = parsePhoneNumberFromString(compact);
  if (!parsed || !parsed.isValid() || parsed.number !== compact) {
    return {
      ok: false,
      code: 'invalid_phone_number',
      detail: 'That is not a valid phone number in its country.',
    };
  }
  const raw = parsed.getType();
  if (raw && REFUSED_TYPES.has(raw)) {
    return {
      ok: false,
      code: 'invalid_phone_number',
      detail:
        'Premium-rate, toll-free, shared-cost and similar numbers cannot receive calls or codes.',
    };
  }
  const country = parsed.country ? findCountry(parsed.country) : undefined;
  if (!country) {
    return {
      ok: false,
      code: 'country_not_supported',
      detail:
        'Calls to numbers in that country are not offered; GET /countries lists the supported ones.',
    };
  }
  return {
    ok: true,
    phone: {
      e164: parsed.number,
      countryCode: country.country_code,
      country,
      type: toPhoneType(raw),
    },
  };
}

function toPhoneType(raw: NumberType): PhoneType {
  switch (raw) {
    case 'MOBILE':
      return 'mobile';
    case 'FIXED_LINE':
      return 'fixed_line';
    case 'FIXED_LINE_OR_MOBILE':
      return 'fixed_line_or_mobile';
    case 'VOIP':
      return 'voip';
    default:
      return 'unknown';
  }
}

/**
 * The channel a verification code goes by when the client does not choose: a voice call
 * for a pure landline, a text for everything else (contract §4: "fixed line or mobile" is
 * texted).
 */
export function defaultChannel(type: string): 'sms' | 'call' {
  return type === 'fixed_line' ? 'call' : 'sms';
}

/**
 * Masks a number for display (`e164_masked`, `to_masked`): the country calling code and the
 * last digits stay, every digit between becomes `•`. Four digits stay visible when the
 * national number has 8 or more digits, two otherwise, so at least half stays hidden.
 *
 * @example maskE164('+12015550123') // '+1 ••••••0123'
 * @example maskE164('+442071838750') // '+44 ••••••8750'
 */
export function maskE164(e164: string): string {
  const [cc, national] = splitE164(e164) ?? parsedSplit(e164);
  const visible = national.length >= 8 ? 4 : 2;
  const hidden = Math.max(national.length - visible, 0);
  return `+${cc}${cc ? ' ' : ''}${'•'.repeat(hidden)}${national.slice(hidden)}`;
}

/** Every country's calling code (they are prefix-free: one of 1 to 3 digits matches). */
const CALLING_CODES = new Set(getCountries().map((c) => getCountryCallingCode(c)));

/**
 * A number in E.164 as calling code and national number, without parsing it (libphonenumber's
 * parse costs about 50 µs, and every placed call is logged masked); null when the digits do not
 * start with a country's code or the national number starts with 0 (a few plans drop a leading
 * 0 there: the parser knows which).
 */
function splitE164(e164: string): [string, string] | null {
  if (e164.charCodeAt(0) !== 43 /* + */) return null;
  for (let len = 1; len <= 3; len++) {
    const cc = e164.slice(1, 1 + len);
    if (!CALLING_CODES.has(cc)) continue;
    const national = e164.slice(1 + len);
    return /^[1-9]\d*$/.test(national) ? [cc, national] : null;
  }
  return null;
}

/** The parser's split; no calling code when it cannot read the number. */
function parsedSplit(e164: string): [string, string] {
  const parsed = parsePhoneNumberFromString(e164);
  return parsed
    ? [parsed.countryCallingCode, String(parsed.nationalNumber)]
    : ['', e164.replace(/^\+/, '')];
}

/** Default label for a number added without one, from its type. */
export function defaultLabel(type: PhoneType): string {
  if (type === 'mobile') return 'Mobile';
  if (type === 'fixed_line') return 'Landline';
  return 'Phone';
}
