/**
 * The Stripe-compatible payment provider: REST calls with form-encoded bodies and a Bearer
 * secret key (`POST /v1/customers`, `/v1/checkout/sessions`, `/v1/billing_portal/sessions`).
 * The account id and plan code travel in `metadata` of the checkout and of the subscription
 * it creates, so the notifications name them (host/billing/notifications.ts).
 * @module
 */
import { type StripeConfig, isSubscriptionPlan } from '../../billing/index.js';
import { ProviderError, type CheckoutRequest, type PaymentProvider } from '../../ports/payments.js';

/** Timeout of one REST call. */
const TIMEOUT_MS = 10_000;

/** `a[b][0][c]=v` form encoding of a nested object (Stripe's convention). */
export function formEncode(value: Record<string, unknown>): string {
  const out = new URLSearchParams();
  const walk = (prefix: string, v: unknown) => {
    if (v === undefined || v === null) return;
    if (Array.isArray(v)) v.forEach((item, i) => walk(`${prefix}[${i}]`, item));
    else if (typeof v === 'object')
      for (const [k, inner] of Object.entries(v)) walk(prefix ? `${prefix}[${k}]` : k, inner);
    else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
      out.append(prefix, String(v));
  };
  walk('', value);
  return out.toString();
}

/** Creates the adapter. */
export function createStripeProvider(
  config: StripeConfig,
  fetchImpl: typeof fetch = fetch,
): PaymentProvider {
  async function post(
    path: string,
    body: Record<string, unknown>,
    idempotencyKey?: string,
  ): Promise<Record<string, any>> {
    let res: Response;
    try {
      res = await fetchImpl(config.apiUrl + path, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${config.secretKey}`,
          'content-type': 'application/x-www-form-urlencoded',
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        body: formEncode(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new ProviderError(`payment provider unreachable: ${(err as Error).message}`);
    }
    const text = await res.text();
    let json: Record<string, any> = {};
    try {
      json = JSON.parse(text) as Record<string, any>;
    } catch {
      // handled below
    }
    if (!res.ok)
      throw new ProviderError(
        `payment provider answered ${res.status}: ${json.error?.message ?? text.slice(0, 200)}`,
      );
    return json;
  }

  return {
    name: 'stripe',
    async createCustomer(account) {
      const c = await post(
        '/v1/customers',
        { email: account.email, metadata: { account_id: account.id } },
        `customer-${account.id}`,
      );
      if (typeof c.id !== 'string')
        throw new ProviderError('payment provider: customer without id');
      return c.id;
    },
    async createCheckout(r: CheckoutRequest) {
      const price = config.prices[r.plan.code];
      if (!price) throw new ProviderError(`no provider price for plan ${r.plan.code}`);
      const metadata = { account_id: r.accountId, plan: r.plan.code };
      const subscription = isSubscriptionPlan(r.plan);
      const s = await post('/v1/checkout/sessions', {
        mode: subscription ? 'subscription' : 'payment',
        customer: r.customerId,
        client_reference_id: r.accountId,
        line_items: [{ price, quantity: 1 }],
        success_url: r.successUrl,
        cancel_url: r.cancelUrl,
        metadata,
        ...(subscription
          ? { subscription_data: { metadata } }
          : { payment_intent_data: { metadata } }),
      });
      if (typeof s.id !== 'string' || typeof s.url !== 'string')
        throw new ProviderError('payment provider: checkout without url');
      return { id: s.id, url: s.url };
    },
    async createPortal(r) {
      const s = await post('/v1/billing_portal/sessions', {
        customer: r.customerId,
        return_url: r.returnUrl,
      });
      if (typeof s.url !== 'string')
        throw new ProviderError('payment provider: portal session without url');
      return { url: s.url };
    },
  };
}
