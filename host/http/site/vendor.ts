/**
 * Browser libraries the web app loads from npm packages, served by this server (no CDN):
 * uPlot (MIT) for the operator's charts (#/ops, docs/decisions/0027-operator-view.md), at
 * `/ui/vendor/uplot.js` (its ES module build) and `/ui/vendor/uplot.css`. In the single-file
 * build they are assets under `uplot/` (scripts/build-binary.mjs).
 * @module
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Routes } from '../registrar.js';
import { readAsset } from '../../assets.js';

/** Served path under /ui/vendor/ → the file of uplot/dist and its type. */
const FILES: Record<string, { file: string; type: string }> = {
  'uplot.js': { file: 'uPlot.esm.js', type: 'text/javascript; charset=utf-8' },
  'uplot.css': { file: 'uPlot.min.css', type: 'text/css; charset=utf-8' },
};

const require = createRequire(import.meta.url);

/** Registers the vendored files. */
export function register(routes: Routes): void {
  const dist = () => join(dirname(require.resolve('uplot/package.json')), 'dist');
  for (const [name, { file, type }] of Object.entries(FILES)) {
    const data = readAsset(`uplot/${file}`, () => join(dist(), file));
    const etag = `"${createHash('sha256').update(data).digest('base64url').slice(0, 22)}"`;
    routes.page('GET', `/ui/vendor/${name}`, (ctx) => {
      ctx.set('ETag', etag);
      ctx.set('Cache-Control', 'no-cache');
      ctx.set('X-Content-Type-Options', 'nosniff');
      if (ctx.get('If-None-Match') === etag) {
        ctx.status = 304;
        return;
      }
      ctx.type = type;
      ctx.body = data;
    });
  }
}
