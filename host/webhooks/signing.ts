/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com/), so that a receiver verifies
 * a delivery with an existing library (the `standardwebhooks` npm package, Svix's, ...):
 *
 * - `webhook-id`: the event's id (the same on every attempt and redelivery: deduplicate on it);
 * - `webhook-timestamp`: seconds since the epoch when the request was signed;
 * - `webhook-signature`: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, one per secret
 *   that signs, separated by spaces (two for a day after a rotation).
 *
 * Secrets are `whsec_` and the base64 of 24 random bytes; the HMAC key is those bytes.
 * @module
 */
import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** The key bytes of a `whsec_` secret. */
function keyOf(secret: string): Buffer {
  return Buffer.from(
    secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret,
    'base64',
  );
}

/** One `v1,<base64>` signature of `id.timestamp.body` with `secret`. */
export function signWebhook(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  const mac = createHmac('sha256', keyOf(secret))
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/** The three headers of a delivery signed with each of `secrets` (the current one first). */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => signWebhook(s, id, timestampSeconds, body)).join(' '),
  };
}

/** What the API shows of a secret: `whsec_` and its first 4 characters, enough to tell two apart. */
export function secretHint(secret: string): string {
  return secret.slice(0, 'whsec_'.length + 4);
}
