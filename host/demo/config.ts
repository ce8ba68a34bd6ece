/**
 * Demo configuration: the daily caps on demo codes (each code is a paid text to a stranger).
 * Parsed once from the environment by {@link loadDemoConfig} (called from `host/config.ts`);
 * {@link DEMO_ENV_VARS} documents the variables for docs/operations/configuration.md. The spec's fixed limits
 * (3 starts an hour per client address, 2 codes a day per number, 1 call a day per number,
 * 5 wrong codes) are constants in `./rules.ts`.
 * @module
 */

/** The validated demo configuration. */
export interface DemoConfig {
  /**
   * Demo codes texted per UTC day across all numbers; 0 turns the demo off
   * (403 demo_not_available). @default 200 (env WAKEUP_DEMO_DAILY_CAP)
   */
  readonly dailyCap: number;
  /**
   * Demo codes texted per UTC day to numbers of one country calling code (`+1`, `+44`, ...).
   * @default 50 (env WAKEUP_DEMO_PREFIX_DAILY_CAP)
   */
  readonly prefixDailyCap: number;
}

/** One documented variable (same shape as `host/config.ts`'s). */
export interface DemoEnvVarDoc {
  name: string;
  default: string;
  meaning: string;
}

/** The variables {@link loadDemoConfig} reads, in the order the configuration page lists them. */
export const DEMO_ENV_VARS: readonly DemoEnvVarDoc[] = [
  {
    name: 'WAKEUP_DEMO_DAILY_CAP',
    default: '200',
    meaning: 'Demo codes texted per UTC day, all numbers together; `0` turns the public demo off.',
  },
  {
    name: 'WAKEUP_DEMO_PREFIX_DAILY_CAP',
    default: '50',
    meaning:
      'Demo codes texted per UTC day to the numbers of one country calling code (`+1`, `+44`, ...).',
  },
];

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Parses and validates the demo variables.
 * @throws the error `fail` makes, naming the variable at fault.
 */
export function loadDemoConfig(env: Env, fail: (message: string) => Error): DemoConfig {
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const v = env[name]?.trim();
    if (v === undefined || v === '') return fallback;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
      throw fail(`${name}=${v}: expected an integer from ${min} to ${max}`);
    return Number(v);
  };
  return Object.freeze({
    dailyCap: integer('WAKEUP_DEMO_DAILY_CAP', 200, 0, 1_000_000),
    prefixDailyCap: integer('WAKEUP_DEMO_PREFIX_DAILY_CAP', 50, 1, 1_000_000),
  });
}
