/**
 * Phone configuration: which telephony and text providers run, the numbers the service
 * calls from, and the words texts use. Parsed once from the environment by
 * {@link loadPhoneConfig} (called from `host/config.ts`); {@link PHONE_ENV_VARS} documents
 * every variable for docs/operations/configuration.md.
 * @module
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** A configuration value that cannot be used; the message names the variable. */
export class PhoneConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Makes the error thrown for a bad value (the host passes its own ConfigError). */
export type ConfigErrorFactory = (message: string) => Error;

/** Credentials and endpoint of a Twilio-compatible provider. */
export interface TwilioConfig {
  accountSid: string;
  authToken: string;
  /** REST API root. */
  apiUrl: string;
  /** Caller id for calls and sender for texts (E.164), unless `smsFrom` says otherwise. */
  from: string;
  /** Sender for texts: an E.164 number or a messaging service id (MG...). */
  smsFrom: string;
}

/** One limit window: at most `limit` codes per `windowSeconds`. */
export interface CodeLimit {
  limit: number;
  windowSeconds: number;
}

/** Code-send limits per number, per account and per client IP (host/phone/limits.ts). */
export interface CodeLimits {
  number: readonly CodeLimit[];
  account: readonly CodeLimit[];
  ip: readonly CodeLimit[];
}

/** The validated phone configuration. */
export interface PhoneConfig {
  /** Voice calls: the built-in simulator, or a Twilio-compatible provider. @default 'simulator' (env WAKEUP_TELEPHONY) */
  readonly telephony: 'simulator' | 'twilio';
  /** Texts: the built-in outbox simulator, or a Twilio-compatible provider. @default 'simulator' (env WAKEUP_SMS) */
  readonly sms: 'simulator' | 'twilio';
  /** Set when either provider is `twilio`. */
  readonly twilio: TwilioConfig | null;
  /**
   * Every number the service calls from, in the contact card; the first is the simulator's
   * caller id. @default the Twilio `from` number, else '+12025550100' (env WAKEUP_CALLER_IDS)
   */
  readonly callerIds: readonly string[];
  /** Name used in texts, spoken calls and the contact card. @default 'Wake-Up Call' (env WAKEUP_SERVICE_NAME) */
  readonly serviceName: string;
  /** What HELP points to (an address or a page); null: the site URL. (env WAKEUP_SUPPORT_CONTACT) */
  readonly supportContact: string | null;
  /**
   * Verification codes sent, per number / account / client IP.
   * @default 5/h,10/d · 10/h,20/d · 20/h (env WAKEUP_CODE_LIMIT_NUMBER, _ACCOUNT, _IP)
   */
  readonly codeLimits: CodeLimits;
}

/** One documented variable (same shape as `host/config.ts`'s). */
export interface PhoneEnvVarDoc {
  name: string;
  default: string;
  meaning: string;
}

/** The variables {@link loadPhoneConfig} reads, in the order the configuration page lists them. */
export const PHONE_ENV_VARS: readonly PhoneEnvVarDoc[] = [
  {
    name: 'WAKEUP_TELEPHONY',
    default: 'simulator',
    meaning:
      'Voice calls: `simulator` (built in, plays the `PUT /dev/phones` behaviours) or `twilio` (a Twilio-compatible REST API).',
  },
  {
    name: 'WAKEUP_SMS',
    default: 'simulator',
    meaning: 'Texts: `simulator` (the outbox, `GET /dev/outbox`) or `twilio`.',
  },
  {
    name: 'WAKEUP_TWILIO_ACCOUNT_SID',
    default: '(none)',
    meaning: 'Provider account id; required when either provider is `twilio`.',
  },
  {
    name: 'WAKEUP_TWILIO_AUTH_TOKEN',
    default: '(none)',
    meaning: 'Provider auth token (also the webhook signing key); required with `twilio`.',
  },
  {
    name: 'WAKEUP_TWILIO_API_URL',
    default: 'https://api.twilio.com',
    meaning: 'REST API root of the Twilio-compatible provider.',
  },
  {
    name: 'WAKEUP_TWILIO_FROM',
    default: '(none)',
    meaning:
      'E.164 number calls come from (and texts, unless `WAKEUP_TWILIO_SMS_FROM`); required with `twilio`.',
  },
  {
    name: 'WAKEUP_TWILIO_SMS_FROM',
    default: '(WAKEUP_TWILIO_FROM)',
    meaning: 'Text sender: an E.164 number or a messaging service id (`MG…`).',
  },
  {
    name: 'WAKEUP_CALLER_IDS',
    default: '(WAKEUP_TWILIO_FROM, else +12025550100)',
    meaning:
      'Comma-separated E.164 numbers the service calls from, listed in `GET /contact-card.vcf`.',
  },
  {
    name: 'WAKEUP_CODE_LIMIT_NUMBER',
    default: '5/h,10/d',
    meaning:
      'Verification codes (texts or calls) sent to one number: comma-separated `<count>/<h|d>` windows.',
  },
  {
    name: 'WAKEUP_CODE_LIMIT_ACCOUNT',
    default: '10/h,20/d',
    meaning: 'Verification codes one account may have sent, same syntax.',
  },
  {
    name: 'WAKEUP_CODE_LIMIT_IP',
    default: '20/h',
    meaning: 'Verification codes requested from one client IP, same syntax.',
  },
  {
    name: 'WAKEUP_SERVICE_NAME',
    default: 'Wake-Up Call',
    meaning: 'Name used in texts, spoken calls and the contact card.',
  },
  {
    name: 'WAKEUP_SUPPORT_CONTACT',
    default: '(the site URL)',
    meaning: 'Where the answer to HELP points (an address or a page).',
  },
];

type Env = Readonly<Record<string, string | undefined>>;

const value = (env: Env, name: string): string | undefined => {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
};

/**
 * Parses and validates the phone variables.
 * @throws the error `fail` makes (a {@link PhoneConfigError} by default), naming the variable at fault.
 */
export function loadPhoneConfig(
  env: Env,
  fail: ConfigErrorFactory = (m) => new PhoneConfigError(m),
): PhoneConfig {
  const e164 = (name: string, v: string): string => {
    const p = parsePhoneNumberFromString(v);
    if (!/^\+[1-9]\d{1,14}$/.test(v) || !p?.isValid())
      throw fail(`${name}=${v}: expected an E.164 number such as +12025550100`);
    return v;
  };
  const choice = <T extends string>(name: string, options: readonly T[], fallback: T): T => {
    const v = value(env, name) ?? fallback;
    if (!options.includes(v as T)) throw fail(`${name}=${v}: expected ${options.join(' or ')}`);
    return v as T;
  };
  const telephony = choice('WAKEUP_TELEPHONY', ['simulator', 'twilio'] as const, 'simulator');
  const sms = choice('WAKEUP_SMS', ['simulator', 'twilio'] as const, 'simulator');
  let twilio: TwilioConfig | null = null;
  if (telephony === 'twilio' || sms === 'twilio') {
    const need = (name: string) => {
      const v = value(env, name);
      if (!v) throw fail(`${name} is required when WAKEUP_TELEPHONY or WAKEUP_SMS is twilio`);
      return v;
    };
    const apiUrl = value(env, 'WAKEUP_TWILIO_API_URL') ?? 'https://api.twilio.com';
    try {
      const u = new URL(apiUrl);
      if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('scheme');
    } catch {
      throw fail(`WAKEUP_TWILIO_API_URL=${apiUrl}: expected an http(s) URL`);
    }
    const from = e164('WAKEUP_TWILIO_FROM', need('WAKEUP_TWILIO_FROM'));
    const smsFromRaw = value(env, 'WAKEUP_TWILIO_SMS_FROM');
    const smsFrom =
      smsFromRaw === undefined
        ? from
        : /^MG[0-9a-f]{32}$/i.test(smsFromRaw)
          ? smsFromRaw
          : e164('WAKEUP_TWILIO_SMS_FROM', smsFromRaw);
    twilio = {
      accountSid: need('WAKEUP_TWILIO_ACCOUNT_SID'),
      authToken: need('WAKEUP_TWILIO_AUTH_TOKEN'),
      apiUrl: apiUrl.replace(/\/+$/, ''),
      from,
      smsFrom,
    };
  }
  const idsRaw = value(env, 'WAKEUP_CALLER_IDS');
  const callerIds = idsRaw
    ? idsRaw.split(',').map((s) => e164('WAKEUP_CALLER_IDS', s.trim()))
    : [twilio && telephony === 'twilio' ? twilio.from : '+12025550100'];
  const serviceName = value(env, 'WAKEUP_SERVICE_NAME') ?? 'Wake-Up Call';
  if (serviceName.length > 30 || !/^[\p{L}\p{Nd} .'&-]+$/u.test(serviceName)) {
    throw fail(
      `WAKEUP_SERVICE_NAME=${serviceName}: at most 30 letters, digits, spaces and . ' & -`,
    );
  }
  const limits = (name: string, fallback: string): CodeLimit[] => {
    const raw = value(env, name) ?? fallback;
    return raw.split(',').map((part) => {
      const m = /^\s*(\d{1,6})\s*\/\s*([hd])\s*$/.exec(part);
      if (!m || Number(m[1]) < 1)
        throw fail(
          `${name}=${raw}: expected windows like 5/h,10/d (count at least 1, h = hour, d = day)`,
        );
      return { limit: Number(m[1]), windowSeconds: m[2] === 'h' ? 3600 : 86_400 };
    });
  };
  const codeLimits: CodeLimits = {
    number: limits('WAKEUP_CODE_LIMIT_NUMBER', '5/h,10/d'),
    account: limits('WAKEUP_CODE_LIMIT_ACCOUNT', '10/h,20/d'),
    ip: limits('WAKEUP_CODE_LIMIT_IP', '20/h'),
  };
  return Object.freeze({
    codeLimits,
    telephony,
    sms,
    twilio,
    callerIds: Object.freeze(callerIds),
    serviceName,
    supportContact: value(env, 'WAKEUP_SUPPORT_CONTACT') ?? null,
  });
}
