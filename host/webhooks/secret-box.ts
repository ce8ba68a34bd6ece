/**
 * Webhook signing secrets at rest: sealed with the server's key (AES-256-GCM, the sealing of
 * the identity provider's refresh tokens, host/account/sealed.ts) and stored as
 * `sealed:v1:<base64>` in the same columns. A secret stored before sealing (no prefix) still
 * opens as it is, and {@link sealStoredSecrets} seals it; without a key (PostgreSQL with no
 * WAKEUP_SECRETS_KEY) secrets are stored readable, as before.
 *
 * Which key (see {@link resolveSecretsKey}): WAKEUP_SECRETS_KEY, else the identity provider's
 * token key, else, on SQLite, a key file beside the database made at first start, so that a
 * copy of the database alone does not give away the secrets.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { EpochMs } from '../../engine/index.js';
import { seal, unseal } from '../account/sealed.js';
import type { Db } from '../db/sql.js';
import {
  erasePreviousSecrets,
  listReadableSecrets,
  storeSecrets,
} from '../db/webhook-endpoints.js';

const PREFIX = 'sealed:v1:';

/** Seals secrets for storage and opens them back. */
export interface SecretBox {
  /** Whether secrets are sealed (a key is set). */
  readonly sealing: boolean;
  seal(plain: string): string;
  /** Opens a stored secret (a readable one as it is); throws when it was sealed under another key. */
  open(stored: string): string;
}

/** A box with `key`, or one that stores secrets readable when `key` is null. */
export function createSecretBox(key: Buffer | null): SecretBox {
  return {
    sealing: key !== null,
    seal: (plain) => (key ? PREFIX + seal(key, plain).toString('base64') : plain),
    open(stored) {
      if (!stored.startsWith(PREFIX)) return stored;
      if (!key)
        throw new Error('a webhook secret is sealed, and no key is set (WAKEUP_SECRETS_KEY)');
      return unseal(key, Buffer.from(stored.slice(PREFIX.length), 'base64'));
    },
  };
}

/**
 * The key that seals webhook secrets: `configured` (WAKEUP_SECRETS_KEY), else `fallback` (the
 * identity provider's token key), else on SQLite the key in `<database>.key` (made with 32
 * random bytes, mode 0600, when missing; an in-memory database gets a key of its own); null on
 * PostgreSQL with neither set.
 */
export function resolveSecretsKey(o: {
  configured: Buffer | null;
  fallback: Buffer | null;
  sqliteFile: string | null;
}): Buffer | null {
  if (o.configured) return o.configured;
  if (o.fallback) return o.fallback;
  if (o.sqliteFile === null) return null;
  if (o.sqliteFile === '' || o.sqliteFile === ':memory:') return randomBytes(32);
  const file = `${o.sqliteFile}.key`;
  if (!existsSync(file))
    writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file}: expected base64 of exactly 32 bytes`);
  return key;
}

/**
 * Seals every secret still stored readable (rows written before sealing, or while no key was
 * set) and erases previous secrets whose grace period ended at `now`. Run by the delivery
 * worker at its start and every hour. Returns how many endpoints were sealed.
 */
export async function sealStoredSecrets(db: Db, box: SecretBox, now: EpochMs): Promise<number> {
  await erasePreviousSecrets(db, now);
  if (!box.sealing) return 0;
  const rows = await listReadableSecrets(db, PREFIX);
  for (const r of rows) {
    await storeSecrets(db, r.id, {
      from: { secret: r.secret, previousSecret: r.previousSecret },
      to: {
        secret: box.seal(r.secret),
        previousSecret: r.previousSecret === null ? null : box.seal(r.previousSecret),
      },
    });
  }
  return rows.length;
}
