/* global process, console, URL */
// `npm run build:binary`: the single-file server, dist/wakeup (Node's single executable
// applications). Steps:
// 1. esbuild bundles host/single-file.ts and every dependency into one CommonJS file;
// 2. the assets the server reads at run time (host/assets.ts) are listed for the blob: the
//    OpenAPI document, the migrations, swagger-ui's files, better-sqlite3's native addon, and
//    the web app's files (web/), and a manifest of the folders;
// 3. `node --experimental-sea-config` writes the preparation blob;
// 4. a copy of this node executable gets the blob injected with postject.
// The result runs on the same OS and CPU family as the node that built it.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { bundleServer } from './bundle.mjs';

const require = createRequire(import.meta.url);
const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const out = join(root, 'dist', 'sea');
const exe = join(root, 'dist', process.platform === 'win32' ? 'wakeup.exe' : 'wakeup');
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const started = Date.now();
const step = (what) =>
  console.log(`build:binary: ${what} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// 1. One CommonJS file (settings shared with `npm run build`'s bundle: scripts/bundle.mjs).
// The two `createRequire(import.meta.url)` loaders that read packages (zone search's airport
// list, the docs page's swagger-ui folder) become plain `require`, so esbuild bundles what they
// load; `import.meta.url` is the executable's file URL.
const bundle = join(out, 'wakeup.cjs');
await bundleServer({
  root,
  entry: join(root, 'host/single-file.ts'),
  outfile: bundle,
  stripCreateRequire: true,
});
step(`bundled ${(statSync(bundle).size / 1e6).toFixed(1)} MB`);

// 2. Assets, under the keys host/assets.ts reads.
const assets = { 'schema/openapi.yaml': join(root, 'schema/openapi.yaml') };
const folders = {};
const migrations = join(root, 'host/db/migrations');
folders.migrations = readdirSync(migrations)
  .filter((f) => f.endsWith('.sql'))
  .sort();
for (const f of folders.migrations) assets[`migrations/${f}`] = join(migrations, f);
const migrationsPg = join(root, 'host/db/migrations-pg');
folders['migrations-pg'] = readdirSync(migrationsPg)
  .filter((f) => f.endsWith('.sql'))
  .sort();
for (const f of folders['migrations-pg']) assets[`migrations-pg/${f}`] = join(migrationsPg, f);
const swagger = require('swagger-ui-dist').getAbsoluteFSPath();
folders['swagger-ui'] = [
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'favicon-32x32.png',
  'favicon-16x16.png',
];
for (const f of folders['swagger-ui']) assets[`swagger-ui/${f}`] = join(swagger, f);
// The operator's charts (host/http/site/vendor.ts).
const uplot = join(dirname(require.resolve('uplot/package.json')), 'dist');
folders.uplot = ['uPlot.esm.js', 'uPlot.min.css'];
for (const f of folders.uplot) assets[`uplot/${f}`] = join(uplot, f);
// The web app (host/http/site/web-assets.ts): every file under web/, by its relative path.
const web = join(root, 'web');
const webFiles = (dir) =>
  readdirSync(join(web, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? webFiles(join(dir, e.name)) : [join(dir, e.name).split(sep).join('/')],
  );
folders.web = webFiles('').sort();
for (const f of folders.web) assets[`web/${f}`] = join(web, f);
assets['better_sqlite3.node'] = join(
  dirname(require.resolve('better-sqlite3/package.json')),
  'build/Release/better_sqlite3.node',
);
const manifest = join(out, 'manifest.json');
writeFileSync(manifest, JSON.stringify({ version, folders }, null, 2));
assets['manifest.json'] = manifest;

// 3. The blob.
const config = join(out, 'sea-config.json');
const blob = join(out, 'sea-prep.blob');
writeFileSync(
  config,
  JSON.stringify(
    {
      main: bundle,
      output: blob,
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache: false,
      assets,
    },
    null,
    2,
  ),
);
execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: 'inherit' });
step(`blob ${(statSync(blob).size / 1e6).toFixed(1)} MB`);

// 4. A copy of node with the blob injected.
rmSync(exe, { force: true });
copyFileSync(process.execPath, exe);
chmodSync(exe, 0o755);
const postject = join(dirname(require.resolve('postject/package.json')), 'dist/cli.js');
// postject's ELF reader (LIEF) warns "Can't find string offset for section name '.note.100'"
// (and '.note') for each note of Node's own linux binary whose section has no name in the
// string table: it only reads them, the injected blob goes into a section of its own, and the
// binary runs (postject issue 83; test/e2e/single-file.test.ts runs it). Those lines are
// dropped; every other line postject prints passes through, and its exit status counts.
const injected = spawnSync(
  process.execPath,
  [
    postject,
    exe,
    'NODE_SEA_BLOB',
    blob,
    '--sentinel-fuse',
    'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
    ...(process.platform === 'darwin' ? ['--macho-segment-name', 'NODE_SEA'] : []),
  ],
  { encoding: 'utf8' },
);
const harmless = /^warning: Can't find string offset for section name '\.note(\.\d+)?'$/;
for (const [stream, text] of [
  [process.stdout, injected.stdout],
  [process.stderr, injected.stderr],
]) {
  const kept = (text ?? '').split('\n').filter((line) => !harmless.test(line.trim()));
  if (kept.join('').trim()) stream.write(kept.join('\n'));
}
if (injected.status !== 0)
  throw new Error(
    `postject failed (${injected.status ?? injected.signal}): ${injected.error?.message ?? ''}`,
  );
step(
  `wrote ${exe} (${(statSync(exe).size / 1e6).toFixed(0)} MB, node ${process.versions.node}, ${process.platform}-${process.arch})`,
);
