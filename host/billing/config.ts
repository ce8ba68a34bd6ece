/**
 * Billing configuration: the plan catalogue, the payment provider (the built-in simulator or
 * a Stripe-compatible REST API), the web checkout switch and the in-app-purchase provider (a
 * RevenueCat-style REST API). Parsed once by {@link loadBillingConfig} (called from
 * `host/config.ts`); {@link BILLING_ENV_VARS} documents every variable for docs/operations/configuration.md.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { DEFAULT_PLANS, parsePlans, type CatalogPlan } from './plans.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A Stripe-compatible payment provider. */
export interface StripeConfig {
  /** Secret API key (`sk_...`). */
  secretKey: string;
  /** REST API root. @default 'https://api.stripe.com' */
  apiUrl: string;
  /** Provider price id of each purchasable plan code. */
  prices: Readonly<Record<string, string>>;
}

/** A RevenueCat-style in-app-purchase provider. */
export interface InappConfig {
  /** Secret REST API key. */
  apiKey: string;
  /** REST API root. @default 'https://api.revenuecat.com' */
  apiUrl: string;
  /** Plan code of each store product id. */
  products: Readonly<Record<string, string>>;
}

/** The validated billing configuration. */
export interface BillingConfig {
  /** The catalogue. @default DEFAULT_PLANS (env WAKEUP_BILLING_PLANS) */
  readonly plans: readonly CatalogPlan[];
  /**
   * Payment provider: `simulator` (dev mode only; hosted pages under /dev/payments), `stripe`,
   * or `none` (checkout and portal answer 503 provider_unavailable).
   * @default 'simulator' in dev mode, else 'none' (env WAKEUP_PAYMENTS)
   */
  readonly payments: 'simulator' | 'stripe' | 'none';
  /** Set when payments is `stripe`. */
  readonly stripe: StripeConfig | null;
  /**
   * Secret of the signed notifications (`whsec_...`). Required with `stripe`; the simulator
   * makes a random one per process unless set. (env WAKEUP_PAYMENTS_WEBHOOK_SECRET)
   */
  readonly webhookSecret: string;
  /** The one-time web checkout link is offered. @default true with the simulator, else false (env WAKEUP_WEB_CHECKOUT) */
  readonly webCheckout: boolean;
  /** In-app purchase provider, or null when not set up (sync answers 503). (env WAKEUP_INAPP_API_KEY and friends) */
  readonly inapp: InappConfig | null;
}

/** The variables {@link loadBillingConfig} reads, in the order the configuration page lists them. */
export const BILLING_ENV_VARS: ReadonlyArray<{ name: string; default: string; meaning: string }> = [
  {
    name: 'WAKEUP_BILLING_PLANS',
    default: '(built in)',
    meaning:
      'The plan catalogue as a JSON array of `BillingPlan` objects (code, name, price_cents, currency, interval, included_calls_per_period, tier_b_multiplier, purchasable); replaces the defaults.',
  },
  {
    name: 'WAKEUP_PAYMENTS',
    default: '(simulator in dev mode, else none)',
    meaning:
      'Payment provider: `simulator` (dev mode only), `stripe` (a Stripe-compatible REST API) or `none`.',
  },
  {
    name: 'WAKEUP_PAYMENTS_WEBHOOK_SECRET',
    default: '(random, simulator)',
    meaning:
      'Signing secret of the payment notifications sent to `POST /webhooks/payments` (required with `stripe`).',
  },
  {
    name: 'WAKEUP_STRIPE_SECRET_KEY',
    default: '',
    meaning: 'Secret API key of the Stripe-compatible provider (required with `stripe`).',
  },
  {
    name: 'WAKEUP_STRIPE_API_URL',
    default: 'https://api.stripe.com',
    meaning: 'REST API root of the Stripe-compatible provider.',
  },
  {
    name: 'WAKEUP_STRIPE_PRICES',
    default: '',
    meaning:
      'Price id of each purchasable plan: `traveler_monthly=price_123,traveler_yearly=price_456,...` (required with `stripe`).',
  },
  {
    name: 'WAKEUP_WEB_CHECKOUT',
    default: '(1 with the simulator, else 0)',
    meaning:
      'Offer the one-time web checkout link (`POST /billing/web-checkout`, pages under `/app/subscribe`).',
  },
  {
    name: 'WAKEUP_INAPP_API_KEY',
    default: '',
    meaning:
      'Secret REST key of the in-app-purchase provider (RevenueCat-style); unset: in-app sync answers 503.',
  },
  {
    name: 'WAKEUP_INAPP_API_URL',
    default: 'https://api.revenuecat.com',
    meaning: 'REST API root of the in-app-purchase provider.',
  },
  {
    name: 'WAKEUP_INAPP_PRODUCTS',
    default: '',
    meaning: 'Plan code of each store product id: `com.example.monthly=traveler_monthly,...`.',
  },
];

function value(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function pairs(env: Env, name: string, fail: (m: string) => Error): Record<string, string> {
  const out: Record<string, string> = {};
  const raw = value(env, name);
  if (raw === undefined) return out;
  for (const part of raw.split(',')) {
    const m = /^\s*([^=\s]+)\s*=\s*([^=\s]+)\s*$/.exec(part);
    if (!m) throw fail(`${name}: expected key=value pairs separated by commas, got "${part}"`);
    out[m[1]!] = m[2]!;
  }
  return out;
}

function url(env: Env, name: string, fallback: string, fail: (m: string) => Error): string {
  const raw = value(env, name) ?? fallback;
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw fail(`${name}=${raw}: expected an http or https URL`);
  }
  return raw.replace(/\/+$/, '');
}

/** Parses and validates the billing variables. `dev` is the server's dev mode. */
export function loadBillingConfig(
  env: Env,
  dev: boolean,
  fail: (message: string) => Error,
): BillingConfig {
  let plans: readonly CatalogPlan[] = DEFAULT_PLANS;
  const plansRaw = value(env, 'WAKEUP_BILLING_PLANS');
  if (plansRaw !== undefined) {
    const parsed = parsePlans(plansRaw);
    if (typeof parsed === 'string') throw fail(`WAKEUP_BILLING_PLANS: ${parsed}`);
    plans = Object.freeze(parsed);
  }
  const payments = value(env, 'WAKEUP_PAYMENTS') ?? (dev ? 'simulator' : 'none');
  if (payments !== 'simulator' && payments !== 'stripe' && payments !== 'none') {
    throw fail(`WAKEUP_PAYMENTS=${payments}: expected simulator, stripe or none`);
  }
  if (payments === 'simulator' && !dev) {
    throw fail(
      'WAKEUP_PAYMENTS=simulator needs dev mode (WAKEUP_DEV=1): anyone could "pay" on its pages',
    );
  }
  let stripe: StripeConfig | null = null;
  let webhookSecret = value(env, 'WAKEUP_PAYMENTS_WEBHOOK_SECRET');
  if (payments === 'stripe') {
    const secretKey = value(env, 'WAKEUP_STRIPE_SECRET_KEY');
    if (!secretKey) throw fail('WAKEUP_PAYMENTS=stripe needs WAKEUP_STRIPE_SECRET_KEY');
    if (!webhookSecret)
      throw fail(
        'WAKEUP_PAYMENTS=stripe needs WAKEUP_PAYMENTS_WEBHOOK_SECRET (the endpoint signing secret)',
      );
    const prices = pairs(env, 'WAKEUP_STRIPE_PRICES', fail);
    for (const p of plans) {
      if (p.purchasable && !prices[p.code])
        throw fail(`WAKEUP_STRIPE_PRICES: no price id for the purchasable plan ${p.code}`);
    }
    stripe = {
      secretKey,
      apiUrl: url(env, 'WAKEUP_STRIPE_API_URL', 'https://api.stripe.com', fail),
      prices: Object.freeze(prices),
    };
  }
  webhookSecret ??= 'whsec_sim_' + randomBytes(24).toString('hex');
  const webRaw = value(env, 'WAKEUP_WEB_CHECKOUT');
  if (webRaw !== undefined && !['0', '1', 'true', 'false'].includes(webRaw))
    throw fail(`WAKEUP_WEB_CHECKOUT=${webRaw}: expected 1 or 0`);
  const webCheckout =
    webRaw === undefined ? payments === 'simulator' : webRaw === '1' || webRaw === 'true';
  const inappKey = value(env, 'WAKEUP_INAPP_API_KEY');
  const products = pairs(env, 'WAKEUP_INAPP_PRODUCTS', fail);
  for (const [product, code] of Object.entries(products)) {
    if (!plans.some((p) => p.code === code))
      throw fail(`WAKEUP_INAPP_PRODUCTS: ${product} maps to ${code}, which is not a plan`);
  }
  const inapp: InappConfig | null = inappKey
    ? {
        apiKey: inappKey,
        apiUrl: url(env, 'WAKEUP_INAPP_API_URL', 'https://api.revenuecat.com', fail),
        products: Object.freeze(products),
      }
    : null;
  return Object.freeze({ plans, payments, stripe, webhookSecret, webCheckout, inapp });
}
