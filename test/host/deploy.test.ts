/**
 * The deploy recipes (Dockerfile, deploy/wakeup.service) use only commands the tests prove:
 * the production command is the one `npm start` runs (test/e2e/npm-start.test.ts), the
 * container's HEALTHCHECK command answers 0 on a ready server and 1 otherwise, the production
 * environment they set loads, and the systemd unit passes `systemd-analyze verify` where
 * systemd is installed.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../host/config.js';
import { PRODUCTION_ENV, startTestServer } from '../helpers/server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dockerfile = readFileSync(`${ROOT}Dockerfile`, 'utf8');
const unit = readFileSync(`${ROOT}deploy/wakeup.service`, 'utf8');
const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
  scripts: Record<string, string>;
};

/** The JSON-array form of a Dockerfile instruction. */
function execForm(instruction: string): string[] {
  const m = new RegExp(
    `^${instruction} (?:--\\S+ (?:\\\\\\n\\s*)?)*(?:CMD )?(\\[.*\\])$`,
    'm',
  ).exec(dockerfile.replace(/\\\n\s*/g, ''));
  assert.ok(m, `${instruction} in exec form`);
  return JSON.parse(m[1]!) as string[];
}

/** Runs node with `args` and resolves with its exit code (asynchronously: the server under test shares this process). */
function runNode(args: string[], env: Record<string, string>): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env },
      stdio: 'ignore',
    });
    const timer = setTimeout(() => child.kill(), 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

describe('deploy recipes', () => {
  it('the container runs the production command npm start runs, as a non-root user, with the database on a volume', () => {
    assert.equal(pkg.scripts.start, 'exec node dist/server.cjs');
    assert.deepEqual(execForm('CMD'), ['node', 'dist/server.cjs']);
    assert.match(dockerfile, /^RUN npm ci --omit=dev$/m);
    assert.match(dockerfile, /^RUN npm run build$/m);
    assert.match(dockerfile, /^USER node$/m);
    assert.match(dockerfile, /^VOLUME \["\/var\/lib\/wakeup"\]$/m);
    assert.equal((dockerfile.match(/^FROM /gm) ?? []).length, 2, 'multi-stage');
    assert.match(unit, /^ExecStart=\/usr\/bin\/env node dist\/server\.cjs$/m);
  });

  it('the environment the recipes set, plus the SMTP relay, loads in production mode', () => {
    const env: Record<string, string> = {};
    for (const m of dockerfile.replace(/\\\n\s*/g, ' ').matchAll(/(?:ENV\s+|\s)([A-Z_]+)=(\S+)/g))
      env[m[1]!] = m[2]!;
    assert.equal(env.WAKEUP_DEV, '0');
    const smtp = {
      WAKEUP_EMAIL: 'smtp',
      WAKEUP_SMTP_URL: 'smtp://u:p@mail.example.com:587',
      WAKEUP_EMAIL_FROM: 'wake@example.com',
    };
    const c = loadConfig({ ...env, ...smtp });
    assert.equal(c.dev, false);
    assert.equal(c.host, '0.0.0.0');
    assert.equal(c.dbFile, '/var/lib/wakeup/wakeup.sqlite');
    const unitEnv = Object.fromEntries(
      (/^Environment=(.*)$/m.exec(unit)?.[1] ?? '')
        .split(' ')
        .map((kv) => kv.split('=') as [string, string]),
    );
    assert.equal(loadConfig({ ...unitEnv, ...smtp }).dev, false);
  });

  it('the HEALTHCHECK command exits 0 on a ready server and 1 when nothing answers', async () => {
    const [node, ...args] = execForm('HEALTHCHECK');
    assert.equal(node, 'node');
    assert.match(args.join(' '), /\/readyz/);
    const server = await startTestServer({ env: PRODUCTION_ENV });
    const port = new URL(server.url).port;
    try {
      assert.equal(await runNode(args, { PORT: port }), 0);
    } finally {
      await server.close();
    }
    assert.equal(await runNode(args, { PORT: port }), 1);
  });

  it('the systemd unit passes systemd-analyze verify (where systemd is installed)', (t) => {
    const r = spawnSync('systemd-analyze', ['verify', `${ROOT}deploy/wakeup.service`], {
      encoding: 'utf8',
    });
    if (r.error) {
      t.skip('systemd-analyze is not installed');
      return;
    }
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr.trim(), '');
  });
});
