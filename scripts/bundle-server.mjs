// Part of `npm run build`, after tsc and copy-assets: the server as one file.
// - dist/server-bundle.cjs: host/main.ts and its dependencies, bundled (settings shared with
//   the single executable: scripts/bundle.mjs); better-sqlite3 stays in node_modules (it finds
//   its native addon beside its own files).
// - dist/server.cjs: the entry `npm start`, the Dockerfile and the systemd unit run
//   (scripts/server-launcher.cjs): loads the bundle through V8's code cache,
//   dist/server-bundle.cjs.cache, which this script writes.
// The compiled modules under dist/ stay: the bundle's modules find their assets there, `node
// dist/host/main.js` still works, and wakeup-admin runs from them.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleServer } from './bundle.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
await bundleServer({
  root,
  entry: join(root, 'host/main.ts'),
  outfile: join(root, 'dist/server-bundle.cjs'),
  moduleUrls: true,
  external: ['better-sqlite3'],
});
// Pure ASCII, so that the launcher can read it as latin1 (4 times faster than decoding UTF-8).
// esbuild already escapes non-ASCII characters in code; a few comments keep theirs. A \uXXXX
// escape (surrogate pairs for the rest) means the same in a comment, a string or a regular
// expression.
const bundle = join(root, 'dist/server-bundle.cjs');
const text = readFileSync(bundle, 'utf8');
const ascii = text.replace(
  /[^\t-~]/g,
  (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
);
if (ascii !== text) writeFileSync(bundle, ascii);
copyFileSync(join(root, 'scripts/server-launcher.cjs'), join(root, 'dist/server.cjs'));
createRequire(import.meta.url)(join(root, 'dist/server.cjs')).prime();
