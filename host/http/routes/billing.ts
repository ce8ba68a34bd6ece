/**
 * Billing routes: GET /billing/plans, POST /billing/checkout, /billing/portal,
 * /billing/inapp/sync, /billing/web-checkout (5 a minute per account), and the payment
 * provider's signed notifications at the site root, `POST /webhooks/payments` (raw JSON body,
 * at most 256 KiB; see host/billing/notifications.ts). Parse, call the billing service,
 * present.
 * @module
 */
import type { AppServices } from '../../services.js';
import { WEBHOOK_PATH } from '../../billing/notifications.js';
import { SIGNATURE_HEADER } from '../../billing/signature.js';
import { problem } from '../../errors.js';
import type { AppContext } from '../context.js';
import { requirePrincipal } from '../context.js';
import { RateLimiter } from '../../rate-limit/limiter.js';
import { countLimit } from '../rate-limit.js';
import type { Routes } from '../registrar.js';

const MAX_WEBHOOK_BYTES = 256 * 1024;
async function readRaw(ctx: AppContext): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > MAX_WEBHOOK_BYTES)
      throw problem('payload_too_large', { detail: 'Payment notifications are at most 256 KiB.' });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Registers the billing operations and the notification endpoint. */
export function register(routes: Routes, services: AppServices): void {
  const billing = services.billing;
  const webCheckoutLimit = new RateLimiter({
    name: 'billing.web-checkout',
    limit: 5,
    windowSeconds: 60,
    clock: services.clock,
    store: services.shared.rateWindows,
  });

  routes.operation('listPlans', () => ({
    status: 200,
    body: { items: billing.listPlans(), next_cursor: null },
  }));

  routes.operation<{ plan: string }>('createCheckout', async ({ principal, body }) => {
    const p = requirePrincipal(principal);
    return { status: 200, body: await billing.checkout(p.accountId, body.plan) };
  });

  routes.operation('createPortalSession', async ({ principal }) => {
    const p = requirePrincipal(principal);
    return { status: 200, body: await billing.portal(p.accountId) };
  });

  routes.operation<{ app_user_id?: string | null } | undefined>(
    'syncInappPurchases',
    async ({ principal, body }) => {
      const p = requirePrincipal(principal);
      return { status: 200, body: await billing.syncInapp(p.accountId, body?.app_user_id) };
    },
  );

  routes.operation<{ plan: string }>('createWebCheckout', async ({ principal, body, ctx }) => {
    const p = requirePrincipal(principal);
    await countLimit(ctx, webCheckoutLimit, p.accountId, 'At most 5 web checkout links a minute.');
    return { status: 200, body: await billing.createWebCheckoutLink(p.accountId, body.plan) };
  });

  routes.page('POST', WEBHOOK_PATH, async (ctx) => {
    const raw = await readRaw(ctx);
    const reply = await billing.notify(raw, ctx.get(SIGNATURE_HEADER) || undefined);
    ctx.status = reply.status;
    ctx.body = reply.body;
  });
}
