/**
 * The payment provider's signed notifications (`POST /webhooks/payments`), in Stripe's event
 * format: `{id, type, created, data: {object}}`. The simulator sends the same events.
 *
 * 1. The signature is checked first (host/billing/signature.ts): missing, malformed, stale or
 *    wrong gives 400 and changes nothing.
 * 2. Each event id is applied once: the id is recorded in the same transaction as the change;
 *    a replayed event answers 200 `{received: true, applied: false}` and changes nothing, so
 *    a provider's retry of a delivered event is harmless and cannot apply it twice.
 * 3. Events applied:
 *    - `checkout.session.completed`: records the account's customer; a paid pack
 *      (mode `payment`) adds its credits (once per checkout); a subscription checkout starts
 *      the subscription (status active) unless the subscription events already did;
 *    - `customer.subscription.created` / `.updated`: the subscription's plan, status and
 *      billing period (provider status active/trialing → active, past_due/unpaid →
 *      past_due, canceled/incomplete_expired → expired; `cancel_at_period_end` → canceled,
 *      ending at the period's end); `incomplete` (not paid yet) is ignored;
 *    - `customer.subscription.deleted`: the subscription ends (expired).
 *    Other types are acknowledged and ignored. The account is found from `metadata.account_id`
 *    (set at checkout), else `client_reference_id`, else the customer id.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { Clock, EpochMs } from '../../engine/index.js';
import type { Logger } from '../logger.js';
import { findAccountById } from '../db/accounts.js';
import { grantCredits } from '../db/credits.js';
import {
  expireSubscription,
  findAccountIdByCustomer,
  findSubscription,
  recordEvent,
  saveCustomerId,
  saveSubscription,
  type Subscription,
  type SubscriptionStatus,
} from '../db/subscriptions.js';
import { checkSignature } from './signature.js';
import { isSubscriptionPlan, type CatalogPlan } from './plans.js';

/** Path of the service's notification endpoint (the simulator sends its events there too). */
export const WEBHOOK_PATH = '/webhooks/payments';

/** What the notification handler needs. */
export interface NotificationDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  plans: readonly CatalogPlan[];
  webhookSecret: string;
  /** The provider's name (customer ids and event ids are kept per provider). */
  provider: string;
  /** Provider price id → plan code (Stripe prices), to name the plan when metadata lacks it. */
  priceToPlan?: Readonly<Record<string, string>>;
}

/** The answer to the provider. */
export interface NotificationReply {
  status: 200 | 400;
  body: { received: boolean; applied?: boolean; error?: string };
}

type Obj = Record<string, any>;

/** Verifies and applies one notification. */
export async function handleNotification(
  deps: NotificationDeps,
  rawBody: string,
  signature: string | undefined,
): Promise<NotificationReply> {
  const { db, clock, logger } = deps;
  const now = clock.now();
  const refused = checkSignature(deps.webhookSecret, rawBody, signature, now);
  if (refused) {
    logger.warn({ reason: refused }, 'payment notification refused');
    return { status: 400, body: { received: false, error: `signature ${refused}` } };
  }
  let event: Obj;
  try {
    event = JSON.parse(rawBody) as Obj;
  } catch {
    return { status: 400, body: { received: false, error: 'body is not JSON' } };
  }
  if (
    typeof event?.id !== 'string' ||
    typeof event.type !== 'string' ||
    typeof event.data?.object !== 'object'
  ) {
    return { status: 400, body: { received: false, error: 'not an event' } };
  }
  const applied = await db.tx(async (tx) => {
    if (!(await recordEvent(tx, deps.provider, event.id, event.type, now))) return false;
    // Every read and write of the notification in this transaction: its handle is the db.
    await apply(
      { ...deps, db: tx },
      event.type,
      event.data.object as Obj,
      typeof event.created === 'number' ? event.created * 1000 : now,
      now,
    );
    return true;
  });
  if (!applied)
    logger.info(
      { event: event.id, type: event.type },
      'payment notification replayed: not applied again',
    );
  return { status: 200, body: { received: true, applied } };
}

async function apply(
  deps: NotificationDeps,
  type: string,
  o: Obj,
  createdAt: EpochMs,
  now: EpochMs,
): Promise<void> {
  const { db, logger } = deps;
  const accountId = await resolveAccount(deps, o);
  if (!accountId) {
    logger.warn({ type, object: o.id }, 'payment notification for no known account: ignored');
    return;
  }
  if (typeof o.customer === 'string')
    await saveCustomerId(db, accountId, deps.provider, o.customer, now);
  switch (type) {
    case 'checkout.session.completed': {
      const plan = findPlan(deps, o);
      if (!plan) return logger.warn({ object: o.id }, 'paid checkout for an unknown plan: ignored');
      if (o.mode === 'payment') {
        if (o.payment_status !== 'paid' || isSubscriptionPlan(plan)) return;
        await grantCredits(
          db,
          {
            accountId,
            calls: plan.included_calls_per_period,
            planCode: plan.code,
            planName: plan.name,
            tierBMultiplier: plan.tier_b_multiplier,
            ref: `${deps.provider}:${o.id}`,
          },
          now,
        );
        return;
      }
      if (o.mode === 'subscription' && isSubscriptionPlan(plan)) {
        const current = await findSubscription(db, accountId);
        const subId = typeof o.subscription === 'string' ? o.subscription : null;
        if (current && subId !== null && current.providerSubscriptionId === subId) return; // the subscription events came first
        await save(
          deps,
          accountId,
          plan,
          current,
          {
            status: 'active',
            periodAnchor: createdAt,
            endsAt: null,
            providerSubscriptionId: subId,
          },
          now,
        );
      }
      return;
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated': {
      const plan = findPlan(deps, o);
      if (!plan || !isSubscriptionPlan(plan))
        return logger.warn({ object: o.id }, 'subscription of an unknown plan: ignored');
      const mapped = mapStatus(o, now);
      if (!mapped) return;
      const current = await findSubscription(db, accountId);
      const anchor =
        typeof o.current_period_start === 'number'
          ? o.current_period_start * 1000
          : (current?.periodAnchor ?? createdAt);
      await save(
        deps,
        accountId,
        plan,
        current,
        { ...mapped, periodAnchor: anchor, providerSubscriptionId: o.id ?? null },
        now,
      );
      return;
    }
    case 'customer.subscription.deleted': {
      const current = await findSubscription(db, accountId);
      if (
        current &&
        current.source === 'web' &&
        (current.providerSubscriptionId === null || current.providerSubscriptionId === o.id)
      ) {
        await expireSubscription(
          db,
          accountId,
          typeof o.ended_at === 'number' ? o.ended_at * 1000 : now,
        );
      }
      return;
    }
  }
}

async function save(
  deps: NotificationDeps,
  accountId: string,
  plan: CatalogPlan,
  current: Subscription | undefined,
  s: {
    status: SubscriptionStatus;
    periodAnchor: EpochMs;
    endsAt: EpochMs | null;
    providerSubscriptionId: string | null;
  },
  now: EpochMs,
): Promise<void> {
  // The terms stay those bought while the plan is the same; a plan change takes the catalogue's.
  const keep = current && current.planCode === plan.code && current.status !== 'expired';
  await saveSubscription(
    deps.db,
    {
      accountId,
      planCode: plan.code,
      planName: keep ? current.planName : plan.name,
      interval: keep ? current.interval : plan.interval,
      includedCalls: keep ? current.includedCalls : plan.included_calls_per_period,
      tierBMultiplier: keep ? current.tierBMultiplier : plan.tier_b_multiplier,
      source: 'web',
      ...s,
    },
    now,
  );
}

function mapStatus(
  o: Obj,
  now: EpochMs,
): { status: SubscriptionStatus; endsAt: EpochMs | null } | null {
  const periodEnd = typeof o.current_period_end === 'number' ? o.current_period_end * 1000 : null;
  switch (o.status) {
    case 'active':
    case 'trialing':
      if (o.cancel_at_period_end === true || typeof o.cancel_at === 'number') {
        return {
          status: 'canceled',
          endsAt: typeof o.cancel_at === 'number' ? o.cancel_at * 1000 : periodEnd,
        };
      }
      return { status: 'active', endsAt: null };
    case 'past_due':
    case 'unpaid':
      return { status: 'past_due', endsAt: null };
    case 'canceled':
    case 'incomplete_expired':
      return {
        status: 'expired',
        endsAt: typeof o.ended_at === 'number' ? o.ended_at * 1000 : now,
      };
    default:
      return null;
  }
}

async function resolveAccount(deps: NotificationDeps, o: Obj): Promise<string | undefined> {
  for (const id of [o.metadata?.account_id, o.client_reference_id]) {
    if (typeof id === 'string' && (await findAccountById(deps.db, id))) return id;
  }
  if (typeof o.customer === 'string')
    return await findAccountIdByCustomer(deps.db, deps.provider, o.customer);
  return undefined;
}

function findPlan(deps: NotificationDeps, o: Obj): CatalogPlan | undefined {
  let code: unknown = o.metadata?.plan;
  if (typeof code !== 'string') {
    const price = o.items?.data?.[0]?.price?.id;
    if (typeof price === 'string') code = deps.priceToPlan?.[price];
  }
  return typeof code === 'string' ? deps.plans.find((p) => p.code === code) : undefined;
}
