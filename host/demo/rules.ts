/**
 * The demo's fixed limits (spec: Limits, Endpoints / Demo). The daily caps that an operator
 * tunes are in `./config.ts`. Every "day" here is the UTC day: counters reset at 00:00 UTC.
 * @module
 */
import type { CodeRules } from '../verification/code.js';

/** Fixed demo limits. */
export const DEMO_RULES = Object.freeze({
  /** POST /demo/start requests per client address per hour, whatever their outcome. */
  startsPerAddressPerHour: 3,
  /** Demo codes texted to one number per UTC day. */
  codesPerNumberPerDay: 2,
  /** A demo code is accepted this long after it was sent (`code_valid_seconds`). */
  codeValidSeconds: 600,
  /** The 5th wrong code ends the request (its code is refused from then on). */
  maxWrongCodes: 5,
});

/** The rules of demo codes, for host/verification/code.ts: the 5th wrong code ends the request, with no lock. */
export const DEMO_CODES: CodeRules = Object.freeze({
  validMs: DEMO_RULES.codeValidSeconds * 1000,
  maxWrongTries: DEMO_RULES.maxWrongCodes,
  lockMs: null,
});

/** Numbers types that may have the demo: mobile and landline (not VoIP, pagers, unknown ranges). */
export const DEMO_NUMBER_TYPES: ReadonlySet<string> = new Set([
  'mobile',
  'fixed_line',
  'fixed_line_or_mobile',
]);

/** The UTC day holding `at`, as YYYY-MM-DD. */
export function utcDayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}
