/**
 * Content rules for the short free texts a user gives the service: number and schedule
 * labels, the spoken note, the greeting name. These texts are spoken on calls and shown in
 * lists, so they may hold only words, not links or numbers to call back
 * (400 `message_disallowed_content`).
 *
 * Rules, applied to the trimmed text:
 * - length 1 to `maxLength` characters (labels 60, messages 200, greeting names 40);
 * - only letters (any script, with their combining marks), digits, spaces and the
 *   punctuation `. , ! ? ' ’ - : ; ( ) &` (’ U+2019, the apostrophe iOS types by default);
 * - no link: no `word.tld` domain shape (`example.com`, `bit.ly`);
 * - no phone number: no run of 7 or more digits, even when spaces, hyphens, dots or
 *   parentheses separate them.
 * (E-mail addresses are excluded by the character rule: `@` is not allowed.)
 * @module
 */

/** Maximum lengths agreed between helpers (characters, after trimming). */
export const TEXT_LIMITS = Object.freeze({ label: 60, message: 200, greetingName: 40 });

const ALLOWED = /^[\p{L}\p{M}\p{Nd} .,!?'\u2019\-:;()&]+$/u;
/** A domain-like token: letters/digits, a dot, then 2+ letters, e.g. `example.com`. */
const DOMAIN = /[\p{L}\p{Nd}-]+\.\p{L}{2,}/u;
/** Seven digits, any of `space - . ( )` allowed between them. */
const LONG_DIGITS = /\p{Nd}(?:[\s\-.()]*\p{Nd}){6}/u;

/** Result of {@link checkText}: the trimmed text, or why it was refused. */
export type TextCheck = { ok: true; value: string } | { ok: false; reason: string };

/** Checks one label/message/name against the rules above; returns the trimmed value. */
export function checkText(input: string, maxLength: number): TextCheck {
  const value = input.trim();
  if (value.length === 0) return { ok: false, reason: 'must not be empty' };
  if ([...value].length > maxLength)
    return { ok: false, reason: `must be at most ${maxLength} characters` };
  if (!ALLOWED.test(value)) {
    return {
      ok: false,
      reason: "may hold only letters, digits, spaces and . , ! ? ' ’ - : ; ( ) &",
    };
  }
  if (DOMAIN.test(value)) return { ok: false, reason: 'must not contain a link' };
  if (LONG_DIGITS.test(value)) return { ok: false, reason: 'must not contain a phone number' };
  return { ok: true, value };
}
