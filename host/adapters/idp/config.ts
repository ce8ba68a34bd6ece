/**
 * Identity-provider settings (POST /me/idp-authorization), parsed from the environment by
 * {@link loadIdpConfig} (called from `host/config.ts`). With no `WAKEUP_IDP_CLIENT_ID` no
 * provider is configured: the endpoint answers 204 and keeps nothing (the spec's rule).
 * {@link IDP_ENV_VARS} documents every variable for docs/operations/configuration.md.
 * @module
 */

/** A configured identity provider (an authorization-code exchange with signed identity tokens). */
export interface IdpConfig {
  /** Our client id at the provider; also the identity token's expected audience. */
  readonly clientId: string;
  /** Client secret sent with the exchange and the revocation. */
  readonly clientSecret: string;
  /** Token endpoint (authorization_code grant). */
  readonly tokenUrl: string;
  /** Revocation endpoint (refresh tokens). */
  readonly revokeUrl: string;
  /** JSON Web Key Set that signs identity tokens (RS256 or ES256). */
  readonly keysUrl: string;
  /** Expected `iss` of identity tokens. */
  readonly issuer: string;
  /** AES-256-GCM key (32 bytes) that seals stored refresh tokens. */
  readonly tokenKey: Buffer;
  /** Time allowed for one provider request before it counts as unreachable. */
  readonly timeoutMs: number;
}

/** Every variable {@link loadIdpConfig} reads, in the order the configuration page lists them. */
export const IDP_ENV_VARS: readonly { name: string; default: string; meaning: string }[] = [
  {
    name: 'WAKEUP_IDP_CLIENT_ID',
    default: '(none)',
    meaning:
      'Identity-provider client id; unset: no provider (`POST /me/idp-authorization` answers 204 and keeps nothing).',
  },
  {
    name: 'WAKEUP_IDP_CLIENT_SECRET',
    default: '(none)',
    meaning: 'Identity-provider client secret; required with a client id.',
  },
  {
    name: 'WAKEUP_IDP_TOKEN_URL',
    default: '(none)',
    meaning:
      'Identity-provider token endpoint (authorization-code exchange); required with a client id.',
  },
  {
    name: 'WAKEUP_IDP_REVOKE_URL',
    default: '(none)',
    meaning: 'Identity-provider token revocation endpoint; required with a client id.',
  },
  {
    name: 'WAKEUP_IDP_KEYS_URL',
    default: '(none)',
    meaning:
      'JSON Web Key Set signing identity tokens (RS256 or ES256); required with a client id.',
  },
  {
    name: 'WAKEUP_IDP_ISSUER',
    default: '(none)',
    meaning: 'Expected `iss` of identity tokens; required with a client id.',
  },
  {
    name: 'WAKEUP_IDP_TOKEN_KEY',
    default: '(none)',
    meaning:
      'Base64 of 32 random bytes: the key sealing stored refresh tokens (AES-256-GCM); required with a client id.',
  },
  {
    name: 'WAKEUP_IDP_TIMEOUT_MS',
    default: '5000',
    meaning: 'Time one identity-provider request may take before it counts as unreachable (503).',
  },
];

type Env = Readonly<Record<string, string | undefined>>;

/** Parses the settings; null when no provider is configured. */
export function loadIdpConfig(env: Env, fail: (message: string) => Error): IdpConfig | null {
  const get = (name: string) => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  const clientId = get('WAKEUP_IDP_CLIENT_ID');
  if (clientId === undefined) return null;
  const need = (name: string) => {
    const v = get(name);
    if (v === undefined) throw fail(`${name} is required when WAKEUP_IDP_CLIENT_ID is set`);
    return v;
  };
  const url = (name: string) => {
    const v = need(name);
    let u: URL;
    try {
      u = new URL(v);
    } catch {
      throw fail(`${name}=${v}: not a URL`);
    }
    if (u.protocol !== 'https:' && u.protocol !== 'http:')
      throw fail(`${name}=${v}: expected an http(s) URL`);
    return u.toString();
  };
  const keyRaw = need('WAKEUP_IDP_TOKEN_KEY');
  const tokenKey = Buffer.from(keyRaw, 'base64');
  if (tokenKey.length !== 32)
    throw fail('WAKEUP_IDP_TOKEN_KEY: expected base64 of exactly 32 bytes');
  const timeoutRaw = get('WAKEUP_IDP_TIMEOUT_MS') ?? '5000';
  if (!/^\d+$/.test(timeoutRaw) || Number(timeoutRaw) < 100 || Number(timeoutRaw) > 60_000) {
    throw fail(`WAKEUP_IDP_TIMEOUT_MS=${timeoutRaw}: expected an integer from 100 to 60000`);
  }
  return Object.freeze({
    clientId,
    clientSecret: need('WAKEUP_IDP_CLIENT_SECRET'),
    tokenUrl: url('WAKEUP_IDP_TOKEN_URL'),
    revokeUrl: url('WAKEUP_IDP_REVOKE_URL'),
    keysUrl: url('WAKEUP_IDP_KEYS_URL'),
    issuer: need('WAKEUP_IDP_ISSUER'),
    tokenKey,
    timeoutMs: Number(timeoutRaw),
  });
}
