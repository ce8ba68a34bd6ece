/**
 * GET /docs: the API reference (Swagger UI from the swagger-ui-dist package, served from this
 * server: no CDN) reading /api/v1/openapi.json. The site root (/) is the web app (./web-app.ts).
 * @module
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Routes } from '../registrar.js';

/** Files of swagger-ui-dist the page loads, with their content types. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const require = createRequire(import.meta.url);

/** Folder of the installed swagger-ui-dist package. */
function swaggerDir(): string {
  return (require('swagger-ui-dist') as { getAbsoluteFSPath(): string }).getAbsoluteFSPath();
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Wake-Up Call API reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-ui-standalone-preset.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

// A separate file rather than an inline script, so a strict Content-Security-Policy works.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});
`;

/** Registers /docs and its assets. */
export function register(routes: Routes): void {
  const dir = swaggerDir();
  const files = new Map(Object.entries(ASSETS).map(([name, type]) => [name, { type, data: readFileSync(join(dir, name)) }]));
  routes.page('GET', '/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });
  routes.page('GET', '/docs/init.js', (ctx) => {
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.body = INIT;
  });
  for (const [name, file] of files) {
    routes.page('GET', `/docs/${name}`, (ctx) => {
      ctx.type = file.type;
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.body = file.data;
    });
  }
}
