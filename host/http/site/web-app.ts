/**
 * The web app at the site root: GET / serves `web/index.html`, `/ui/<path>` the app's
 * scripts and styles (plain ES modules, no build step), and `/favicon.ico` the site's icon
 * (every page, the API reference and the error list included, asks for it). The app talks only to the public API
 * with the web session (cookie `sessionid`, `csrftoken` echoed in X-CSRFToken).
 * @module
 */
import { createHash } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { Routes } from '../registrar.js';
import { loadWebAssets } from './web-assets.js';
import type { WebAsset } from './web-assets.js';

/**
 * Strict policy: scripts, styles and requests only from this origin (no inline script, no
 * CDN), and the page cannot be framed.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

function send(ctx: AppContext, asset: WebAsset, etag: string): void {
  ctx.set('ETag', etag);
  // Revalidate every time: a self-hosted upgrade must never leave an old script cached.
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('X-Content-Type-Options', 'nosniff');
  if (ctx.get('If-None-Match') === etag) {
    ctx.status = 304;
    return;
  }
  ctx.type = asset.type;
  ctx.body = asset.data;
}

/** Registers /, /favicon.ico and /ui/*. */
export function register(routes: Routes): void {
  const assets = loadWebAssets();
  const index = assets.get('index.html');
  if (!index) throw new Error('web app: web/index.html is missing');
  const tag = (a: WebAsset) =>
    `"${createHash('sha256').update(a.data).digest('base64url').slice(0, 22)}"`;
  const indexTag = tag(index);
  routes.page('GET', '/', (ctx) => {
    ctx.set('Content-Security-Policy', CSP);
    ctx.set('Referrer-Policy', 'same-origin');
    ctx.set('X-Frame-Options', 'DENY');
    send(ctx, index, indexTag);
  });
  const icon = assets.get('favicon.ico');
  if (icon) {
    const iconTag = tag(icon);
    routes.page('GET', '/favicon.ico', (ctx) => send(ctx, icon, iconTag));
  }
  for (const [path, asset] of assets) {
    if (path === 'index.html') continue;
    const etag = tag(asset);
    routes.page('GET', `/ui/${path}`, (ctx) => send(ctx, asset, etag));
  }
}
