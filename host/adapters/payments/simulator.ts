/**
 * The built-in payment simulator (default in dev mode). It plays a hosted payment provider
 * on this server:
 * - checkout url `{site}/dev/payments/checkout/{session_id}`: a page with a Pay button; paying
 *   (the button, or `POST /dev/checkout/{session_id}/complete`) marks it paid and sends the
 *   provider's signed notifications, exactly as a real provider would, over HTTP to the
 *   service's own `POST /webhooks/payments`;
 * - portal url `{site}/dev/payments/portal/{session_id}` (valid 5 minutes): cancel at the
 *   period's end, resume, or end the subscription now; each sends its notification.
 * Its sessions live in table `sim_payment_sessions`. Subscriptions it creates renew until
 * canceled (no renewal notifications are needed: periods follow from the anchor).
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/sql.js';
import type { Clock, EpochMs } from '../../../engine/index.js';
import type { Logger } from '../../logger.js';
import {
  findSimSession,
  insertSimSession,
  markSimSessionPaid,
  type SimSession,
} from '../../db/sim-payments.js';
import { findSubscription } from '../../db/subscriptions.js';
import { addMonths, isLive, periodAt } from '../../entitlement/usage.js';
import {
  SIGNATURE_HEADER,
  signPayload,
  WEBHOOK_PATH,
  isSubscriptionPlan,
  type CatalogPlan,
} from '../../billing/index.js';
import { ProviderError, type PaymentProvider } from '../../ports/payments.js';

const CHECKOUT_VALID_MS = 24 * 3600_000;
const PORTAL_VALID_MS = 5 * 60_000;

/** Options of {@link createSimulatedPayments}. */
export interface SimulatorDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  plans: readonly CatalogPlan[];
  webhookSecret: string;
  siteUrl: () => string;
}

/** Portal actions. */
export type PortalAction = 'cancel' | 'resume' | 'cancel_now';

/** The provider plus the simulator's own controls (its pages and the dev endpoint use them). */
export interface SimulatedPayments extends PaymentProvider {
  /** The open, unexpired session, or undefined. */
  session(id: string, kind: 'checkout' | 'portal'): Promise<SimSession | undefined>;
  /** Pays a checkout and delivers its notifications; returns where the browser goes next, or null when no open checkout has this id. */
  pay(id: string): Promise<string | null>;
  /** Applies a portal action; returns the return url, or null when the session is gone. */
  portal(id: string, action: PortalAction): Promise<string | null>;
}

const rid = (prefix: string) => prefix + randomBytes(12).toString('hex');
/** What rid() makes (the schema's session_id pattern). */
const SESSION_ID = /^[A-Za-z0-9_-]{1,200}$/;

/** Creates the simulator. */
export function createSimulatedPayments(deps: SimulatorDeps): SimulatedPayments {
  const { db, clock } = deps;

  async function send(type: string, object: Record<string, unknown>): Promise<void> {
    const now = clock.now();
    const body = JSON.stringify({
      id: rid('evt_sim_'),
      object: 'event',
      type,
      created: Math.floor(now / 1000),
      data: { object },
    });
    const res = await fetch(deps.siteUrl() + WEBHOOK_PATH, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: signPayload(deps.webhookSecret, body, now),
      },
      body,
    });
    if (!res.ok)
      throw new ProviderError(
        `simulated payments: the webhook answered ${res.status}: ${await res.text()}`,
      );
  }

  const subscriptionObject = (o: {
    id: string;
    customer: string;
    accountId: string;
    plan: string;
    start: EpochMs;
    interval: string;
  }) => ({
    id: o.id,
    object: 'subscription',
    customer: o.customer,
    status: 'active',
    cancel_at_period_end: false,
    current_period_start: Math.floor(o.start / 1000),
    current_period_end: Math.floor(addMonths(o.start, o.interval === 'year' ? 12 : 1) / 1000),
    metadata: { account_id: o.accountId, plan: o.plan },
  });

  const open = async (id: string, kind: 'checkout' | 'portal') => {
    // Ids are rid()'s: anything else is unknown, and is never looked up (PostgreSQL text
    // refuses a NUL character with an error, where SQLite would find nothing).
    if (!SESSION_ID.test(id)) return undefined;
    const s = await findSimSession(db, id);
    return s && s.kind === kind && s.status === 'open' && s.expiresAt > clock.now() ? s : undefined;
  };

  return {
    name: 'simulator',
    async createCustomer() {
      return rid('cus_sim_');
    },
    async createCheckout(r) {
      const id = rid('cs_sim_');
      const now = clock.now();
      await insertSimSession(db, {
        id,
        kind: 'checkout',
        accountId: r.accountId,
        customerId: r.customerId,
        planCode: r.plan.code,
        successUrl: r.successUrl,
        cancelUrl: r.cancelUrl,
        createdAt: now,
        expiresAt: now + CHECKOUT_VALID_MS,
      });
      return { id, url: `${deps.siteUrl()}/dev/payments/checkout/${id}` };
    },
    async createPortal(r) {
      const id = rid('bps_sim_');
      const now = clock.now();
      await insertSimSession(db, {
        id,
        kind: 'portal',
        accountId: r.accountId,
        customerId: r.customerId,
        planCode: null,
        successUrl: r.returnUrl,
        cancelUrl: null,
        createdAt: now,
        expiresAt: now + PORTAL_VALID_MS,
      });
      return { url: `${deps.siteUrl()}/dev/payments/portal/${id}` };
    },
    session: open,
    async pay(id) {
      const s = await open(id, 'checkout');
      const plan = s && deps.plans.find((p) => p.code === s.planCode);
      if (!s || !plan || !(await markSimSessionPaid(db, id))) return null;
      const metadata = { account_id: s.accountId, plan: plan.code };
      if (isSubscriptionPlan(plan)) {
        const subId = rid('sub_sim_');
        await send(
          'customer.subscription.created',
          subscriptionObject({
            id: subId,
            customer: s.customerId,
            accountId: s.accountId,
            plan: plan.code,
            start: clock.now(),
            interval: plan.interval,
          }),
        );
        await send('checkout.session.completed', {
          id,
          object: 'checkout.session',
          mode: 'subscription',
          payment_status: 'paid',
          customer: s.customerId,
          subscription: subId,
          client_reference_id: s.accountId,
          metadata,
        });
      } else {
        await send('checkout.session.completed', {
          id,
          object: 'checkout.session',
          mode: 'payment',
          payment_status: 'paid',
          customer: s.customerId,
          client_reference_id: s.accountId,
          metadata,
        });
      }
      return s.successUrl;
    },
    async portal(id, action) {
      const s = await open(id, 'portal');
      if (!s) return null;
      const sub = await findSubscription(db, s.accountId);
      if (!sub || !isLive(sub, clock.now()) || sub.source !== 'web' || !sub.providerSubscriptionId)
        return s.successUrl;
      const base = {
        ...subscriptionObject({
          id: sub.providerSubscriptionId,
          customer: s.customerId,
          accountId: s.accountId,
          plan: sub.planCode,
          start: periodAt(sub.periodAnchor, sub.interval, clock.now()).start,
          interval: sub.interval,
        }),
      };
      if (action === 'cancel_now') {
        await send('customer.subscription.deleted', {
          ...base,
          status: 'canceled',
          ended_at: Math.floor(clock.now() / 1000),
        });
      } else {
        await send('customer.subscription.updated', {
          ...base,
          cancel_at_period_end: action === 'cancel',
        });
      }
      return s.successUrl;
    },
  };
}
