/**
 * Issue 27: the access log is written asynchronously (pino's asynchronous destination) and
 * flushed at a clean stop (SIGTERM) and on a fatal error: no line is lost either way.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const REQUESTS = 400;

/** Starts host/main.ts on a temporary SQLite file; collects its stdout lines. */
async function startMain(dir: string, preload: string[] = []) {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    PORT: '0',
    WAKEUP_DB: join(dir, 'wakeup.sqlite'),
    WAKEUP_LOG_PRETTY: '0',
    WAKEUP_RATE_LIMIT_IP: '100000',
  };
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', ...preload.flatMap((p) => ['--import', p]), 'host/main.ts'],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: Array<Record<string, any>> = [];
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += String(c)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  const closed = new Promise<void>((resolve) => child.stdout.once('end', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (c) => {
      buf += String(c);
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = JSON.parse(buf.slice(0, i)) as Record<string, any>;
        buf = buf.slice(i + 1);
        lines.push(line);
        if (typeof line.url === 'string') resolve(line.url);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  return { child, url, lines, exited, closed, stderr: () => stderr };
}

/** Sends REQUESTS GET /time at once (their access-log lines pile up in the buffer). */
async function burst(url: string): Promise<void> {
  const answers = await Promise.all(
    Array.from({ length: REQUESTS }, () => fetch(`${url}/api/v1/time`).then((r) => r.status)),
  );
  assert.deepEqual(new Set(answers), new Set([200]));
}

const accessLines = (lines: Array<Record<string, any>>) =>
  lines.filter((l) => l.msg === 'request' && l.path === '/api/v1/time');

describe('access log (asynchronous destination)', () => {
  it('keeps every access-log line at a clean stop (SIGTERM right after a burst of requests)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wakeup-log-flush-'));
    try {
      const s = await startMain(dir);
      await burst(s.url);
      s.child.kill('SIGTERM');
      assert.equal(await s.exited, 0, s.stderr());
      await s.closed;
      assert.equal(accessLines(s.lines).length, REQUESTS);
      assert.equal(s.lines.at(-1)!.msg, 'stopped: database closed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps every access-log line on a fatal error, and logs the error last (exit 1)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wakeup-log-flush-'));
    try {
      const s = await startMain(dir, ['./test/host/fixtures/throw-on-sigusr2.ts']);
      await burst(s.url);
      s.child.kill('SIGUSR2');
      assert.equal(await s.exited, 1, s.stderr());
      await s.closed;
      assert.equal(accessLines(s.lines).length, REQUESTS);
      const last = s.lines.at(-1)!;
      assert.equal(last.level, 60);
      assert.match(last.err.message, /fatal error of the log-flush test/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
