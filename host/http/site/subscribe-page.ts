/**
 * The web checkout pages at the site root (spec Billing rule 4), plain server-rendered HTML:
 *
 * - `GET /app/subscribe/{token}`: "Continue as <email>" with the plan and its price; opening
 *   does not use the link (link previews must not spend it). Unknown link: 404; used: 410;
 *   expired: 410, each a page saying so and what to do.
 * - `POST /app/subscribe/{token}` (the button): uses the link once, signs this browser in
 *   (web session cookies `sessionid` and `csrftoken`) and redirects (303) to the payment
 *   provider's checkout, which returns to `/app/subscribe/done`.
 * - `GET /app/subscribe/done`: the plan of the signed-in browser ("Traveler (monthly) is
 *   active"), or a neutral note when the browser is not signed in.
 * - `GET /app/subscribe/canceled`: the checkout was left without paying.
 * @module
 */
import type { AppServices } from '../../services.js';
import { setSessionCookies } from '../cookies.js';
import { displayPrice } from '../../billing/plans.js';
import type { AppContext } from '../context.js';
import type { Routes } from '../registrar.js';
import { escapeHtml } from './html.js';

/** The way back to the web app's account page (plan and usage), on every page after checkout. */
const BACK = '<p><a id="back" href="/#/account">Back to Wake-Up Call</a></p>';

/** A small self-contained page. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;line-height:1.5}
button{font-size:1.1rem;padding:.7rem 1.2rem;border-radius:.5rem;border:0;background:#1f6feb;color:#fff;cursor:pointer}
.muted{color:#666}</style></head>
<body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>`;
}

function send(ctx: AppContext, status: number, html: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.body = html;
}

const GONE: Record<'unknown' | 'used' | 'expired', [number, string, string]> = {
  unknown: [
    404,
    'Link not found',
    'This subscribe link is not valid. Open the app and tap Subscribe on the web again.',
  ],
  used: [
    410,
    'Link already used',
    'This subscribe link was already used; each link works once. Open the app and ask for a new one.',
  ],
  expired: [
    410,
    'Link expired',
    'This subscribe link expired; links are valid for 10 minutes. Open the app and ask for a new one.',
  ],
};

/** Registers the pages. */
export function register(routes: Routes, services: AppServices): void {
  const billing = services.billing;
  const gone = (ctx: AppContext, reason: keyof typeof GONE) => {
    const [status, title, text] = GONE[reason];
    send(ctx, status, page(title, `<p id="message">${escapeHtml(text)}</p>`));
  };

  routes.page('GET', '/app/subscribe/done', async (ctx) => {
    const signedIn = await billing.webSessionAccount(ctx.cookies.get('sessionid'));
    if (!signedIn) {
      send(
        ctx,
        200,
        page(
          'Thank you',
          `<p id="message">Your payment is being processed. Open the app to see your plan.</p>${BACK}`,
        ),
      );
      return;
    }
    const { account, plan } = signedIn;
    const paid = plan.source !== null && plan.entitled;
    send(
      ctx,
      200,
      page(
        paid ? 'You are subscribed' : 'Almost there',
        paid
          ? `<p id="message">${escapeHtml(plan.name ?? '')} is <strong id="status">${escapeHtml(plan.status)}</strong> for ${escapeHtml(account.email)}. You can go back to the app.</p>${BACK}`
          : `<p id="message">We have not received the payment confirmation yet (status <strong id="status">${escapeHtml(plan.status)}</strong>). Reload this page in a moment.</p>${BACK}`,
      ),
    );
  });

  routes.page('GET', '/app/subscribe/canceled', (ctx) => {
    send(
      ctx,
      200,
      page(
        'Checkout canceled',
        `<p id="message">Nothing was charged. You can subscribe later from the app.</p>${BACK}`,
      ),
    );
  });

  routes.page('GET', '/app/subscribe/{token}', async (ctx, params) => {
    const state = await billing.openWebCheckoutLink(params.token ?? '');
    if (!state.ok) return gone(ctx, state.reason);
    const { plan, account } = state;
    const per = plan.interval === 'none' ? '' : ` a ${plan.interval}`;
    send(
      ctx,
      200,
      page(
        `Subscribe to ${plan.name}`,
        `<p>${escapeHtml(plan.name)}: ${escapeHtml(displayPrice(plan.price_cents, plan.currency) + per)}, ${plan.included_calls_per_period} wake-up calls a ${escapeHtml(plan.interval)}.</p>
<form method="post" action="/app/subscribe/${escapeHtml(params.token!)}">
<button id="continue" type="submit">Continue as ${escapeHtml(account.email)}</button>
</form>
<p class="muted">This signs this browser in to ${escapeHtml(account.email)} and continues to the payment page. Not you? Close this page.</p>`,
      ),
    );
  });

  routes.page('POST', '/app/subscribe/{token}', async (ctx, params) => {
    const r = await billing.continueWebCheckout(params.token ?? '');
    if (!r.ok) return gone(ctx, r.reason);
    const session = await billing.startWebSession(r.account.id);
    setSessionCookies(ctx, session);
    ctx.status = 303;
    ctx.redirect(r.url);
  });
}
