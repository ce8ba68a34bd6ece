/**
 * Subscriptions (one row per account: its latest plan, live or ended), the payment
 * provider's customer of each account, and the provider notifications already applied.
 * Table `subscriptions`, `billing_customers`, `billing_events` (migration 0008).
 * @module
 */
import { idsIn, type Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';

/** Where a subscription is billed (schema Plan.source). */
export type PlanSource = 'web' | 'ios_store' | 'android_store' | 'manual';
/** Stored status; `canceled` still runs until `endsAt`. */
export type SubscriptionStatus = 'active' | 'past_due' | 'canceled' | 'expired';

/** One subscription, with the plan's terms as bought. */
export interface Subscription {
  accountId: string;
  planCode: string;
  planName: string;
  interval: 'month' | 'year' | 'none';
  includedCalls: number;
  tierBMultiplier: number;
  source: PlanSource;
  status: SubscriptionStatus;
  /** Start of a billing period; the next ones follow by `interval`. */
  periodAnchor: EpochMs;
  /** When a canceled subscription ends (or an expired one ended); null while it renews. */
  endsAt: EpochMs | null;
  providerSubscriptionId: string | null;
  createdAt: EpochMs;
  updatedAt: EpochMs;
}

interface Row {
  account_id: string;
  plan_code: string;
  plan_name: string;
  interval: 'month' | 'year' | 'none';
  included_calls: number;
  tier_b_multiplier: number;
  source: PlanSource;
  status: SubscriptionStatus;
  period_anchor: number;
  ends_at: number | null;
  provider_subscription_id: string | null;
  created_at: number;
  updated_at: number;
}

const fromRow = (r: Row): Subscription => ({
  accountId: r.account_id,
  planCode: r.plan_code,
  planName: r.plan_name,
  interval: r.interval,
  includedCalls: r.included_calls,
  tierBMultiplier: r.tier_b_multiplier,
  source: r.source,
  status: r.status,
  periodAnchor: r.period_anchor,
  endsAt: r.ends_at,
  providerSubscriptionId: r.provider_subscription_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The account's subscription row, live or ended. */
export async function findSubscription(
  db: Db,
  accountId: string,
): Promise<Subscription | undefined> {
  const r = await db.get<Row>('SELECT * FROM subscriptions WHERE account_id = ?', [accountId]);
  return r ? fromRow(r) : undefined;
}

/** The subscription rows of these accounts, by account, in one statement. */
export async function findSubscriptions(
  db: Db,
  accountIds: readonly string[],
): Promise<Map<string, Subscription>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db.all<Row>(`SELECT * FROM subscriptions WHERE account_id IN ${idsIn(db)}`, [
    JSON.stringify(accountIds),
  ]);
  return new Map(rows.map((r) => [r.account_id, fromRow(r)]));
}

/** The subscription with this provider id. */
export async function findSubscriptionByProviderId(
  db: Db,
  providerSubscriptionId: string,
): Promise<Subscription | undefined> {
  const r = await db.get<Row>('SELECT * FROM subscriptions WHERE provider_subscription_id = ?', [
    providerSubscriptionId,
  ]);
  return r ? fromRow(r) : undefined;
}

/** Writes the account's subscription (replacing the earlier one). */
export async function saveSubscription(
  db: Db,
  s: Omit<Subscription, 'createdAt' | 'updatedAt'>,
  now: EpochMs,
): Promise<void> {
  await db.run(
    `INSERT INTO subscriptions (account_id, plan_code, plan_name, interval, included_calls, tier_b_multiplier, source, status,
       period_anchor, ends_at, provider_subscription_id, created_at, updated_at)
     VALUES (@account_id, @plan_code, @plan_name, @interval, @included_calls, @tier_b_multiplier, @source, @status,
       @period_anchor, @ends_at, @provider_subscription_id, @now, @now)
     ON CONFLICT (account_id) DO UPDATE SET plan_code = excluded.plan_code, plan_name = excluded.plan_name,
       interval = excluded.interval, included_calls = excluded.included_calls, tier_b_multiplier = excluded.tier_b_multiplier,
       source = excluded.source, status = excluded.status, period_anchor = excluded.period_anchor, ends_at = excluded.ends_at,
       provider_subscription_id = excluded.provider_subscription_id, updated_at = excluded.updated_at`,
    {
      account_id: s.accountId,
      plan_code: s.planCode,
      plan_name: s.planName,
      interval: s.interval,
      included_calls: s.includedCalls,
      tier_b_multiplier: s.tierBMultiplier,
      source: s.source,
      status: s.status,
      period_anchor: s.periodAnchor,
      ends_at: s.endsAt,
      provider_subscription_id: s.providerSubscriptionId,
      now,
    },
  );
}

/** Ends the subscription at `at` (status expired). Returns whether a row changed. */
export async function expireSubscription(db: Db, accountId: string, at: EpochMs): Promise<boolean> {
  return (
    (
      await db.run(
        `UPDATE subscriptions SET status = 'expired', ends_at = ?, updated_at = ? WHERE account_id = ? AND status <> 'expired'`,
        [at, at, accountId],
      )
    ).changes === 1
  );
}

/** The account's customer id at `provider`. */
export async function findCustomerId(
  db: Db,
  accountId: string,
  provider: string,
): Promise<string | undefined> {
  return (
    await db.get<{ customer_id: string }>(
      'SELECT customer_id FROM billing_customers WHERE account_id = ? AND provider = ?',
      [accountId, provider],
    )
  )?.customer_id;
}

/** The account of a provider's customer id. */
export async function findAccountIdByCustomer(
  db: Db,
  provider: string,
  customerId: string,
): Promise<string | undefined> {
  return (
    await db.get<{ account_id: string }>(
      'SELECT account_id FROM billing_customers WHERE provider = ? AND customer_id = ?',
      [provider, customerId],
    )
  )?.account_id;
}

/** Records the account's customer id (keeps an existing one). */
export async function saveCustomerId(
  db: Db,
  accountId: string,
  provider: string,
  customerId: string,
  now: EpochMs,
): Promise<void> {
  await db.run(
    'INSERT INTO billing_customers (account_id, provider, customer_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
    [accountId, provider, customerId, now],
  );
}

/** Records a notification as applied; false when its id was recorded before (a replay). */
export async function recordEvent(
  db: Db,
  provider: string,
  eventId: string,
  type: string,
  now: EpochMs,
): Promise<boolean> {
  return (
    (
      await db.run(
        'INSERT INTO billing_events (provider, event_id, type, received_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
        [provider, eventId, type, now],
      )
    ).changes === 1
  );
}
