/**
 * The identity-provider adapter: an OAuth-style authorization-code exchange whose answer
 * carries a signed identity token (JWT, RS256 or ES256) and a refresh token, and a
 * revocation endpoint for that refresh token.
 *
 * Wire format (form-encoded POSTs, JSON answers):
 * - token endpoint: `client_id, client_secret, code, grant_type=authorization_code` →
 *   200 `{id_token, refresh_token?, access_token?, ...}`; 400 `{error: "invalid_grant"}` for a
 *   refused code.
 * - revoke endpoint: `client_id, client_secret, token, token_type_hint=refresh_token` → 200.
 * - keys endpoint: GET → `{keys: [JWK...]}`, each with `kid`.
 * The identity token is checked with node:crypto (no JWT library: one signature check and
 * four claims do not need one): signature by a key of the set, `iss`, `aud` (our client
 * id), `exp` (on the service clock).
 * A network error, a timeout, a 5xx or a 429 counts as unreachable.
 * @module
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { Clock } from '../../../engine/index.js';
import type { IdentityProvider, ExchangeResult, RevokeResult } from '../../ports/identity.js';
import type { IdpConfig } from './config.js';

/** Options of {@link createOAuthIdentityProvider}. */
export interface OAuthIdpOptions {
  config: IdpConfig;
  clock: Clock;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

class Unreachable extends Error {}

/** Creates the adapter. */
export function createOAuthIdentityProvider(options: OAuthIdpOptions): IdentityProvider {
  const { config, clock } = options;
  const doFetch = options.fetch ?? fetch;
  let keys = new Map<string, KeyObject>();

  async function post(
    url: string,
    form: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, unknown> | null }> {
    let res: Response;
    try {
      res = await doFetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams(form).toString(),
        signal: AbortSignal.timeout(config.timeoutMs),
      });
    } catch (err) {
      throw new Unreachable(String(err));
    }
    if (res.status >= 500 || res.status === 429) throw new Unreachable(`HTTP ${res.status}`);
    const text = await res.text().catch(() => '');
    return { status: res.status, body: jsonObject(text) };
  }

  async function loadKeys(): Promise<void> {
    let res: Response;
    try {
      res = await doFetch(config.keysUrl, { signal: AbortSignal.timeout(config.timeoutMs) });
    } catch (err) {
      throw new Unreachable(String(err));
    }
    if (!res.ok) throw new Unreachable(`keys: HTTP ${res.status}`);
    const body = (await res.json().catch(() => null)) as {
      keys?: Array<Record<string, unknown>>;
    } | null;
    const next = new Map<string, KeyObject>();
    for (const jwk of body?.keys ?? []) {
      if (typeof jwk.kid !== 'string') continue;
      try {
        next.set(jwk.kid, createPublicKey({ key: jwk, format: 'jwk' }));
      } catch {
        // A key we cannot read cannot have signed a token we accept.
      }
    }
    keys = next;
  }

  /** The subject of a valid identity token, or null. */
  async function checkIdToken(token: unknown): Promise<string | null> {
    if (typeof token !== 'string') return null;
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const header = jsonObject(Buffer.from(parts[0]!, 'base64url').toString('utf8'));
    const claims = jsonObject(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    if (!header || !claims) return null;
    if (header.alg !== 'RS256' && header.alg !== 'ES256') return null;
    if (typeof header.kid !== 'string') return null;
    if (!keys.has(header.kid)) await loadKeys();
    const key = keys.get(header.kid);
    if (!key) return null;
    const data = Buffer.from(`${parts[0]}.${parts[1]}`);
    const sig = Buffer.from(parts[2]!, 'base64url');
    const ok =
      header.alg === 'RS256'
        ? key.asymmetricKeyType === 'rsa' && verify('sha256', data, key, sig)
        : key.asymmetricKeyType === 'ec' &&
          verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, sig);
    if (!ok) return null;
    const aud: unknown[] = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (claims.iss !== config.issuer || !aud.includes(config.clientId)) return null;
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= clock.now()) return null;
    if (typeof claims.sub !== 'string' || claims.sub === '') return null;
    return claims.sub;
  }

  return {
    async exchange(code): Promise<ExchangeResult> {
      try {
        const r = await post(config.tokenUrl, {
          client_id: config.clientId,
          client_secret: config.clientSecret,
          code,
          grant_type: 'authorization_code',
        });
        if (r.status !== 200)
          return {
            ok: false,
            reason: 'refused',
            detail:
              `the provider answered ${r.status} ${typeof r.body?.error === 'string' ? r.body.error : ''}`.trim(),
          };
        const subject = await checkIdToken(r.body?.id_token);
        if (subject === null)
          return { ok: false, reason: 'refused', detail: 'the identity token is not valid' };
        const refreshToken =
          typeof r.body?.refresh_token === 'string' ? r.body.refresh_token : null;
        return { ok: true, subject, refreshToken };
      } catch (err) {
        if (err instanceof Unreachable)
          return { ok: false, reason: 'unavailable', detail: err.message };
        throw err;
      }
    },
    async revoke(refreshToken): Promise<RevokeResult> {
      try {
        const r = await post(config.revokeUrl, {
          client_id: config.clientId,
          client_secret: config.clientSecret,
          token: refreshToken,
          token_type_hint: 'refresh_token',
        });
        return r.status === 200 ? { ok: true } : { ok: false, reason: 'refused' };
      } catch (err) {
        if (err instanceof Unreachable) return { ok: false, reason: 'unavailable' };
        throw err;
      }
    },
  };
}

/** The JSON object in `text`, or null when it is empty, not JSON or not an object. */
function jsonObject(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = text ? JSON.parse(text) : null;
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
