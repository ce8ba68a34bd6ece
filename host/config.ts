/**
 * Host configuration: every environment variable the server reads, parsed and validated once.
 *
 * `host/main.ts` is the only file that touches `process.env`; it hands the environment to
 * {@link loadConfig}, which returns a frozen {@link HostConfig} or throws a {@link ConfigError}
 * naming the variable at fault. Tests call {@link loadConfig} with a plain object.
 *
 * docs/operations/configuration.md is generated from {@link ENV_VARS} by
 * test/docs/configuration-doc.ts; test/docs/configuration-doc.test.ts keeps the two equal.
 * @module
 */

import { loadPhoneConfig, PHONE_ENV_VARS, type PhoneConfig } from './phone/config.js';
import { BILLING_ENV_VARS, loadBillingConfig, type BillingConfig } from './billing/config.js';
import { DEMO_ENV_VARS, loadDemoConfig, type DemoConfig } from './demo/config.js';
import { CONTACTS_ENV_VARS, loadContactsConfig, type ContactsConfig } from './contacts/config.js';
import { loadWebhookConfig, WEBHOOK_ENV_VARS, type WebhookConfig } from './webhooks/config.js';
import { IDP_ENV_VARS, loadIdpConfig, type IdpConfig } from './adapters/idp/config.js';
import { EMAIL_ENV_VARS, loadEmailConfig, type EmailConfig } from './adapters/email/config.js';

/** A configuration value that cannot be used; the message names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Log levels pino understands, plus `silent`. */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** The validated configuration of one server process. */
export interface HostConfig {
  /** Listen address. @default '127.0.0.1' (env HOST) */
  readonly host: string;
  /** Listen port; 0 picks a free port (tests). @default 8080 (env PORT) */
  readonly port: number;
  /**
   * SQLite file (its folder is created), or a `postgres://` / `postgresql://` URL for PostgreSQL
   * (host/db/open.ts). @default './data/wakeup.sqlite' (env WAKEUP_DB)
   */
  readonly dbFile: string;
  /**
   * On PostgreSQL, how long a host's claim on due work lasts: a host that dies leaves its
   * claimed calls to the others after this long. Ignored on SQLite (one process).
   * @default 30 (env WAKEUP_LEASE_SECONDS)
   */
  readonly leaseSeconds: number;
  /**
   * Requests to the telephony provider to place a call that may be in flight at once (the rest
   * wait in line, first in, first out): set it to what your provider account takes.
   * @default 256 (env WAKEUP_CALLS_IN_FLIGHT)
   */
  readonly callsInFlight: number;
  /**
   * Calls this host places per second at most: the provider account's rate (Twilio: 1 per
   * second per account unless raised, `TWILIO_DEFAULT_LIMITS` in host/adapters/twilio/telephony.ts),
   * or this host's share of it when several hosts share the account. Due calls are placed in
   * due order at exactly this rate, never before their instant. Null: no limit.
   * @default null (env WAKEUP_CALLS_PER_SECOND)
   */
  readonly callsPerSecond: number | null;
  /**
   * Dev mode: mounts the `/dev` endpoints and prints sign-in codes in the log. On unless
   * `WAKEUP_DEV=0`; a dev-mode server binds loopback addresses only.
   * @default true (env WAKEUP_DEV)
   */
  readonly dev: boolean;
  /** Whether dev mode was chosen by default (no WAKEUP_DEV set), for the first log lines. */
  readonly devByDefault: boolean;
  /** Service clock. `virtual` needs dev mode. @default 'system' (env WAKEUP_CLOCK) */
  readonly clock: 'system' | 'virtual';
  /** Start instant of a virtual clock (epoch ms), or null: the real now, or the saved virtual time when later (env WAKEUP_CLOCK_START). */
  readonly clockStart: number | null;
  /**
   * Proxy hops trusted in front of the server: 0 means the socket address is the client's;
   * N >= 1 takes the Nth address from the right of X-Forwarded-For (1: the address the
   * nearest proxy saw), so that entries a client writes further left change nothing.
   * @default 0 (env WAKEUP_TRUST_PROXY)
   */
  readonly trustProxy: number;
  /**
   * Every per-IP window (the general limit, sign-in codes, texts, the demo) counts an IPv6
   * client by this network prefix, since one subscriber holds a whole /64 (or /56).
   * @default 64 (env WAKEUP_IPV6_PREFIX)
   */
  readonly ipv6Prefix: number;
  /** Calls placed per account per UTC day. @default 20 (env WAKEUP_DAILY_CAP) */
  readonly dailyCap: number;
  /** General limit: requests per account per 60 s. @default 120 (env WAKEUP_RATE_LIMIT_ACCOUNT) */
  readonly rateLimitAccount: number;
  /** General limit: requests per client IP per 60 s. @default 300 (env WAKEUP_RATE_LIMIT_IP) */
  readonly rateLimitIp: number;
  /** Sign-in code emails per client address per hour. @default 20 (env WAKEUP_SIGN_IN_CODES_PER_CLIENT) */
  readonly signInCodesPerClient: number;
  /** Sign-in code checks per client address per minute. @default 30 (env WAKEUP_SIGN_IN_CHECKS_PER_CLIENT) */
  readonly signInChecksPerClient: number;
  /** @default 'info' (env WAKEUP_LOG_LEVEL) */
  readonly logLevel: LogLevel;
  /** Human-readable logs; default: when stdout is a terminal (env WAKEUP_LOG_PRETTY). */
  readonly logPretty: boolean | null;
  /**
   * Public origin of the site, used in links such as problem `type`
   * (`{site}/docs/errors#code`); null means `http://HOST:PORT` as bound (env WAKEUP_SITE_URL).
   * Cookies get the Secure flag from the request itself (https, or X-Forwarded-Proto https
   * with WAKEUP_TRUST_PROXY=1).
   */
  readonly siteUrl: string | null;
  /** Largest accepted request body in bytes. @default 1048576 (1 MiB) (env WAKEUP_MAX_BODY_BYTES) */
  readonly maxBodyBytes: number;
  /** Seconds to let in-flight requests finish after SIGTERM. @default 10 (env WAKEUP_SHUTDOWN_GRACE_SECONDS) */
  readonly shutdownGraceSeconds: number;
  /** Telephony and text providers, caller ids, service name (host/phone/config.ts). */
  readonly phone: PhoneConfig;
  /** Plans, payment provider, web checkout, in-app purchases (host/billing/config.ts). */
  readonly billing: BillingConfig;
  /** Daily caps of the public demo (host/demo/config.ts). */
  readonly demo: DemoConfig;
  /** Contacts to tell: how many per account, texts per day (host/contacts/config.ts). */
  readonly contacts: ContactsConfig;
  /** Targets outbound webhook endpoints may reach (host/webhooks/config.ts). */
  readonly webhooks: WebhookConfig;
  /** Identity provider for POST /me/idp-authorization; null when none (host/adapters/idp/config.ts). */
  readonly idp: IdpConfig | null;
  /** Email provider: the outbox simulator (dev mode only) or SMTP (host/adapters/email/config.ts). */
  readonly email: EmailConfig;
  /** Bearer token GET /metrics asks for; null: /metrics is open (env WAKEUP_METRICS_TOKEN). */
  readonly metricsToken: string | null;
  /** Who may read `/api/v1/ops/…` and act on it (docs/operations/operator-view.md). */
  readonly operators: OperatorConfig;
}

/** The operators and the objective the operator's view measures lateness against. */
export interface OperatorConfig {
  /** Accounts (emails, lower case) that read the ops endpoints and act on them. (env WAKEUP_OPERATOR_EMAILS) */
  readonly emails: readonly string[];
  /** Accounts that read the ops endpoints only. (env WAKEUP_OPERATOR_READONLY_EMAILS) */
  readonly readonlyEmails: readonly string[];
  /** Lateness objective: the share of calls (percent) placed within `objectiveSeconds`. @default 95 (env WAKEUP_LATENESS_OBJECTIVE_PERCENT) */
  readonly objectivePercent: number;
  /** Seconds after its instant within which a call is on time; also the forecast's warning. @default 30 (env WAKEUP_LATENESS_OBJECTIVE_SECONDS) */
  readonly objectiveSeconds: number;
}

/** One documented variable: name, default as the configuration page shows it, and meaning. */
export interface EnvVarDoc {
  name: string;
  default: string;
  meaning: string;
}

/** Every variable {@link loadConfig} reads, in the order docs/operations/configuration.md lists them. */
export const ENV_VARS: readonly EnvVarDoc[] = [
  {
    name: 'HOST',
    default: '127.0.0.1',
    meaning: 'Listen address. Dev mode accepts loopback addresses only.',
  },
  { name: 'PORT', default: '8080', meaning: 'Listen port (0 picks a free one).' },
  {
    name: 'WAKEUP_DB',
    default: './data/wakeup.sqlite',
    meaning:
      'SQLite database file (the folder is created), or a postgres:// / postgresql:// URL for PostgreSQL. Migrated at start.',
  },
  {
    name: 'WAKEUP_LEASE_SECONDS',
    default: '30',
    meaning:
      'PostgreSQL only: how long a host holds the due calls it claimed; when a host dies, the others take its calls after this long (3 to 3600).',
  },
  {
    name: 'WAKEUP_CALLS_IN_FLIGHT',
    default: '256',
    meaning:
      'Requests to place a call that may await the telephony provider at once, per host (1 to 10000); the rest wait in line. Lower it to what your provider account takes: past it, answers come after the client timeout.',
  },
  {
    name: 'WAKEUP_CALLS_PER_SECOND',
    default: '(no limit)',
    meaning:
      "Calls placed per second at most, per host: the provider account's rate (Twilio's default is 1 per account unless raised), or each host's share of it with several hosts. Due calls go in due order at exactly this rate, never early; `admin spike` projects the lateness it implies (0.01 to 10000, decimals allowed).",
  },
  {
    name: 'WAKEUP_DEV',
    default: '1',
    meaning:
      'Dev mode: `/dev` endpoints on, sign-in codes in the log, loopback only. Set `0` in production.',
  },
  {
    name: 'WAKEUP_CLOCK',
    default: 'system',
    meaning: '`system` or `virtual` (dev mode only: time moves only through `POST /dev/clock`).',
  },
  {
    name: 'WAKEUP_CLOCK_START',
    default: '(real now)',
    meaning:
      'Start instant of the virtual clock, e.g. `2027-03-14T06:00:00Z`. Unset: the real now, or the time the last run stopped at when that is later (the virtual clock keeps its time across a restart).',
  },
  {
    name: 'WAKEUP_TRUST_PROXY',
    default: '0',
    meaning:
      '`N` (1 or more): N proxies of your own in front: the client IP is the Nth address from the right of `X-Forwarded-For` (`1`: the address the nearest proxy saw; entries a client writes further left change nothing) for rate limits, and `X-Forwarded-Proto: https` makes cookies Secure. `0`: the socket address.',
  },
  {
    name: 'WAKEUP_IPV6_PREFIX',
    default: '64',
    meaning:
      'Prefix length (32 to 64) by which every per-IP limit counts an IPv6 client: all its addresses in one /64 count as one client; `56` where providers give each subscriber a /56. IPv4 addresses count one by one.',
  },
  { name: 'WAKEUP_DAILY_CAP', default: '20', meaning: 'Calls placed per account per UTC day.' },
  {
    name: 'WAKEUP_RATE_LIMIT_ACCOUNT',
    default: '120',
    meaning: 'General limit: API requests per account per 60 s.',
  },
  {
    name: 'WAKEUP_RATE_LIMIT_IP',
    default: '300',
    meaning: 'General limit: API requests per client IP per 60 s.',
  },
  {
    name: 'WAKEUP_SIGN_IN_CODES_PER_CLIENT',
    default: '20',
    meaning:
      'Sign-in code emails per client IP per hour, whatever the addresses (on top of 5 per address).',
  },
  {
    name: 'WAKEUP_SIGN_IN_CHECKS_PER_CLIENT',
    default: '30',
    meaning: 'Sign-in code checks per client IP per minute.',
  },
  {
    name: 'WAKEUP_LOG_LEVEL',
    default: 'info',
    meaning: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`.',
  },
  {
    name: 'WAKEUP_LOG_PRETTY',
    default: '(auto)',
    meaning: '`1` readable logs, `0` JSON lines; default: readable when stdout is a terminal.',
  },
  {
    name: 'WAKEUP_SITE_URL',
    default: '(http://HOST:PORT)',
    meaning: 'Public origin, used in links such as problem `type` (`{site}/docs/errors#code`).',
  },
  {
    name: 'WAKEUP_MAX_BODY_BYTES',
    default: '1048576',
    meaning: 'Largest accepted request body (larger gives 413 payload_too_large).',
  },
  {
    name: 'WAKEUP_SHUTDOWN_GRACE_SECONDS',
    default: '10',
    meaning: 'Time in-flight requests get to finish after SIGTERM/SIGINT.',
  },
  ...PHONE_ENV_VARS,
  ...EMAIL_ENV_VARS,
  ...BILLING_ENV_VARS,
  ...DEMO_ENV_VARS,
  ...CONTACTS_ENV_VARS,
  ...WEBHOOK_ENV_VARS,
  ...IDP_ENV_VARS,
  {
    name: 'WAKEUP_METRICS_TOKEN',
    default: '(none)',
    meaning:
      'When set, `GET /metrics` asks for `Authorization: Bearer <token>` (401 without it); unset: open.',
  },
  {
    name: 'WAKEUP_OPERATOR_EMAILS',
    default: '(none)',
    meaning:
      'Comma-separated emails of the accounts that are operators: they read `/api/v1/ops/…` and the web page `#/ops`, act there (block a number, cancel a call, turn a webhook endpoint back on, redeliver), and create API keys with scope `ops`.',
  },
  {
    name: 'WAKEUP_OPERATOR_READONLY_EMAILS',
    default: '(none)',
    meaning:
      'Comma-separated emails of read-only operators: they read `/api/v1/ops/…` and `#/ops` but take no action there.',
  },
  {
    name: 'WAKEUP_LATENESS_OBJECTIVE_PERCENT',
    default: '95',
    meaning:
      'Lateness objective of the operator view: this share of calls (1 to 100) placed within WAKEUP_LATENESS_OBJECTIVE_SECONDS.',
  },
  {
    name: 'WAKEUP_LATENESS_OBJECTIVE_SECONDS',
    default: '30',
    meaning:
      'Seconds after its instant within which a call counts as on time (1 to 3600); the forecast warns of minutes whose last call rings later.',
  },
];

type Env = Readonly<Record<string, string | undefined>>;

const LOG_LEVELS: readonly LogLevel[] = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
];

/**
 * Parses and validates the environment.
 * @throws ConfigError naming the variable and the accepted values.
 */
export function loadConfig(env: Env): HostConfig {
  const devRaw = value(env, 'WAKEUP_DEV');
  const dev = devRaw === undefined ? true : flag(env, 'WAKEUP_DEV', false);
  const host = value(env, 'HOST') ?? '127.0.0.1';
  if (dev && !isLoopback(host)) {
    throw new ConfigError(
      `HOST=${host}: dev mode (WAKEUP_DEV=1, the default) binds loopback addresses only, because /dev/outbox shows ` +
        'sign-in codes. Use HOST=127.0.0.1, or set WAKEUP_DEV=0 to run in production mode.',
    );
  }
  const clockRaw = value(env, 'WAKEUP_CLOCK') ?? 'system';
  if (clockRaw !== 'system' && clockRaw !== 'virtual') {
    throw new ConfigError(`WAKEUP_CLOCK=${clockRaw}: expected system or virtual`);
  }
  if (clockRaw === 'virtual' && !dev) {
    throw new ConfigError('WAKEUP_CLOCK=virtual needs dev mode (WAKEUP_DEV=1)');
  }
  const startRaw = value(env, 'WAKEUP_CLOCK_START');
  let clockStart: number | null = null;
  if (startRaw !== undefined) {
    if (clockRaw !== 'virtual')
      throw new ConfigError('WAKEUP_CLOCK_START applies only with WAKEUP_CLOCK=virtual');
    if (
      !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/.test(startRaw) ||
      !Number.isFinite(Date.parse(startRaw))
    ) {
      throw new ConfigError(
        `WAKEUP_CLOCK_START=${startRaw}: expected a UTC instant such as 2027-03-14T06:00:00Z`,
      );
    }
    clockStart = Date.parse(startRaw);
  }
  const logLevel = (value(env, 'WAKEUP_LOG_LEVEL') ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`WAKEUP_LOG_LEVEL=${logLevel}: expected one of ${LOG_LEVELS.join(', ')}`);
  }
  const prettyRaw = value(env, 'WAKEUP_LOG_PRETTY');
  const siteRaw = value(env, 'WAKEUP_SITE_URL');
  let siteUrl: string | null = null;
  if (siteRaw !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(siteRaw);
    } catch {
      throw new ConfigError(`WAKEUP_SITE_URL=${siteRaw}: not a URL`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new ConfigError(`WAKEUP_SITE_URL=${siteRaw}: expected an http or https origin`);
    }
    siteUrl = parsed.origin;
  }
  const email = loadEmailConfig(env, (message) => new ConfigError(message));
  if (!dev && email.provider === 'simulator') {
    throw new ConfigError(
      'WAKEUP_DEV=0 needs a real email provider, or nobody can sign in (codes would go only to the simulated outbox): ' +
        'set WAKEUP_EMAIL=smtp, WAKEUP_SMTP_URL=smtp://user:password@host:587 and WAKEUP_EMAIL_FROM (see docs/operations/production.md).',
    );
  }
  const metricsToken = value(env, 'WAKEUP_METRICS_TOKEN') ?? null;
  if (metricsToken !== null && !/^[\x21-\x7e]{16,200}$/.test(metricsToken)) {
    throw new ConfigError(
      'WAKEUP_METRICS_TOKEN: expected 16 to 200 printable characters without spaces',
    );
  }
  return Object.freeze({
    host,
    port: integer(env, 'PORT', 8080, 0, 65535),
    dbFile: value(env, 'WAKEUP_DB') ?? './data/wakeup.sqlite',
    leaseSeconds: integer(env, 'WAKEUP_LEASE_SECONDS', 30, 3, 3600),
    callsInFlight: integer(env, 'WAKEUP_CALLS_IN_FLIGHT', 256, 1, 10_000),
    callsPerSecond: rate(env, 'WAKEUP_CALLS_PER_SECOND'),
    dev,
    devByDefault: devRaw === undefined,
    clock: clockRaw,
    clockStart,
    trustProxy: trustProxy(env),
    ipv6Prefix: integer(env, 'WAKEUP_IPV6_PREFIX', 64, 32, 64),
    dailyCap: integer(env, 'WAKEUP_DAILY_CAP', 20, 0, 100_000),
    rateLimitAccount: integer(env, 'WAKEUP_RATE_LIMIT_ACCOUNT', 120, 1, 1_000_000),
    rateLimitIp: integer(env, 'WAKEUP_RATE_LIMIT_IP', 300, 1, 1_000_000),
    signInCodesPerClient: integer(env, 'WAKEUP_SIGN_IN_CODES_PER_CLIENT', 20, 1, 1_000_000),
    signInChecksPerClient: integer(env, 'WAKEUP_SIGN_IN_CHECKS_PER_CLIENT', 30, 1, 1_000_000),
    logLevel,
    logPretty: prettyRaw === undefined ? null : flag(env, 'WAKEUP_LOG_PRETTY', false),
    siteUrl,
    maxBodyBytes: integer(env, 'WAKEUP_MAX_BODY_BYTES', 1_048_576, 1024, 10 * 1024 * 1024),
    shutdownGraceSeconds: integer(env, 'WAKEUP_SHUTDOWN_GRACE_SECONDS', 10, 0, 600),
    phone: loadPhoneConfig(env, (message) => new ConfigError(message)),
    billing: loadBillingConfig(env, dev, (message) => new ConfigError(message)),
    demo: loadDemoConfig(env, (message) => new ConfigError(message)),
    contacts: loadContactsConfig(env, (message) => new ConfigError(message)),
    webhooks: loadWebhookConfig(env, (message) => new ConfigError(message)),
    idp: loadIdpConfig(env, (message) => new ConfigError(message)),
    email,
    metricsToken,
    operators: operators(env),
  });
}

/** The operator lists (an email in both is a full operator) and the lateness objective. */
function operators(env: Env): OperatorConfig {
  const list = (name: string): string[] => {
    const emails = (value(env, name) ?? '')
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter((e) => e !== '');
    for (const e of emails)
      if (!/^[^\s@]+@[^\s@]+$/.test(e))
        throw new ConfigError(`${name}: ${e} is not an email address`);
    return [...new Set(emails)];
  };
  const emails = list('WAKEUP_OPERATOR_EMAILS');
  const readonlyEmails = list('WAKEUP_OPERATOR_READONLY_EMAILS').filter((e) => !emails.includes(e));
  return Object.freeze({
    emails: Object.freeze(emails),
    readonlyEmails: Object.freeze(readonlyEmails),
    objectivePercent: integer(env, 'WAKEUP_LATENESS_OBJECTIVE_PERCENT', 95, 1, 100),
    objectiveSeconds: integer(env, 'WAKEUP_LATENESS_OBJECTIVE_SECONDS', 30, 1, 3600),
  });
}

/** True for 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopback(host: string): boolean {
  return (
    host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host)
  );
}

function value(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const v = value(env, name);
  if (v === undefined) return fallback;
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  throw new ConfigError(`${name}=${v}: expected 1 or 0`);
}

/** WAKEUP_TRUST_PROXY: a hop count; `true`/`false` are read as 1/0 for older configs. */
function trustProxy(env: Env): number {
  const v = value(env, 'WAKEUP_TRUST_PROXY');
  if (v === 'true') return 1;
  if (v === 'false') return 0;
  return integer(env, 'WAKEUP_TRUST_PROXY', 0, 0, 32);
}

/** A positive rate (decimals allowed), or null when unset. */
function rate(env: Env, name: string): number | null {
  const v = value(env, name);
  if (v === undefined) return null;
  if (!/^\d+(\.\d+)?$/.test(v) || !(Number(v) >= 0.01) || Number(v) > 10_000) {
    throw new ConfigError(`${name}=${v}: expected a number of calls per second from 0.01 to 10000`);
  }
  return Number(v);
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const v = value(env, name);
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
    throw new ConfigError(`${name}=${v}: expected an integer from ${min} to ${max}`);
  }
  return Number(v);
}
