/**
 * POST /me/idp-authorization: the account hands over an identity-provider authorization
 * code; the service exchanges it, checks that the identity token's subject is the account's
 * linked identity (the first successful exchange links it), and keeps the refresh token
 * sealed at rest only to revoke it when the account is deleted.
 *
 * - no provider configured: nothing is exchanged or kept (204);
 * - a refused code, an invalid identity token, another account's identity or a subject
 *   other than the one linked: 400 validation_error (field authorization_code); a refresh
 *   token issued for the wrong identity is revoked at once, never kept;
 * - the provider unreachable: 503 provider_unavailable with Retry-After.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { Clock } from '../../engine/index.js';
import { clearIdpToken, findIdpLink, findIdpLinkBySubject, saveIdpLink } from '../db/idp-links.js';
import { invalid, problem } from '../errors.js';
import type { Logger } from '../logger.js';
import type { IdentityProvider } from '../ports/identity.js';
import { seal, unseal } from './sealed.js';

/** What {@link createIdpService} needs. */
export interface IdpServiceDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** null: no provider configured. */
  provider: IdentityProvider | null;
  /** The key sealing refresh tokens (with a provider). */
  tokenKey: Buffer | null;
}

/** Seconds a client should wait after 503 provider_unavailable. */
export const IDP_RETRY_AFTER_SECONDS = 30;

/** The identity-provider operations. */
export interface IdpService {
  /** POST /me/idp-authorization. */
  link(accountId: string, code: string): Promise<void>;
  /** Revokes the account's stored refresh token: `done` (or nothing to revoke), else `failed`. */
  revokeFor(accountId: string): Promise<'done' | 'failed'>;
  /** Whether the account has a refresh token to revoke. */
  hasToken(accountId: string): Promise<boolean>;
}

/** Creates the service. */
export function createIdpService(deps: IdpServiceDeps): IdpService {
  const { db, clock, provider, tokenKey } = deps;
  const log = deps.logger.child({ component: 'idp' });
  const refused = (message: string) =>
    invalid({ field: 'authorization_code', in: 'body', code: 'refused', message });

  return {
    async link(accountId, code) {
      if (!provider || !tokenKey) return;
      const r = await provider.exchange(code);
      if (!r.ok) {
        if (r.reason === 'unavailable') {
          log.warn({ detail: r.detail }, 'identity provider unreachable');
          throw problem('provider_unavailable', {
            detail: 'The identity provider cannot be reached. Try again shortly.',
            headers: { 'Retry-After': String(IDP_RETRY_AFTER_SECONDS) },
          });
        }
        throw refused('was refused by the identity provider');
      }
      const mine = await findIdpLink(db, accountId);
      const holder = await findIdpLinkBySubject(db, r.subject);
      if ((mine && mine.subject !== r.subject) || (holder && holder.accountId !== accountId)) {
        // Never keep a token of another identity; revoke it (best effort).
        if (r.refreshToken !== null) await provider.revoke(r.refreshToken).catch(() => undefined);
        throw refused('is not for the identity linked to this account');
      }
      await saveIdpLink(
        db,
        accountId,
        r.subject,
        r.refreshToken === null ? null : seal(tokenKey, r.refreshToken),
        clock.now(),
      );
    },

    async hasToken(accountId) {
      return (await findIdpLink(db, accountId))?.refreshTokenSealed != null;
    },

    async revokeFor(accountId) {
      const link = await findIdpLink(db, accountId);
      if (!link?.refreshTokenSealed) return 'done';
      if (!provider || !tokenKey) return 'failed';
      let token: string;
      try {
        token = unseal(tokenKey, link.refreshTokenSealed);
      } catch (err) {
        log.error(
          { err, account: accountId },
          'stored refresh token cannot be opened (key changed?)',
        );
        return 'failed';
      }
      const r = await provider
        .revoke(token)
        .catch(() => ({ ok: false as const, reason: 'unavailable' as const }));
      // A refused revocation means the provider no longer honours the token: nothing left to revoke.
      if (!r.ok && r.reason === 'unavailable') {
        log.warn(
          { account: accountId },
          'refresh token not revoked (provider unreachable); retried later',
        );
        return 'failed';
      }
      await clearIdpToken(db, accountId, clock.now());
      return 'done';
    },
  };
}
