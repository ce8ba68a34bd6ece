/* global process, console, URL */
// `npm run build:engine`: the engine as an installable package.
//
//   node scripts/build-engine.mjs [--out DIR] [--check-api]     (default DIR: dist/)
//
// Compiles engine/ (JavaScript and .d.ts, engine/tsconfig.build.json) into a staging folder,
// DIR/engine-package/, beside engine/package.json, engine/README.md and the repository's
// LICENSE and engine/NOTICE (the engine's own third-party notices), then `npm pack`s it into DIR/wakeup-engine-<version>.tgz and prints
// that path. Then the API report of each entry, engine/api/<entry>.api.md (scripts/api-report.mjs,
// api-extractor): rewritten, or with --check-api compared, failing on a difference. That is
// the only thing written under engine/ (Markdown: no built code reaches lint or the type
// check); test/e2e/package.test.ts runs this script into a temporary folder, with --check-api.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiReports } from './api-report.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = process.argv.indexOf('--out');
const out = resolve(at > 0 && process.argv[at + 1] ? process.argv[at + 1] : join(root, 'dist'));
const stage = join(out, 'engine-package');

rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
const tsc = join(root, 'node_modules/typescript/bin/tsc');
execFileSync(
  process.execPath,
  [tsc, '-p', join(root, 'engine/tsconfig.build.json'), '--outDir', join(stage, 'dist')],
  {
    stdio: 'inherit',
  },
);
for (const [from, to] of [
  ['engine/package.json', 'package.json'],
  ['engine/README.md', 'README.md'],
  ['LICENSE', 'LICENSE'],
  ['engine/NOTICE', 'NOTICE'],
])
  copyFileSync(join(root, from), join(stage, to));

const { name, version } = JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8'));
const file = `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
rmSync(join(out, file), { force: true });
execFileSync('npm', ['pack', '--silent', '--pack-destination', out], {
  cwd: stage,
  stdio: ['ignore', 'ignore', 'inherit'],
});
await apiReports({ root, stage, check: process.argv.includes('--check-api') });
console.log(join(out, file)); // last: callers read the tarball's path from the last line
