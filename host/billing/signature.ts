/**
 * Signed payment notifications in the Stripe form: header
 * `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 * Several `v1` entries may be sent (while a secret is being rolled); one matching is enough.
 * A notification older (or newer) than {@link SIGNATURE_TOLERANCE_SECONDS} on the service
 * clock is refused as stale, so a captured one cannot be replayed later; replays within
 * the window are stopped by the event id (each event is applied once).
 * @module
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EpochMs } from '../../engine/index.js';

/** The header's name. */
export const SIGNATURE_HEADER = 'Stripe-Signature';
/** How far the signed timestamp may be from the service clock. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The header value for `body` signed at `at`. */
export function signPayload(secret: string, body: string, at: EpochMs): string {
  const t = Math.floor(at / 1000);
  return `t=${t},v1=${hmac(secret, `${t}.${body}`)}`;
}

/** Why a signature was refused, or null when it is good. */
export function checkSignature(
  secret: string,
  body: string,
  header: string | undefined,
  now: EpochMs,
): null | 'missing' | 'malformed' | 'stale' | 'mismatch' {
  if (!header) return 'missing';
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const [k, v] = part.trim().split('=', 2);
    if (k === 't' && v && /^\d{1,12}$/.test(v)) t = Number(v);
    if (k === 'v1' && v && /^[0-9a-f]{64}$/.test(v)) v1.push(v);
  }
  if (t === null || v1.length === 0) return 'malformed';
  if (Math.abs(now / 1000 - t) > SIGNATURE_TOLERANCE_SECONDS) return 'stale';
  const expected = Buffer.from(hmac(secret, `${t}.${body}`), 'hex');
  return v1.some((v) => timingSafeEqual(Buffer.from(v, 'hex'), expected)) ? null : 'mismatch';
}

function hmac(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest('hex');
}
