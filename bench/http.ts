/**
 * `npm run bench:http`: the HTTP path under load. Builds the server (`npm run build`), starts
 * it as production runs it (`node dist/server.cjs`, dev mode for the sign-in, general rate
 * limits raised so that they never answer 429) and a bare Koa handler returning a body like
 * GET /me's (bench/http-bare.ts), each in its own process, signs in, verifies a number, then
 * runs autocannon against:
 *
 *   bare Koa                GET /
 *   GET /time               public, no credentials
 *   GET /me                 with a session
 *   POST /schedules/preview
 *   GET /occurrences
 *   GET /calls/{call_id}    a live test call (ringing; a phone that never answers), polled
 *
 * and prints requests/s, p50 and p99 latency, the ratio to the bare handler and the CPU time
 * the server process spent per request (user + system, from /proc, in µs).
 *
 * Options: `--connections 20` `--seconds 10`; `--pg` runs the service on PostgreSQL
 * (WAKEUP_TEST_PG_URL, or a throwaway server of scripts/pg-test-server.sh, stopped at the
 * end); `--binary` runs the single-file build (`npm run build:binary`, dist/wakeup) instead of
 * dist/server.cjs; `--profile <endpoint>` (time, me, preview, occurrences, call; default me)
 * runs the service under `node --cpu-prof`, measures that endpoint only and prints where its
 * CPU time goes (by function and by package), the profile kept in .bench/. Not part of
 * `npm test`.
 * @module
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { summarizeProfile } from './http-profile.js';
import { args } from './measure.js';

const opt = args();
const connections = Number(opt.get('connections') ?? 20);
const seconds = Number(opt.get('seconds') ?? 10);
const profiled = opt.has('profile')
  ? opt.get('profile') === 'true'
    ? 'me'
    : opt.get('profile')!
  : null;
const onPg = opt.has('pg');
const binary = opt.has('binary');
if (profiled && binary) throw new Error('bench:http: --profile needs node (not --binary)');
const root = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'wakeup-bench-http-'));
const profDir = join(root, '.bench', 'cpu');
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU time (user + system) of a process so far, in µs. */
function cpuMicros(pid: number): number {
  // Fields after the command name `(...)`: state is field 3; utime 14, stime 15.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1e6) / TICKS;
}

/** Starts a child and resolves with the URL it announces; its later output is drained. */
function start(
  cmd: string,
  argv: string[],
  env: Record<string, string>,
  pattern: RegExp,
): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out: string | null = '';
    child.stdout?.on('data', (c: Buffer) => {
      if (out === null) return; // found: keep reading (the access log) without keeping it
      out += String(c);
      const m = pattern.exec(out);
      if (m) {
        out = null;
        resolve({ child, url: m[1]! });
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`${cmd} ${argv.join(' ')} exited ${code}:\n${out ?? ''}`)),
    );
  });
}

async function json<T = Record<string, unknown>>(url: string, init: RequestInit = {}): Promise<T> {
  const r = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${r.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** CPU µs of the measured process per request. */
  cpuUs: number;
}

async function load(
  name: string,
  pid: number,
  url: string,
  options: Partial<autocannon.Options> = {},
): Promise<Row> {
  const cpu0 = cpuMicros(pid);
  const r = await autocannon({ url, connections, duration: seconds, ...options });
  const cpu = cpuMicros(pid) - cpu0;
  return {
    name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx + r.errors,
    cpuUs: cpu / Math.max(1, r.requests.total),
  };
}

const stopChild = (c: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (c.exitCode !== null) return resolve();
    c.once('exit', () => resolve());
    c.kill('SIGTERM');
  });

let pgDir: string | null = null;
let pgUrl = process.env.WAKEUP_TEST_PG_URL ?? '';
if (onPg && !pgUrl) {
  const out = execFileSync(join(root, 'scripts/pg-test-server.sh'), ['start'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  pgUrl = /WAKEUP_TEST_PG_URL=(\S+)/.exec(out)![1]!;
  pgDir = /WAKEUP_TEST_PG_DIR=(\S+)/.exec(out)![1]!;
}
const stopPg = () => {
  if (pgDir)
    execFileSync(join(root, 'scripts/pg-test-server.sh'), ['stop', pgDir], { stdio: 'inherit' });
  pgDir = null;
};

execFileSync('npm', ['run', binary ? 'build:binary' : 'build', '--silent'], {
  cwd: root,
  stdio: 'inherit',
});
const serviceEnv = {
  HOST: '127.0.0.1',
  PORT: '0',
  WAKEUP_DB: onPg ? pgUrl : join(work, 'bench.sqlite'),
  WAKEUP_DEV: '1',
  WAKEUP_LOG_PRETTY: '0',
  WAKEUP_RATE_LIMIT_ACCOUNT: '1000000',
  WAKEUP_RATE_LIMIT_IP: '1000000',
  WAKEUP_CODE_LIMIT_NUMBER: '1000/h',
};
if (profiled) mkdirSync(profDir, { recursive: true });
const service = await (binary
  ? start(join(root, 'dist/wakeup'), [], serviceEnv, /"url":"(http:\/\/[^"]+)"/)
  : start(
      process.execPath,
      [...(profiled ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), 'dist/server.cjs'],
      serviceEnv,
      /"url":"(http:\/\/[^"]+)"/,
    ));
const servicePid = service.child.pid!;
const api = `${service.url}/api/v1`;
const email = 'bench@example.com';
await json(`${api}/auth/email/start`, { method: 'POST', body: JSON.stringify({ email }) });
type Outbox = { items: Array<{ code: string }> };
const code = (await json<Outbox>(`${service.url}/dev/outbox?to=${email}`)).items[0]!.code;
const { session_token: token } = await json<{ session_token: string }>(`${api}/auth/email/verify`, {
  method: 'POST',
  body: JSON.stringify({ email, code, client: 'app' }),
});
const auth = { authorization: `Bearer ${token}` };
await json(`${api}/me`, {
  method: 'PATCH',
  headers: auth,
  body: JSON.stringify({ home_timezone: 'Europe/Paris' }),
});
const e164 = '+12015550123';
const phone = await json<{ id: string }>(`${api}/phone-numbers`, {
  method: 'POST',
  headers: auth,
  body: JSON.stringify({ e164 }),
});
const pcode = (
  await json<Outbox>(`${service.url}/dev/outbox?to=${encodeURIComponent(e164)}&channel=sms`)
).items[0]!.code;
await json(`${api}/phone-numbers/${phone.id}/verify/check`, {
  method: 'POST',
  headers: auth,
  body: JSON.stringify({ code: pcode }),
});
// A call for GET /occurrences to list, every weekday at 06:30.
const weekdays = {
  kind: 'recurring',
  days_of_week: ['mon', 'tue', 'wed', 'thu', 'fri'],
  local_time: '06:30',
};
await json(`${api}/schedules`, { method: 'POST', headers: auth, body: JSON.stringify(weekdays) });
// The test call's phone rings out (45 s, the ring timeout): live for the whole measurement.
await json(`${service.url}/dev/phones/${encodeURIComponent(e164)}`, {
  method: 'PUT',
  body: JSON.stringify({ answers: ['no_answer'], ring_seconds: 3600 }),
});
const me = await json(`${api}/me`, { headers: auth });
const bare = await start(
  process.execPath,
  ['--import', 'tsx', 'bench/http-bare.ts'],
  { BARE_BODY: JSON.stringify(me) },
  /LISTENING (\S+)/,
);

const endpoints: Record<string, () => Promise<Row>> = {
  time: () => load('GET /time', servicePid, `${api}/time`),
  me: () => load('GET /me', servicePid, `${api}/me`, { headers: auth }),
  preview: () =>
    load('POST /schedules/preview', servicePid, `${api}/schedules/preview`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(weekdays),
    }),
  occurrences: () => load('GET /occurrences', servicePid, `${api}/occurrences`, { headers: auth }),
  call: async () => {
    // Started just before it is measured, so that it is still ringing (live) throughout.
    const call = await json<{ id: string }>(`${api}/phone-numbers/${phone.id}/test-call`, {
      method: 'POST',
      headers: auth,
    });
    const id = call.id;
    const url = `${api}/calls/${id}`;
    await load('warm-up', servicePid, url, { headers: auth, duration: 1 });
    const row = await load('GET /calls/{call_id} (live)', servicePid, url, { headers: auth });
    const after = await json<{ live: boolean; status: string }>(url, { headers: auth });
    if (!after.live)
      console.error(`bench:http: the test call was no longer live at the end (${after.status})`);
    return row;
  },
};
if (profiled && !(profiled in endpoints))
  throw new Error(`bench:http: --profile ${profiled}: one of ${Object.keys(endpoints).join(', ')}`);

const rows: Row[] = [];
try {
  // Warm both (JIT, caches), then measure.
  await load('warm-up', servicePid, `${api}/me`, { headers: auth, duration: 2 });
  await load('warm-up', bare.child.pid!, bare.url, { duration: 2 });
  rows.push(await load('bare Koa (GET /)', bare.child.pid!, bare.url));
  for (const [key, run] of Object.entries(endpoints))
    if (!profiled || key === profiled) rows.push(await run());
} finally {
  await stopChild(bare.child);
  await stopChild(service.child);
  rmSync(work, { recursive: true, force: true });
  stopPg();
}

const base = rows[0]!.rps;
const what = `${binary ? 'dist/wakeup' : 'node dist/server.cjs'} on ${onPg ? 'PostgreSQL' : 'SQLite'}`;
console.log(
  `\n${what}; autocannon, ${connections} connections, ${seconds} s each, node ${process.versions.node}`,
);
console.log('| endpoint | requests/s | p50 ms | p99 ms | × bare Koa | CPU µs/request | non-2xx |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${(r.rps / base).toFixed(2)} | ${Math.round(r.cpuUs)} | ${r.non2xx} |`,
  );
}

if (profiled) summarizeProfile(profDir, root);
