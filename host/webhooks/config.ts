/**
 * Outbound webhook configuration: which targets the operator lets endpoints reach. Parsed once
 * from the environment by {@link loadWebhookConfig} (called from `host/config.ts`);
 * {@link WEBHOOK_ENV_VARS} documents the variables for docs/operations/configuration.md. The fixed limits (endpoints
 * per account, URL length, retry schedule, timeouts) are constants in `./rules.ts`.
 * @module
 */

/** The validated webhook configuration. */
export interface WebhookConfig {
  /**
   * Whether endpoints may point at loopback, private (RFC 1918, unique local, CGNAT) and
   * link-local addresses: a self-hoster's home automation on the LAN. Off, such a target is
   * refused when the endpoint is saved and again at every delivery (the address the
   * connection uses is the one checked). @default false (env WAKEUP_WEBHOOK_ALLOW_PRIVATE)
   */
  readonly allowPrivate: boolean;
  /** Whether endpoint URLs may be plain `http://` (else `https://` only). @default false (env WAKEUP_WEBHOOK_ALLOW_HTTP) */
  readonly allowHttp: boolean;
  /**
   * The server's key (32 bytes) that seals signing secrets at rest (AES-256-GCM, as the identity
   * provider's refresh tokens). Null: the identity provider's token key when set, else a key
   * file beside a SQLite database (host/webhooks/secret-box.ts). (env WAKEUP_SECRETS_KEY)
   */
  readonly secretsKey: Buffer | null;
}

/** One documented variable (same shape as `host/config.ts`'s). */
export interface WebhookEnvVarDoc {
  name: string;
  default: string;
  meaning: string;
}

/** The variables {@link loadWebhookConfig} reads, in the order the configuration page lists them. */
export const WEBHOOK_ENV_VARS: readonly WebhookEnvVarDoc[] = [
  {
    name: 'WAKEUP_WEBHOOK_ALLOW_PRIVATE',
    default: '0',
    meaning:
      '`1` lets webhook endpoints reach loopback, private and link-local addresses (IPv4 and IPv6; a LAN home automation); `0` refuses them when saved and at every delivery.',
  },
  {
    name: 'WAKEUP_WEBHOOK_ALLOW_HTTP',
    default: '0',
    meaning: '`1` accepts `http://` webhook endpoint URLs; `0` requires `https://`.',
  },
  {
    name: 'WAKEUP_SECRETS_KEY',
    default: '(none)',
    meaning:
      "Base64 of 32 random bytes: the server's key sealing webhook signing secrets at rest (AES-256-GCM). Unset: `WAKEUP_IDP_TOKEN_KEY` when set, else on SQLite a key file created beside the database (`<database>.key`, mode 0600; keep it with the backups, apart from them); on PostgreSQL set it (the same on every host), or secrets stay readable in the database (a warning at start).",
  },
];

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Parses and validates the webhook variables.
 * @throws the error `fail` makes, naming the variable at fault.
 */
export function loadWebhookConfig(env: Env, fail: (message: string) => Error): WebhookConfig {
  const flag = (name: string): boolean => {
    const v = env[name]?.trim();
    if (v === undefined || v === '' || v === '0' || v === 'false') return false;
    if (v === '1' || v === 'true') return true;
    throw fail(`${name}=${v}: expected 1 or 0`);
  };
  const keyRaw = env.WAKEUP_SECRETS_KEY?.trim();
  const secretsKey = keyRaw ? Buffer.from(keyRaw, 'base64') : null;
  if (secretsKey && secretsKey.length !== 32)
    throw fail('WAKEUP_SECRETS_KEY: expected base64 of exactly 32 bytes');
  return Object.freeze({
    allowPrivate: flag('WAKEUP_WEBHOOK_ALLOW_PRIVATE'),
    allowHttp: flag('WAKEUP_WEBHOOK_ALLOW_HTTP'),
    secretsKey,
  });
}
