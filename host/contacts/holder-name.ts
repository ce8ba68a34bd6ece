/**
 * Which names may be texted to a contact as the account holder's: a person's name,
 * on top of the content rule of every text (host/phone/content.ts: no link in `word.tld` shape,
 * no phone number, plain characters). The holder's name goes to any number the account names,
 * so it must not carry a link however it is disguised, nor read as an instruction:
 * - only letters, marks, spaces and `. ' ’ -` (no `: ; ! ? ( ) &`, which make a sentence), and
 *   at least one letter;
 * - no domain written around the content rule: a dot with spaces on both sides (`evil . com`),
 *   a dot in brackets (`evil(.)com`, `evil[dot]com`), or a character that looks like a dot
 *   (`evil` U+A4F8 `com`, `evil。com`);
 * - no IP address (`45.9.1.2`) nor any three groups of digits joined by dots;
 * - no call to action or sender-like word (`act now`, `verify`, `security`, `bank`, ...).
 * @module
 */

/** Characters a name may hold. */
const NAME_CHARS = /^[\p{L}\p{M}\p{Nd} .'\u2019-]+$/u;

/** Characters that read as a dot without being one (checked after NFKC, which folds the fullwidth ones). */
const DOT_LIKE =
  /[\u00B7\u0387\u06D4\u0701\u0702\u2024\u2027\u2219\u22C5\u2E31\u2E33\u30FB\u3002\uA4F8\uFE52\uFF0E\uFF61]/u;

const SPACED_DOT = /[\p{L}\p{Nd}]\s+\.\s+[\p{L}\p{Nd}]/u;
const BRACKETED_DOT = /[([{<]\s*(?:\.|dot)\s*[)\]}>]/iu;
const SPELLED_DOT =
  /[\p{L}\p{Nd}]\s*\(?\s*\bdot\b\s*\)?\s*(?:com|net|org|io|co|me|info|app|xyz|ru|cn|uk|de|ly)\b/iu;
const DIGIT_GROUPS = /\d+\s*\.\s*\d+\s*\.\s*\d+/u;

/** Words of a message, not of a name: instructions and the names senders of phishing texts take. */
const ACTION_WORDS = new RegExp(
  `\\b(?:${[
    'act',
    'now',
    'urgent',
    'click',
    'tap',
    'visit',
    'call',
    'text',
    'reply',
    'verify',
    'confirm',
    'login',
    'log in',
    'sign in',
    'password',
    'pin',
    'code',
    'otp',
    'account',
    'security',
    'secure',
    'support',
    'helpdesk',
    'alert',
    'warning',
    'suspended',
    'locked',
    'unlock',
    'refund',
    'prize',
    'winner',
    'claim',
    'pay',
    'payment',
    'bank',
    'official',
    'update',
    'http',
    'https',
    'www',
  ].join('|')})\\b`,
  'iu',
);

/** Why `name` may not be texted as the holder's name, or null when it may. */
export function holderNameProblem(name: string): string | null {
  const n = name.normalize('NFKC');
  if (!NAME_CHARS.test(n) || DOT_LIKE.test(n) || !/\p{L}/u.test(n))
    return "may hold only letters, spaces and . ' -";
  if (SPACED_DOT.test(n) || BRACKETED_DOT.test(n) || SPELLED_DOT.test(n))
    return 'must not contain a link';
  if (DIGIT_GROUPS.test(n)) return 'must not contain an address';
  if (ACTION_WORDS.test(n)) return 'must be a name, not a message';
  return null;
}
