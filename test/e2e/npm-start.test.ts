/**
 * The signal path through `npm start` (contract §1, Shutdown): a container runtime sends
 * SIGTERM to the process it started, here npm. `npm start` builds (prestart), then runs
 * `exec node dist/server.cjs`, so npm's child IS node and npm forwards the signal to it:
 * node drains, closes the database and exits 0, the port closes, and npm exits 0. A signal to
 * the whole process group (a terminal's Ctrl-C, `kill -TERM -<pgid>`) reaches node twice,
 * directly and forwarded by npm: still one graceful stop and exit 0.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Started {
  url: string;
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  npm: ReturnType<typeof spawn>;
}

async function npmStart(dir: string, group = false): Promise<Started> {
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    // Its own process group, as a shell job or a supervisor's child has.
    detached: group,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      WAKEUP_DB: join(dir, 'wakeup.sqlite'),
      WAKEUP_LOG_PRETTY: '0',
      WAKEUP_LOG_LEVEL: 'info',
      npm_config_update_notifier: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    npm.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let buffered = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start did not listen in time:\n${lines.join('\n')}`)),
      150_000,
    );
    npm.stdout.setEncoding('utf8');
    npm.stderr.setEncoding('utf8');
    npm.stderr.on('data', (chunk: string) => lines.push(chunk));
    npm.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as { url?: string; msg?: string };
        if (entry.url && entry.msg?.startsWith('Wake-Up Call service listening')) {
          clearTimeout(timer);
          resolve(entry.url);
        }
      }
    });
    void exited.then((e) =>
      reject(new Error(`npm start exited early (${e.code ?? e.signal}):\n${lines.join('\n')}`)),
    );
  });
  return { url, lines, exited, npm };
}

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/healthz`);
    return false;
  } catch {
    return true;
  }
}

describe('npm start and signals', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'wakeup-npm-start-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to npm start reaches node, which drains and exits 0; the port closes; npm exits 0`, async () => {
      const s = await npmStart(dir);
      const health = await fetch(`${s.url}/healthz`);
      assert.equal(health.status, 200);
      s.npm.kill(signal);
      const e = await s.exited;
      assert.deepEqual(e, { code: 0, signal: null }, s.lines.join('\n'));
      assert.ok(
        s.lines.some((l) => l.includes('stopped: database closed')),
        'node ran its graceful shutdown',
      );
      assert.ok(
        await refused(s.url),
        'nothing listens on the port any more (node did not outlive npm)',
      );
    });
  }

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to npm start's process group (node gets it twice): one graceful stop, exit 0`, async () => {
      const s = await npmStart(dir, true);
      assert.equal((await fetch(`${s.url}/healthz`)).status, 200);
      process.kill(-s.npm.pid!, signal);
      const e = await s.exited;
      assert.deepEqual(e, { code: 0, signal: null }, s.lines.join('\n'));
      assert.ok(
        s.lines.some((l) => l.includes('stopped: database closed')),
        'node ran its graceful shutdown',
      );
      assert.ok(!s.lines.some((l) => l.includes('second signal')), s.lines.join('\n'));
      assert.ok(await refused(s.url), 'nothing listens on the port any more');
    });
  }

  it('a taken port: one line naming PORT on stderr, exit 1 (dist/server.cjs, built by npm start above)', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const node = spawn(process.execPath, [join(ROOT, 'dist/server.cjs')], {
        cwd: ROOT,
        env: {
          ...process.env,
          HOST: '127.0.0.1',
          PORT: String(port),
          WAKEUP_DB: join(dir, 'taken.sqlite'),
          WAKEUP_LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      node.stderr.setEncoding('utf8');
      node.stderr.on('data', (chunk: string) => (stderr += chunk));
      const code = await new Promise<number | null>((resolve) =>
        node.once('exit', (c) => resolve(c)),
      );
      assert.equal(code, 1);
      assert.deepEqual(stderr.trim().split('\n').length, 1, stderr);
      assert.match(stderr, new RegExp(`127\\.0\\.0\\.1:${port} is already in use: .*set PORT`));
    } finally {
      taken.close();
    }
  });
});
