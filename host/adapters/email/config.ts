/**
 * Email provider settings, parsed from the environment by {@link loadEmailConfig} (called
 * from `host/config.ts`): the built-in outbox simulator (dev mode only) or an SMTP relay.
 * {@link EMAIL_ENV_VARS} documents every variable for docs/operations/configuration.md.
 *
 * The SMTP URL carries the relay's password: it is kept here and given to the transport,
 * and only {@link describeSmtp} (host, port, user, never the password) reaches a log line.
 * @module
 */

/** A configured SMTP relay. */
export interface SmtpConfig {
  /** `smtp://user:pass@host:port` (STARTTLS when the relay offers it) or `smtps://` (TLS from the start). */
  readonly url: string;
  /** Sender: an address, or `Name <address>`. */
  readonly from: string;
}

/** Which email provider runs. */
export interface EmailConfig {
  /** `simulator`: the outbox (GET /dev/outbox); `smtp`: a real relay. @default 'simulator' (env WAKEUP_EMAIL) */
  readonly provider: 'simulator' | 'smtp';
  /** Set when the provider is `smtp`. */
  readonly smtp: SmtpConfig | null;
}

/** Every variable {@link loadEmailConfig} reads, in the order the configuration page lists them. */
export const EMAIL_ENV_VARS: readonly { name: string; default: string; meaning: string }[] = [
  {
    name: 'WAKEUP_EMAIL',
    default: 'simulator',
    meaning:
      'Email (sign-in and deletion codes): `simulator` (the outbox, `GET /dev/outbox`; dev mode only) or `smtp`. Production (`WAKEUP_DEV=0`) needs `smtp`.',
  },
  {
    name: 'WAKEUP_SMTP_URL',
    default: '(none)',
    meaning:
      'SMTP relay, `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://…:465` (TLS); required with `smtp`. The password is never logged.',
  },
  {
    name: 'WAKEUP_EMAIL_FROM',
    default: '(none)',
    meaning:
      'Sender, `wake@example.com` or `Wake-Up Call <wake@example.com>`; required with `smtp`.',
  },
];

type Env = Readonly<Record<string, string | undefined>>;

const value = (env: Env, name: string): string | undefined => {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
};

/**
 * Parses and validates the email variables.
 * @throws the error `fail` makes, naming the variable at fault (never echoing the SMTP URL, which holds a password).
 */
export function loadEmailConfig(env: Env, fail: (message: string) => Error): EmailConfig {
  const provider = value(env, 'WAKEUP_EMAIL') ?? 'simulator';
  if (provider !== 'simulator' && provider !== 'smtp')
    throw fail(`WAKEUP_EMAIL=${provider}: expected simulator or smtp`);
  if (provider === 'simulator') return Object.freeze({ provider, smtp: null });
  const url = value(env, 'WAKEUP_SMTP_URL');
  if (!url)
    throw fail(
      'WAKEUP_SMTP_URL is required when WAKEUP_EMAIL=smtp (smtp://user:password@host:587)',
    );
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw fail(
      'WAKEUP_SMTP_URL: not a URL (expected smtp://user:password@host:port or smtps://...)',
    );
  }
  if ((parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') || parsed.hostname === '') {
    throw fail(
      `WAKEUP_SMTP_URL: expected smtp:// or smtps:// and a host, got ${parsed.protocol}//${parsed.hostname}`,
    );
  }
  const from = value(env, 'WAKEUP_EMAIL_FROM');
  if (!from)
    throw fail(
      'WAKEUP_EMAIL_FROM is required when WAKEUP_EMAIL=smtp (e.g. Wake-Up Call <wake@example.com>)',
    );
  if (!/^([^<>@\r\n]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/.test(from)) {
    throw fail(
      `WAKEUP_EMAIL_FROM=${from}: expected an address such as wake@example.com or Wake-Up Call <wake@example.com>`,
    );
  }
  return Object.freeze({ provider, smtp: Object.freeze({ url, from }) });
}

/** The relay without its password, for log lines: `smtp://user@host:port`. */
export function describeSmtp(smtp: SmtpConfig): string {
  const u = new URL(smtp.url);
  const user = u.username ? `${decodeURIComponent(u.username)}@` : '';
  return `${u.protocol}//${user}${u.host}`;
}
