// esbuild settings shared by the two bundles of the server, so they cannot drift apart:
// - `npm run build` (scripts/bundle-server.mjs): dist/server.cjs, what `npm start`, the
//   Dockerfile, the systemd unit and the load harnesses run. It sits beside the compiled
//   modules and their assets, and starts in a fraction of the time the ~250 separate ES
//   modules (and some 400 files of node_modules) take to resolve, read and link.
// - `npm run build:binary` (scripts/build-binary.mjs): the single executable, dist/wakeup.
//
// Both are one CommonJS file (no top-level await in the server; CommonJS loads without the
// ES module loader's asynchronous linking). `import.meta.url` is the bundle's own file URL
// (`__wakeup_import_meta_url`, set in the banner) unless `moduleUrls` is on (below).
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { build } from 'esbuild';

/**
 * Our sources (engine/, host/, schema/) pass through here on their way into the bundle.
 * - `stripCreateRequire`: the two `createRequire(import.meta.url)` loaders that read packages
 *   (zone search's airport list, the docs page's swagger-ui folder) become plain `require`,
 *   so esbuild bundles what they load (the single executable has no node_modules).
 * - `moduleUrls`: `import.meta.url` in each module becomes the URL its compiled copy has
 *   under dist/ (`dist/host/db/migrate.js` for host/db/migrate.ts), computed from the
 *   bundle's own location at run time. Every asset a module finds beside itself (migrations,
 *   openapi.json, web/) is then where `npm run build` copied it for the compiled modules, and
 *   `createRequire` resolves packages from there, as before. Needs the bundle in dist/.
 */
function sourcePlugin({ root, stripCreateRequire, moduleUrls }) {
  return {
    name: 'wakeup-sources',
    setup(b) {
      b.onLoad({ filter: /\/(engine|host|schema)\/.*\.ts$/ }, (args) => {
        let text = readFileSync(args.path, 'utf8');
        if (stripCreateRequire)
          text = text.replace(/^\s*const require = createRequire\(import\.meta\.url\);\s*$/m, '');
        if (moduleUrls) {
          const compiled = relative(root, args.path).split(sep).join('/').replace(/\.ts$/, '.js');
          text = text.replaceAll(
            'import.meta.url',
            `new URL(${JSON.stringify(compiled)}, __wakeup_import_meta_url).href`,
          );
        }
        return { contents: text, loader: 'ts' };
      });
    },
  };
}

/**
 * Bundles the server from `entry` into `outfile` (one CommonJS file).
 * @param {object} o
 * @param {string} o.root the repository root
 * @param {string} o.entry entry module (absolute path)
 * @param {string} o.outfile output file (absolute path)
 * @param {boolean} [o.stripCreateRequire] bundle what `createRequire` loaders load (single executable)
 * @param {boolean} [o.moduleUrls] each module's `import.meta.url` as under dist/ (outfile must be in dist/)
 * @param {string[]} [o.external] packages left to node_modules
 */
export async function bundleServer({
  root,
  entry,
  outfile,
  stripCreateRequire = false,
  moduleUrls = false,
  external = [],
}) {
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  if (moduleUrls && relative(join(root, 'dist'), outfile).includes(sep))
    throw new Error('bundleServer: moduleUrls wants the bundle directly in dist/');
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: false,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
    external,
    define: {
      'import.meta.url': '__wakeup_import_meta_url',
      __WAKEUP_VERSION__: JSON.stringify(version),
    },
    banner: {
      js: "var __wakeup_import_meta_url = require('node:url').pathToFileURL(__filename).href;",
    },
    plugins: [sourcePlugin({ root, stripCreateRequire, moduleUrls })],
  });
}
