/**
 * Sealing small secrets at rest (the identity provider's refresh tokens): AES-256-GCM with a
 * random 12-byte nonce; the stored value is nonce ‖ tag ‖ ciphertext.
 * @module
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Seals `plain` under the 32-byte `key`. */
export function seal(key: Buffer, plain: string): Buffer {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), body]);
}

/** Opens a value sealed by {@link seal}; throws when the key is wrong or the value was altered. */
export function unseal(key: Buffer, sealed: Buffer): string {
  const d = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
  d.setAuthTag(sealed.subarray(12, 28));
  return Buffer.concat([d.update(sealed.subarray(28)), d.final()]).toString('utf8');
}
