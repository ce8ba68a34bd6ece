/**
 * Secrets: session tokens, API keys and CSRF tokens. Minting, hashing and constant-time
 * checks live here and nowhere else. (One-time 6-digit codes are host/verification/code.ts.)
 *
 * Token shape: `<kind prefix><lookup><secret>`, e.g. `wuk_` + `Ab3dE6gH` + 43 characters.
 * - The prefix says what it is (`wus_` app session, `wuw_` web session, `wuk_` API key), so
 *   a leaked token is recognisable by secret scanners and people.
 * - The 8-character lookup (~47 bits) finds the row; for API keys `wuk_` + lookup is the
 *   public `prefix` the API shows.
 * - The 43-character secret carries 256 bits from `crypto.randomBytes`.
 * The database keeps sha256(token) only. A fast hash is enough here because the token has
 * 256 bits of entropy: nobody can guess it from its hash. The stored hash is compared with
 * `timingSafeEqual`.
 * @module
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Token kinds and their prefixes. */
export const TOKEN_PREFIX = { app_session: 'wus_', web_session: 'wuw_', api_key: 'wuk_' } as const;
/** Kind of a token. */
export type TokenKind = keyof typeof TOKEN_PREFIX;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LOOKUP_LENGTH = 8;
const SECRET_LENGTH = 43; // 43 × log2(62) ≈ 256 bits
const TOKEN_RE = /^(wus_|wuw_|wuk_)([A-Za-z0-9]{8})([A-Za-z0-9]{43})$/;

/** Uniform random base62 string (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A freshly minted token: give `token` to the client once, store `lookup` and `hash`. */
export interface MintedToken {
  token: string;
  lookup: string;
  hash: string;
}

/** Mints a token of the given kind. */
export function mintToken(kind: TokenKind): MintedToken {
  const lookup = randomBase62(LOOKUP_LENGTH);
  const token = TOKEN_PREFIX[kind] + lookup + randomBase62(SECRET_LENGTH);
  return { token, lookup, hash: hashToken(token) };
}

/** Splits a presented token; null when it has no known shape. */
export function parseToken(token: string): { kind: TokenKind; lookup: string } | null {
  const m = TOKEN_RE.exec(token);
  if (!m) return null;
  const kind = (Object.keys(TOKEN_PREFIX) as TokenKind[]).find((k) => TOKEN_PREFIX[k] === m[1])!;
  return { kind, lookup: m[2]! };
}

/** sha256 hex of a high-entropy token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time equality of two hex hashes (false on different lengths). */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** A random CSRF token for a web session (stored as its sha256). */
export function mintCsrfToken(): string {
  return randomBase62(32);
}
