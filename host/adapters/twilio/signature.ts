/**
 * X-Twilio-Signature: how a Twilio-compatible provider signs each webhook request, and how
 * the service checks it.
 *
 * The signature is base64(HMAC-SHA1(auth token, URL + params)), where URL is the exact URL
 * the provider requested (scheme, host, port, path and query string, as configured in the
 * call or number), and params are the POSTed form fields sorted by name (then by value for
 * repeated names), each appended as name immediately followed by value, with no separators.
 * @module
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Form fields of a webhook; repeated names are given as arrays. */
export type FormParams = Record<string, string | readonly string[]>;

/** Computes the signature the provider puts in `X-Twilio-Signature`. */
export function computeTwilioSignature(authToken: string, url: string, params: FormParams): string {
  const pairs: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(params)) {
    for (const v of typeof value === 'string' ? [value] : value) pairs.push([name, v]);
  }
  // Code-unit order, as the providers' own helpers sort (not locale order).
  pairs.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  const hmac = createHmac('sha1', authToken).update(url, 'utf8');
  for (const [name, value] of pairs) hmac.update(name + value, 'utf8');
  return hmac.digest('base64');
}

/**
 * Whether `signature` (the header value; undefined when missing) is the right one for this
 * request. Compares HMAC digests of both values so the comparison takes the same time
 * whatever the header holds, whatever its length.
 */
export function verifyTwilioSignature(
  authToken: string,
  url: string,
  params: FormParams,
  signature: string | undefined,
): boolean {
  if (!signature) return false;
  const expected = computeTwilioSignature(authToken, url, params);
  // Hash both sides to equal-length buffers: timingSafeEqual needs equal lengths, and a
  // length check up front would leak the expected length.
  const a = createHmac('sha256', 'signature-compare').update(expected).digest();
  const b = createHmac('sha256', 'signature-compare').update(signature).digest();
  return timingSafeEqual(a, b);
}
