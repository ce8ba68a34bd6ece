/**
 * The schema's patterns in words, for the `detail` of a problem: a person (or a developer
 * reading a log) is told what a valid value looks like, never a regular expression. Keyed by
 * the pattern exactly as `schema/openapi.yaml` writes it; a pattern missing here reads as
 * "is not in the accepted form" (test/host/pattern-words.test.ts keeps the table complete).
 * @module
 */

const E164 = String.raw`^\+[1-9]\d{1,14}$`;
const CODE = String.raw`^\d{6}$`;
const TIME = String.raw`^([01]\d|2[0-3]):[0-5]\d$`;
const DATE_OR_EMPTY = String.raw`^(\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]))?$`;
const ZONE_LIST = String.raw`^[^,]*(,[^,]*){0,49}$`;
const TOKEN = String.raw`^[A-Za-z0-9_-]*$`;
const TOKEN_1 = String.raw`^[A-Za-z0-9_-]+$`;
const LOCALE = String.raw`^[a-z]{2,3}(-[A-Z]{2})?$`;
const DIGITS = String.raw`^\d+$`;
const EVENT_ID = String.raw`^evt_[0-9a-f]{32}$`;
const PLAIN_TEXT = String.raw`^[^\p{Cc}\p{Bidi_Control}\u2028\u2029]*$`;
const UTC_OFFSET = String.raw`^[+-]\d{2}:\d{2}$`;
const COUNTRY = String.raw`^[A-Z]{2}$`;
const CALLING_CODE = String.raw`^\+\d{1,4}$`;
const WEBHOOK_SECRET = String.raw`^whsec_[A-Za-z0-9+/]+=*$`;
const KEY_PREFIX = String.raw`^wuk_[A-Za-z0-9_-]{8}$`;
const E164_OR_EMAIL = String.raw`^(\+[1-9]\d{1,14}|[^\s@]+@[^\s@]+)$`;
const CONTENT = String.raw`^(?![\s\S]*[\p{L}\p{Nd}-]\.\p{L}{2})(?![\s\S]*\p{Nd}(?:[ .()\-]*\p{Nd}){6})[\p{L}\p{M}\p{Nd} .,!?'’\-:;()&]+$`;

/** Pattern → how a value breaks it, as the end of a sentence that starts with the field's name. */
const WORDS: Record<string, string> = {
  [E164]:
    'must be a phone number in international form: + and the country code, then the number, up to 15 digits in all (for example +14155550123)',
  [E164_OR_EMAIL]:
    'must be a phone number in international form (+ and up to 15 digits) or an email address',
  [CODE]: 'must be the 6 digits of the code',
  [TIME]: 'must be a 24-hour time from 00:00 to 23:59, written HH:MM',
  [DATE_OR_EMPTY]: 'must be a date written YYYY-MM-DD, or empty',
  [ZONE_LIST]: 'must name at most 50 time zones, separated by commas',
  [TOKEN]: 'may hold only letters, digits, _ and -',
  [TOKEN_1]: 'must be letters, digits, _ and - only',
  [LOCALE]: 'must be a language tag such as en-US',
  [DIGITS]: 'must be digits only',
  [EVENT_ID]: 'must be an event id: evt_ and 32 hexadecimal digits',
  [UTC_OFFSET]: 'must be a UTC offset written +HH:MM or -HH:MM',
  [COUNTRY]: 'must be a two-letter country code such as US',
  [CALLING_CODE]: 'must be + and a calling code of 1 to 4 digits, such as +44',
  [WEBHOOK_SECRET]: 'must be a signing secret: whsec_ and base64',
  [KEY_PREFIX]: 'must be wuk_ and the 8 characters that follow it in the key',
  [PLAIN_TEXT]: 'must not contain an invisible control or text-direction character',
  [CONTENT]:
    'may hold only letters, digits, spaces and simple punctuation, without links, email addresses or phone numbers',
};

/** How a value breaks `pattern`, in words. */
export function patternWords(pattern: string): string {
  return WORDS[pattern] ?? 'is not in the accepted form';
}

/** Whether `pattern` has words of its own (for the test that keeps the table complete). */
export function hasPatternWords(pattern: string): boolean {
  return pattern in WORDS;
}
