/**
 * Contacts configuration: how many contacts an account may name and how many texts to
 * contacts an account may cause in a UTC day. Parsed once from the environment by
 * {@link loadContactsConfig} (called from `host/config.ts`); {@link CONTACTS_ENV_VARS}
 * documents the variables for docs/operations/configuration.md. The fixed rules (invitation valid 7 days, 5 wrong
 * codes, the catch-up window) are constants in `./rules.ts`.
 * @module
 */

/** The validated contacts configuration. */
export interface ContactsConfig {
  /** Contacts one account may name (more: 409 contact_limit_reached). @default 5 (env WAKEUP_CONTACTS_PER_ACCOUNT) */
  readonly maxPerAccount: number;
  /**
   * Texts to contacts (told of a call) per account per UTC day; past it a text is skipped.
   * 0 tells nobody. @default 10 (env WAKEUP_CONTACT_TEXTS_PER_DAY)
   */
  readonly textsPerDay: number;
}

/** One documented variable (same shape as `host/config.ts`'s). */
export interface ContactsEnvVarDoc {
  name: string;
  default: string;
  meaning: string;
}

/** The variables {@link loadContactsConfig} reads, in the order the configuration page lists them. */
export const CONTACTS_ENV_VARS: readonly ContactsEnvVarDoc[] = [
  {
    name: 'WAKEUP_CONTACTS_PER_ACCOUNT',
    default: '5',
    meaning: 'Contacts to tell one account may name (1 to 20).',
  },
  {
    name: 'WAKEUP_CONTACT_TEXTS_PER_DAY',
    default: '10',
    meaning:
      'Texts to contacts (told that a call went unanswered) per account per UTC day; past it they are skipped. `0` tells nobody.',
  },
];

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Parses and validates the contacts variables.
 * @throws the error `fail` makes, naming the variable at fault.
 */
export function loadContactsConfig(env: Env, fail: (message: string) => Error): ContactsConfig {
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const v = env[name]?.trim();
    if (v === undefined || v === '') return fallback;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
      throw fail(`${name}=${v}: expected an integer from ${min} to ${max}`);
    return Number(v);
  };
  return Object.freeze({
    maxPerAccount: integer('WAKEUP_CONTACTS_PER_ACCOUNT', 5, 1, 20),
    textsPerDay: integer('WAKEUP_CONTACT_TEXTS_PER_DAY', 10, 0, 100_000),
  });
}
