/**
 * `npm run bench:http`: the HTTP path under load. Builds the server (`npm run build`), starts
 * it as production runs it (`node dist/server.cjs`, dev mode for the sign-in, general rate
 * limits raised so that they never answer 429) and a bare Koa handler returning a body like
 * GET /me's (bench/http-bare.ts), each in its own process, signs in, verifies a number, then
 * runs autocannon against:
 *
 *   bare Koa            GET /
 *   GET /time           public, no credentials
 *   GET /me             with a session
 *   POST /schedules/preview
 *   GET /occurrences
 *
 * and prints requests/s, p50 and p99 latency and the ratio to the bare handler.
 * Options: `--connections 20` `--seconds 10`; `--profile` runs the service under
 * `node --cpu-prof` while GET /me is measured and prints where its CPU time goes (by
 * function and by package), the profile kept in .bench/. Not part of `npm test`.
 * @module
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { args } from './measure.js';

const opt = args();
const connections = Number(opt.get('connections') ?? 20);
const seconds = Number(opt.get('seconds') ?? 10);
const profile = opt.has('profile');
const root = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'wakeup-bench-http-'));
const profDir = join(root, '.bench', 'cpu');

/** Starts a child and resolves with the URL it announces. */
function start(cmd: string[], env: Record<string, string>, pattern: RegExp): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cmd, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += String(c);
      const m = pattern.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.once('exit', (code) => reject(new Error(`${cmd.join(' ')} exited ${code}:\n${out}`)));
  });
}

async function json<T = Record<string, unknown>>(url: string, init: RequestInit = {}): Promise<T> {
  const r = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });
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
}

async function load(name: string, url: string, options: Partial<autocannon.Options> = {}): Promise<Row> {
  const r = await autocannon({ url, connections, duration: seconds, ...options });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx + r.errors };
}

const stopChild = (c: ChildProcess) =>
  new Promise<void>((resolve) => {
    c.once('exit', () => resolve());
    c.kill('SIGTERM');
  });

execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
const serviceEnv = {
  HOST: '127.0.0.1',
  PORT: '0',
  WAKEUP_DB: join(work, 'bench.sqlite'),
  WAKEUP_DEV: '1',
  WAKEUP_LOG_PRETTY: '0',
  WAKEUP_RATE_LIMIT_ACCOUNT: '1000000',
  WAKEUP_RATE_LIMIT_IP: '1000000',
  WAKEUP_CODE_LIMIT_NUMBER: '1000/h',
};
if (profile) mkdirSync(profDir, { recursive: true });
const service = await start(
  [...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), 'dist/server.cjs'],
  serviceEnv,
  /"url":"(http:\/\/[^"]+)"/,
);
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
await json(`${api}/me`, { method: 'PATCH', headers: auth, body: JSON.stringify({ home_timezone: 'Europe/Paris' }) });
const e164 = '+12015550123';
const phone = await json<{ id: string }>(`${api}/phone-numbers`, { method: 'POST', headers: auth, body: JSON.stringify({ e164 }) });
const pcode = (await json<Outbox>(`${service.url}/dev/outbox?to=${encodeURIComponent(e164)}&channel=sms`)).items[0]!.code;
await json(`${api}/phone-numbers/${phone.id}/verify/check`, { method: 'POST', headers: auth, body: JSON.stringify({ code: pcode }) });
const me = await json(`${api}/me`, { headers: auth });
const bare = await start(['--import', 'tsx', 'bench/http-bare.ts'], { BARE_BODY: JSON.stringify(me) }, /LISTENING (\S+)/);

const rows: Row[] = [];
try {
  // Warm both (JIT, caches), then measure.
  await load('warm-up', `${api}/me`, { headers: auth, duration: 2 });
  await load('warm-up', bare.url, { duration: 2 });
  rows.push(await load('bare Koa (GET /)', bare.url));
  if (!profile) rows.push(await load('GET /time', `${api}/time`));
  rows.push(await load('GET /me', `${api}/me`, { headers: auth }));
  if (!profile) {
    rows.push(
      await load('POST /schedules/preview', `${api}/schedules/preview`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'recurring', days_of_week: ['mon', 'tue', 'wed', 'thu', 'fri'], local_time: '06:30' }),
      }),
    );
    rows.push(await load('GET /occurrences', `${api}/occurrences`, { headers: auth }));
  }
} finally {
  await stopChild(bare.child);
  await stopChild(service.child);
  rmSync(work, { recursive: true, force: true });
}

const base = rows[0]!.rps;
console.log(`\nautocannon, ${connections} connections, ${seconds} s each, node ${process.versions.node}`);
console.log('| endpoint | requests/s | p50 ms | p99 ms | × bare Koa | non-2xx |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(`| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${(r.rps / base).toFixed(2)} | ${r.non2xx} |`);
}

if (profile) summarizeProfile();

/** Self time by function and by package, from the newest .cpuprofile. */
function summarizeProfile(): void {
  const files = readdirSync(profDir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort();
  const file = join(profDir, files[files.length - 1]!);
  const prof = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fn = new Map<string, number>();
  const pkg = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const where = url.replace(/^file:\/\//, '').replace(root, '');
    const group =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where)?.[1] ??
      (where.startsWith('dist/')
        ? where.split('/').slice(0, 3).join('/')
        : where.startsWith('node:')
          ? 'node internals'
          : where || `(${functionName || 'native'})`);
    const key = `${functionName || '(anonymous)'} ${where ? `${where}:${lineNumber + 1}` : ''}`;
    fn.set(key, (fn.get(key) ?? 0) + us);
    pkg.set(group, (pkg.get(group) ?? 0) + us);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `  ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
  console.log(`\nCPU profile of the service (${file}): self time by package or folder`);
  console.log(top(pkg, 20).join('\n'));
  console.log('\nby function');
  console.log(top(fn, 30).join('\n'));
}
