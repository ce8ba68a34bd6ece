/**
 * The page a browser gets for a path where nothing is: a person who mistyped an address, or
 * followed an old link, reads a sentence and a way back instead of a problem+json body.
 * Only for a browser's page load (GET or HEAD asking for text/html) outside /api/; API
 * clients keep the problem+json 404 (`not_found`).
 * @module
 */
import type { AppContext } from '../context.js';
import { escapeHtml } from './html.js';

/** Same policy as the web app (web-app.ts): its stylesheet, nothing inline. */
const CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Whether a 404 for this request should be the page rather than problem+json. */
export function wantsNotFoundPage(ctx: AppContext): boolean {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
  if (ctx.path === '/api' || ctx.path.startsWith('/api/')) return false;
  return (ctx.get('Accept') || '').includes('text/html');
}

/** Renders the page (exported for tests). */
export function renderNotFoundPage(path: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Page not found: Wake-Up Call</title>
<link rel="icon" href="/favicon.ico">
<link rel="stylesheet" href="/ui/app.css">
</head>
<body>
<header class="top"><a class="brand" href="/">Wake-Up Call</a></header>
<main id="main">
<h1>Page not found</h1>
<p>Nothing is at <code>${escapeHtml(path)}</code>. The address may be mistyped, or the page was moved.</p>
<p><a class="button" href="/">Go to the app</a></p>
<p class="small muted">Looking for the API? See <a href="/docs">the API reference</a>.</p>
</main>
</body>
</html>
`;
}

/** Answers the page with status 404. */
export function sendNotFoundPage(ctx: AppContext): void {
  ctx.status = 404;
  ctx.set('Content-Security-Policy', CSP);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = renderNotFoundPage(ctx.path);
}
