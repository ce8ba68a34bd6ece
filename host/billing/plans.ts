/**
 * The plan catalogue: what GET /billing/plans lists and checkout sells. Plans are
 * configuration (WAKEUP_BILLING_PLANS, a JSON array replacing the defaults below); a bought
 * plan keeps the terms it was bought with (they are copied onto the subscription).
 *
 * Kinds, by `interval`:
 * - `month` / `year`: a subscription; `included_calls_per_period` wake-up calls per billing
 *   period;
 * - `none` with code `trial`: the free trial (contract §4: 7 days, 5 calls), never sold;
 * - `none` otherwise: a call pack, paid once; its calls become credits that never expire and
 *   are used when the subscription's (or the trial's) calls of the period are used up.
 *
 * A call to a Tier B number uses `tier_b_multiplier` included calls (or credits); the trial
 * counts every call as one.
 * @module
 */
import type { BillingPlan } from '../generated/openapi.js';

/** One plan of the catalogue (schema BillingPlan). */
export type CatalogPlan = BillingPlan;

/** The trial's code. */
export const TRIAL_CODE = 'trial';

/** The default catalogue (USD). */
export const DEFAULT_PLANS: readonly CatalogPlan[] = Object.freeze([
  {
    code: TRIAL_CODE,
    name: 'Free trial',
    price_cents: 0,
    currency: 'USD',
    interval: 'none',
    included_calls_per_period: 5,
    tier_b_multiplier: 1,
    purchasable: false,
  },
  {
    code: 'traveler_monthly',
    name: 'Traveler (monthly)',
    price_cents: 499,
    currency: 'USD',
    interval: 'month',
    included_calls_per_period: 60,
    tier_b_multiplier: 3,
    purchasable: true,
  },
  {
    code: 'traveler_yearly',
    name: 'Traveler (yearly)',
    price_cents: 4999,
    currency: 'USD',
    interval: 'year',
    included_calls_per_period: 730,
    tier_b_multiplier: 3,
    purchasable: true,
  },
  {
    code: 'pack_10',
    name: '10-call pack',
    price_cents: 299,
    currency: 'USD',
    interval: 'none',
    included_calls_per_period: 10,
    tier_b_multiplier: 3,
    purchasable: true,
  },
  {
    code: 'pack_30',
    name: '30-call pack',
    price_cents: 799,
    currency: 'USD',
    interval: 'none',
    included_calls_per_period: 30,
    tier_b_multiplier: 3,
    purchasable: true,
  },
]);

/** The catalogue, cheapest first (ties by code), as GET /billing/plans lists it. */
export function sortPlans(plans: readonly CatalogPlan[]): CatalogPlan[] {
  return [...plans].sort((a, b) => a.price_cents - b.price_cents || a.code.localeCompare(b.code));
}

/** Whether the plan is a subscription (month or year), as opposed to the trial or a pack. */
export function isSubscriptionPlan(plan: Pick<CatalogPlan, 'interval'>): boolean {
  return plan.interval !== 'none';
}

/** One formatter per currency (null: not a currency Intl knows), made once: building one costs more than GET /time. */
const priceFormats = new Map<string, Intl.NumberFormat | null>();

/** `$4.99`, `€4.99`, `4.99 CHF`: the display price of minor units. */
export function displayPrice(priceCents: number, currency: string): string {
  let format = priceFormats.get(currency);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    } catch {
      format = null;
    }
    // The currencies come from the plan catalogue (configuration): a handful of keys.
    priceFormats.set(currency, format);
  }
  return format ? format.format(priceCents / 100) : `${(priceCents / 100).toFixed(2)} ${currency}`;
}

/**
 * Parses WAKEUP_BILLING_PLANS: a JSON array of BillingPlan objects. Returns a message naming
 * the problem, or the plans.
 */
export function parsePlans(text: string): CatalogPlan[] | string {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (!Array.isArray(raw) || raw.length === 0) return 'expected a non-empty JSON array of plans';
  const seen = new Set<string>();
  const plans: CatalogPlan[] = [];
  for (const [i, p] of raw.entries()) {
    const at = `plan ${i + 1}`;
    if (typeof p !== 'object' || p === null) return `${at}: not an object`;
    const o = p as Record<string, unknown>;
    if (typeof o.code !== 'string' || !/^[a-z0-9_]{1,64}$/.test(o.code))
      return `${at}: code must match [a-z0-9_]{1,64}`;
    if (seen.has(o.code)) return `${at}: code ${o.code} appears twice`;
    seen.add(o.code);
    if (typeof o.name !== 'string' || o.name.trim() === '') return `${at}: name is required`;
    if (!Number.isInteger(o.price_cents) || (o.price_cents as number) < 0)
      return `${at}: price_cents must be an integer >= 0`;
    if (typeof o.currency !== 'string' || !/^[A-Z]{3}$/.test(o.currency))
      return `${at}: currency must be an ISO 4217 code`;
    if (o.interval !== 'month' && o.interval !== 'year' && o.interval !== 'none')
      return `${at}: interval must be month, year or none`;
    const included = o.included_calls_per_period;
    if (!Number.isInteger(included) || (included as number) < 0)
      return `${at}: included_calls_per_period must be an integer >= 0`;
    const multiplier = o.tier_b_multiplier ?? 1;
    if (!Number.isInteger(multiplier) || (multiplier as number) < 1)
      return `${at}: tier_b_multiplier must be an integer >= 1`;
    plans.push({
      code: o.code,
      name: o.name.trim(),
      price_cents: o.price_cents as number,
      currency: o.currency,
      interval: o.interval,
      included_calls_per_period: included as number,
      tier_b_multiplier: multiplier as number,
      purchasable: o.code !== TRIAL_CODE && o.purchasable !== false,
    });
  }
  return plans;
}
