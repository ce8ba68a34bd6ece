/**
 * The identity-provider port: an authorization-code exchange that yields the identity's
 * subject and a refresh token, and the revocation of that token (POST /me/idp-authorization,
 * account deletion). Built by the composition root from the configuration.
 * @module
 */

/** Result of an authorization-code exchange. */
export type ExchangeResult =
  | { ok: true; subject: string; refreshToken: string | null }
  | { ok: false; reason: 'refused' | 'unavailable'; detail: string };

/** Result of a revocation. */
export type RevokeResult = { ok: true } | { ok: false; reason: 'refused' | 'unavailable' };

/** The identity-provider port (host/adapters/idp/oauth-idp.ts implements it; host/account/idp.ts uses it). */
export interface IdentityProvider {
  exchange(code: string): Promise<ExchangeResult>;
  revoke(refreshToken: string): Promise<RevokeResult>;
}
