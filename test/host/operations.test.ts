import assert from 'node:assert/strict';
import { pingDatabase } from '../../host/db/open.js';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { createLogger, REDACT_PATHS } from '../../host/logger.js';
import * as auth from '../../host/http/routes/auth.js';
import type { RouteModule } from '../../host/http/registrar.js';
import { requestCode, signIn, startTestServer, PRODUCTION_ENV } from '../helpers/server.js';
import { req } from '../helpers/http.js';

/** A writable that keeps JSON log lines. */
function capture() {
  const lines: Array<Record<string, any>> = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(JSON.parse(l));
      cb();
    },
  });
  return { lines, stream };
}

describe('logs', () => {
  it('writes one JSON line per request with its request id, and no credentials', async () => {
    const { lines, stream } = capture();
    const server = await startTestServer({ logStream: stream });
    try {
      const { token } = await signIn(server);
      const key = (await req(server.api, 'POST', '/api-keys', { token, body: { name: 'log' } }))
        .body.key as string;
      await req(server.api, 'GET', '/me', {
        token: key,
        headers: { 'x-request-id': 'log-test-1', cookie: 'sessionid=wuw_x' },
      });
      const line = lines.find((l) => l.reqId === 'log-test-1' && l.msg === 'request');
      assert.ok(line, 'access line with the request id');
      assert.equal(line.method, 'GET');
      assert.equal(line.path, '/api/v1/me');
      assert.equal(line.status, 200);
      assert.equal(line.op, 'getMe');
      assert.equal(typeof line.time, 'number');
      const all = JSON.stringify(lines);
      assert.ok(!all.includes(token), 'session token not logged');
      assert.ok(!all.includes(key), 'API key not logged');
      // Dev mode prints sign-in codes on purpose (contract §2), in the outbox line only.
      assert.ok(lines.some((l) => /dev outbox: email to .*sign-in code is \d{6}/.test(l.msg)));
    } finally {
      await server.close();
    }
  });

  it('answers a request it cannot read as Node does (400, 431) and logs it, where no handler would', async () => {
    const { lines, stream } = capture();
    const server = await startTestServer({ logStream: stream });
    try {
      const { port, hostname } = new URL(server.api);
      const send = (text: string) =>
        new Promise<string>((resolve, reject) => {
          let got = '';
          const socket = connect(Number(port), hostname, () => socket.end(text));
          socket.on('data', (d) => (got += String(d)));
          socket.on('close', () => resolve(got));
          socket.on('error', reject);
        });
      assert.match(await send('NOT HTTP AT ALL\r\n\r\n'), /^HTTP\/1\.1 400 Bad Request\r\n/);
      assert.match(
        await send(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
        /^HTTP\/1\.1 431 /,
      );
      const warned = lines.filter((l) => l.msg.startsWith('request not read'));
      assert.deepEqual(
        warned.map((l) => [l.level, l.answered]),
        [
          [40, '400 Bad Request'],
          [40, '431 Request Header Fields Too Large'],
        ],
      );
      // On a kept-alive connection already answered once, the next unreadable request is answered too.
      const { port: p, hostname: h } = new URL(server.api);
      const answers = await new Promise<string[]>((resolve, reject) => {
        const lines: string[] = [];
        const socket = connect(Number(p), h, () =>
          socket.write('GET /api/v1/time HTTP/1.1\r\nHost: x\r\n\r\n'),
        );
        socket.on('data', (d) => {
          for (const m of String(d).matchAll(/^HTTP\/1\.1 (\d{3})/gm)) lines.push(m[1]!);
          if (lines.length === 1 && !socket.writableEnded) socket.end('NOT HTTP AT ALL\r\n\r\n');
        });
        socket.on('close', () => resolve(lines));
        socket.on('error', reject);
      });
      assert.deepEqual(answers, ['200', '400']);
      // The server still serves.
      assert.equal((await req(server.api, 'GET', '/timezones?limit=1')).status, 200);
    } finally {
      await server.close();
    }
  });

  it('does not print sign-in codes outside dev mode', async () => {
    const { lines, stream } = capture();
    const server = await startTestServer({ logStream: stream, env: PRODUCTION_ENV });
    try {
      await req(server.api, 'POST', '/auth/email/start', { body: { email: 'quiet@example.com' } });
      assert.ok(!lines.some((l) => /\b\d{6}\b/.test(String(l.msg))));
    } finally {
      await server.close();
    }
  });

  it('redacts tokens, codes, keys, cookies and authorization wherever they are logged', () => {
    const { lines, stream } = capture();
    const logger = createLogger({ logLevel: 'info', logPretty: false }, stream);
    logger.info({
      token: 'wus_secret1',
      code: '123456',
      key: 'wuk_secret2',
      session_token: 'wus_secret3',
      csrf_token: 'csrf_secret4',
      req: {
        headers: {
          authorization: 'Bearer wuk_secret5',
          cookie: 'sessionid=wuw_secret6',
          'x-session-token': 'wus_secret7',
          'x-csrftoken': 'c8',
        },
      },
      res: { headers: { 'set-cookie': 'sessionid=wuw_secret9' } },
      body: { code: '654321' },
      nested: { token: 'wus_secret10', key: 'wuk_secret11' },
    });
    const text = JSON.stringify(lines);
    for (const secret of [
      'secret1',
      '123456',
      'secret2',
      'secret3',
      'secret4',
      'secret5',
      'secret6',
      'secret7',
      '"c8"',
      'secret9',
      '654321',
      'secret10',
      'secret11',
    ]) {
      assert.ok(!text.includes(secret), secret);
    }
    assert.ok(REDACT_PATHS.length > 10);
  });
});

describe('graceful shutdown', () => {
  it('stops taking connections, lets an in-flight request finish, then closes the database', async () => {
    let release!: () => void;
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const slow: RouteModule = {
      register(routes) {
        routes.operation('getMe', async () => {
          entered();
          await new Promise<void>((r) => (release = r));
          return { status: 200, body: { finished: true } };
        });
      },
    };
    const server = await startTestServer({ modules: [auth, slow] });
    const { token } = await signIn(server);
    const inFlight = req(server.api, 'GET', '/me', { token });
    await inside;
    const closing = server.running.close();
    const ready = await req(server.url, 'GET', '/readyz').catch(() => null);
    // New connections are refused once close() ran; a reused keep-alive socket may still see 503.
    if (ready) assert.equal(ready.status, 503);
    assert.equal(
      await pingDatabase(server.running.deps.db),
      true,
      'database open while a request runs',
    );
    release();
    const res = await inFlight;
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { finished: true });
    await closing;
    assert.equal(await pingDatabase(server.running.deps.db), false);
    await assert.rejects(fetch(`${server.url}/healthz`));
    await server.close();
  });
});

describe('npm start (host/main.ts)', () => {
  it('starts in dev mode on loopback with no configuration, says so first, and exits 0 on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wakeup-main-'));
    try {
      const env: Record<string, string> = {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        WAKEUP_DB: join(dir, 'wakeup.sqlite'),
        WAKEUP_LOG_PRETTY: '0',
      };
      const child = spawn(process.execPath, ['--import', 'tsx', 'host/main.ts'], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const lines: Array<Record<string, any>> = [];
      let stderr = '';
      child.stderr.on('data', (c) => (stderr += String(c)));
      const url = await new Promise<string>((resolve, reject) => {
        let buf = '';
        child.stdout.on('data', (c) => {
          buf += String(c);
          let i;
          while ((i = buf.indexOf('\n')) >= 0) {
            const line = JSON.parse(buf.slice(0, i));
            buf = buf.slice(i + 1);
            lines.push(line);
            if (lines.length === 2) resolve(lines[0]!.url);
          }
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
      });
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.match(lines[0]!.msg, /listening on http:\/\/127\.0\.0\.1/);
      assert.match(lines[1]!.msg, /DEV MODE .*loopback only.*WAKEUP_DEV=0/);
      // It serves: sign in through the outbox like the README says.
      const code = await requestCode({ url, api: `${url}/api/v1` }, 'main@example.com');
      assert.match(code, /^\d{6}$/);
      const exit = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
      child.kill('SIGTERM');
      assert.equal(await exit, 0);
      assert.ok(lines.some((l) => l.msg === 'stopped: database closed'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a dev-mode server on a non-loopback address', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'host/main.ts'], {
      env: { PATH: process.env.PATH ?? '', HOST: '0.0.0.0', PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += String(c)));
    const code = await new Promise<number | null>((resolve) =>
      child.once('exit', (c) => resolve(c)),
    );
    assert.equal(code, 2);
    assert.match(stderr, /loopback/);
  });
});
