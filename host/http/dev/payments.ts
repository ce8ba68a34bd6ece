/**
 * The payment simulator's hosted pages and `POST /dev/checkout/{session_id}/complete` (dev
 * mode only, and only while WAKEUP_PAYMENTS is `simulator`): see host/adapters/payments/simulator.ts.
 *
 * - `GET /dev/payments/checkout/{id}`: the simulated checkout with a Pay button;
 *   `POST .../pay` pays it (the notifications go to `POST /webhooks/payments`) and redirects
 *   (303) to the checkout's success url.
 * - `GET /dev/payments/portal/{id}`: the simulated portal; `POST .../{action}` with action
 *   `cancel` (at the period's end), `resume` or `cancel_now`, then back to the return url.
 * @module
 */
import type { AppServices } from '../../services.js';
import { problem } from '../../errors.js';
import type { AppContext } from '../context.js';
import type { Routes } from '../registrar.js';
import { escapeHtml } from '../site/html.js';
import { page } from '../site/subscribe-page.js';
import { displayPrice } from '../../billing/plans.js';
import type { PortalAction } from '../../adapters/payments/simulator.js';

function html(ctx: AppContext, status: number, body: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = body;
}

const findPlan = (services: AppServices, code: string | null) =>
  services.config.billing.plans.find((p) => p.code === code);

/** Registers the simulator's routes. */
export function register(routes: Routes, services: AppServices): void {
  const sim = () => {
    const s = services.dev.payments;
    if (!s)
      throw problem('not_found', {
        detail: 'The payment simulator is not the payment provider (WAKEUP_PAYMENTS).',
      });
    return s;
  };

  routes.operation<unknown, unknown, { session_id: string }>(
    'completeDevCheckout',
    async ({ params }) => {
      const next = await sim().pay(params.session_id);
      if (next === null)
        throw problem('not_found', { detail: 'No open simulated checkout has this id.' });
      return { status: 204 };
    },
  );

  routes.page('GET', '/dev/payments/checkout/{id}', async (ctx, params) => {
    const s = await sim().session(params.id!, 'checkout');
    const plan = s && findPlan(services, s.planCode);
    if (!s || !plan)
      return html(
        ctx,
        404,
        page(
          'Checkout not found',
          '<p id="message">This checkout is paid, expired or unknown.</p>',
        ),
      );
    html(
      ctx,
      200,
      page(
        'Simulated checkout',
        `<p><strong>Simulated payment provider</strong>: no money moves.</p>
<p>${escapeHtml(plan.name)}: ${escapeHtml(displayPrice(plan.price_cents, plan.currency))}${plan.interval === 'none' ? '' : ` a ${escapeHtml(plan.interval)}`}</p>
<form method="post" action="/dev/payments/checkout/${escapeHtml(s.id)}/pay"><button id="pay" type="submit">Pay</button></form>
${s.cancelUrl ? `<p><a href="${escapeHtml(s.cancelUrl)}">Cancel</a></p>` : ''}`,
      ),
    );
  });

  routes.page('POST', '/dev/payments/checkout/{id}/pay', async (ctx, params) => {
    const next = await sim().pay(params.id!);
    if (next === null)
      return html(
        ctx,
        404,
        page(
          'Checkout not found',
          '<p id="message">This checkout is paid, expired or unknown.</p>',
        ),
      );
    ctx.status = 303;
    ctx.redirect(next);
  });

  routes.page('GET', '/dev/payments/portal/{id}', async (ctx, params) => {
    const s = await sim().session(params.id!, 'portal');
    if (!s)
      return html(
        ctx,
        404,
        page(
          'Portal session expired',
          '<p id="message">Open the billing portal again from the app.</p>',
        ),
      );
    const sub = await services.billing.subscription(s.accountId);
    const button = (action: PortalAction, label: string) =>
      `<form method="post" action="/dev/payments/portal/${escapeHtml(s.id)}/${action}"><button id="${action}" type="submit">${label}</button></form>`;
    html(
      ctx,
      200,
      page(
        'Simulated billing portal',
        `<p><strong>Simulated payment provider</strong>.</p>
<p>Plan: ${escapeHtml(sub ? `${sub.planName} (${sub.status})` : 'none')}</p>
${button('cancel', 'Cancel at the end of the period')}${button('resume', 'Resume')}${button('cancel_now', 'End now')}
<p><a href="${escapeHtml(s.successUrl)}">Back</a></p>`,
      ),
    );
  });

  routes.page('POST', '/dev/payments/portal/{id}/{action}', async (ctx, params) => {
    const action = params.action as PortalAction;
    if (!['cancel', 'resume', 'cancel_now'].includes(action))
      throw problem('not_found', { detail: 'Unknown portal action.' });
    const next = await sim().portal(params.id!, action);
    if (next === null)
      return html(
        ctx,
        404,
        page(
          'Portal session expired',
          '<p id="message">Open the billing portal again from the app.</p>',
        ),
      );
    ctx.status = 303;
    ctx.redirect(next);
  });
}
