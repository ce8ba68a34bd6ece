/**
 * The single-file server (contract §1, Single file): `npm run build:binary` writes
 * dist/wakeup; copied alone into an empty folder and started with PORT and WAKEUP_DB, it
 * serves the API (dev mode included) with its embedded schema, migrations, docs files and
 * SQLite addon, the addon extracted to a fresh cache folder at first start.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { req } from '../helpers/http.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

describe('single-file server (dist/wakeup)', () => {
  it('builds, runs from an empty folder, serves the API in dev mode and stops on SIGTERM', async () => {
    const build = spawnSync(process.execPath, ['scripts/build-binary.mjs'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(build.status, 0, build.stderr);
    // postject's harmless ELF-note warnings are filtered (scripts/build-binary.mjs; issue 30).
    assert.doesNotMatch(`${build.stdout}${build.stderr}`, /\.note\.100|string offset/);
    assert.match(build.stdout, /Injection done/);
    const dir = mkdtempSync(join(tmpdir(), 'wakeup-binary-'));
    const cache = join(dir, 'cache');
    try {
      const exe = join(dir, 'wakeup');
      copyFileSync(join(ROOT, 'dist/wakeup'), exe);
      execFileSync('chmod', ['+x', exe]);
      const version = spawnSync(exe, ['--version'], { cwd: dir, encoding: 'utf8' });
      assert.equal(version.status, 0, version.stderr);
      assert.match(version.stdout, new RegExp(`^wakeup ${VERSION.replace(/\./g, '\\.')} \\(node `));

      const child = spawn(exe, [], {
        cwd: dir,
        env: {
          PATH: process.env.PATH,
          HOME: dir,
          XDG_CACHE_HOME: cache,
          PORT: '0',
          WAKEUP_DB: './data/w.sqlite',
          WAKEUP_LOG_PRETTY: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((resolve) =>
        child.once('exit', (code) => resolve(code)),
      );
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listening line:\n${out}`)), 30_000);
        child.stderr.on('data', (c: Buffer) => (out += String(c)));
        child.stdout.on('data', (c: Buffer) => {
          out += String(c);
          const m = /"url":"(http:\/\/[^"]+)"/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
        child.once('exit', () => reject(new Error(`exited early:\n${out}`)));
      });
      try {
        assert.deepEqual(
          readdirSync(join(cache, 'wakeup')).length,
          1,
          'the SQLite addon extracted to the cache folder',
        );
        assert.ok(existsSync(join(dir, 'data/w.sqlite')));
        assert.equal((await req(url, 'GET', '/readyz')).status, 200);
        const email = 'binary@example.com';
        assert.equal(
          (await req(`${url}/api/v1`, 'POST', '/auth/email/start', { body: { email } })).status,
          202,
        );
        const code = (await req(url, 'GET', `/dev/outbox?to=${email}`)).body.items[0]
          .code as string;
        const verify = await req(`${url}/api/v1`, 'POST', '/auth/email/verify', {
          body: { email, code, client: 'app' },
        });
        assert.equal(verify.status, 200, verify.text);
        const token = verify.body.session_token as string;
        assert.equal((await req(`${url}/api/v1`, 'GET', '/me', { token })).body.email, email);
        // Validation from the embedded schema, zone search from the bundled airport list.
        assert.equal(
          (
            await req(`${url}/api/v1`, 'POST', '/schedules/preview', {
              token,
              body: { kind: 'nope' },
            })
          ).status,
          400,
        );
        assert.equal(
          (await req(`${url}/api/v1`, 'GET', '/timezones?q=JFK', { token })).body.items[0].timezone,
          'America/New_York',
        );
        const docs = await fetch(`${url}/docs/swagger-ui-bundle.js`);
        assert.equal(docs.status, 200);
        assert.ok((await docs.arrayBuffer()).byteLength > 100_000);
        assert.equal((await req(url, 'GET', '/metrics')).status, 200);
        // The web app's files travel inside the executable too.
        const page = await fetch(`${url}/`);
        assert.equal(page.status, 200);
        assert.match(await page.text(), /<script type="module"/);
        const appJs = await fetch(`${url}/ui/js/main.js`);
        assert.equal(appJs.status, 200, 'GET /ui/js/main.js');
      } finally {
        child.kill('SIGTERM');
      }
      assert.equal(await exited, 0, out);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
