/**
 * GET /docs: the API reference (Swagger UI from the swagger-ui-dist package, served from this
 * server: no CDN). The site root (/) is the web app (./web-app.ts).
 *
 * Swagger UI reads GET /docs/openapi.json, the schema document adapted for display (the API's
 * own /api/v1/openapi.json is unchanged):
 * - without `jsonSchemaDialect`: Swagger UI supports only the OpenAPI base dialect (the
 *   default when the field is absent) and shows a warning box for any other value, such as
 *   our explicit JSON Schema 2020-12 (which the server's validator uses);
 * - operations marked `x-implemented: false` (they answer 404 until their issue lands) get
 *   the summary prefix {@link NOT_SERVED_PREFIX} and a first line saying so in their description.
 * @module
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { loadOpenApi } from '../../../schema/load.js';
import type { Routes } from '../registrar.js';
import { readAsset } from '../../assets.js';

/** Summary prefix of the operations not served yet, in what /docs shows. */
export const NOT_SERVED_PREFIX = '[Not served yet] ';

const HTTP_METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace'];

/** The schema document as /docs shows it (see the module header). */
export function docsDocument(): Record<string, unknown> {
  const doc = structuredClone(loadOpenApi()) as Record<string, unknown> & {
    paths?: Record<string, Record<string, any>>;
  };
  delete doc.jsonSchemaDialect;
  for (const item of Object.values(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item[method] as
        { summary?: string; description?: string; 'x-implemented'?: boolean } | undefined;
      if (!op || op['x-implemented'] !== false) continue;
      op.summary = NOT_SERVED_PREFIX + (op.summary ?? '');
      const note =
        '**Not served yet**: this operation answers 404 not_found until the work that builds it lands.';
      op.description = op.description ? `${note}\n\n${op.description}` : note;
    }
  }
  return doc;
}

/** Files of swagger-ui-dist the page loads, with their content types. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const require = createRequire(import.meta.url);

/**
 * Folder of the installed swagger-ui-dist package. Its `absolute-path.js` alone: the
 * package's main module also evaluates the 1.5 MB browser bundle (some 200 ms of start-up).
 */
function swaggerDir(): string {
  return (require('swagger-ui-dist/absolute-path.js') as () => string)();
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
  url: '/docs/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});
`;

/** Registers /docs and its assets. */
export function register(routes: Routes): void {
  const files = new Map(
    Object.entries(ASSETS).map(([name, type]) => [
      name,
      { type, data: readAsset(`swagger-ui/${name}`, () => join(swaggerDir(), name)) },
    ]),
  );
  routes.page('GET', '/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });
  const shown = JSON.stringify(docsDocument());
  routes.page('GET', '/docs/openapi.json', (ctx) => {
    ctx.type = 'application/json; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = shown;
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
