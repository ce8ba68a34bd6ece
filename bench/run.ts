/**
 * `npm run bench`: the engine's dispatch benchmark (issue 4) and, when present, the time
 * functions' benchmark (bench/time.ts).
 *
 * For N = 10k, 100k, 1M (or `--n N` for one size): the 07:00 spike on the engine (SQLite in
 * WAL mode, system clock, an instant-answer telephony sink) and the same workload on BullMQ
 * with a Redis on loopback; add and cancel cost with N pending (durable, both systems; and
 * the engine's in-memory timer wheel). Each cell runs in its own process (clean RSS and
 * loop figures) and prints `RESULT {json}`; this script prints a table and the ratios.
 * Assertion-free: targets are reported, not enforced. Not part of `npm test`.
 *
 * The spike also runs through the HTTP host's composition of the engine (bench/dispatch-host.ts:
 * the service's store, admission, daily cap and usage counting), printed as system `host`.
 *
 * On PostgreSQL (issue 17): with `--pg`, or whenever WAKEUP_TEST_PG_URL names a server, the
 * spike also runs on the engine's PostgreSQL store (bench/dispatch-pg-engine.ts: with leases,
 * system `engine-pg`, and without, `engine-pg-1`) and on pg-boss (bench/dispatch-pgboss.ts)
 * against the SAME server in the same run, and the ratio engine-pg / pg-boss is printed.
 * Without WAKEUP_TEST_PG_URL, `--pg` starts a throwaway server with scripts/pg-test-server.sh
 * and stops it at the end. `--only-pg` runs the PostgreSQL cells alone; `--no-pg` skips them.
 * Each PostgreSQL cell also reports the server's CPU per dispatch (read from /proc when the
 * server runs on this machine), and the summary adds it to the cell's: while both share this machine's cores, the cores over that sum
 * bound the rate, which says whether 2× pg-boss is within reach here at all.
 *
 * Each size also runs the database's floor (bench/floor.ts, on SQLite, and on PostgreSQL with a
 * server), and every engine cell is printed as a share of it.
 *
 * The whole path (issue 37): the `e2e` cell (bench/e2e.ts) places N one-off wake-up calls due at
 * one instant through ONE host (`dist/server.cjs`) and the fake Twilio-compatible provider
 * (status callbacks, a keypad confirm), with a trial account's credit spends and outbound
 * webhooks on, once on SQLite and once on PostgreSQL when there is a server; it prints calls/s,
 * lateness, host (and PostgreSQL) CPU per call and that CPU over the bare Koa handler's per
 * request. N is `--e2e-n` (default 2,000, whatever the dispatch sizes: the whole path runs tens
 * of calls a second); `--only-e2e` runs this cell alone (then `--n` is its N), `--no-e2e` skips
 * it, `--e2e-cap-s 600` stops waiting for unfinished calls.
 *
 * Options: `--n 100000` one size; `--sizes 10000,100000` several; `--no-bullmq` skip the peer; `--no-host` skip the host cell;
 * `--no-time` skip bench/time.ts;
 * `--cap-s 180` stop waiting for a spike that has not drained after that many seconds (the
 * cell then reports what was dispatched, with `complete: false`).
 * @module
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { args, type Result } from './measure.js';
import { ensureRedisInstalled, startRedis, type RedisServer } from './redis.js';

const opt = args();
const sizes = opt.has('n')
  ? [Number(opt.get('n'))]
  : opt.has('sizes')
    ? opt.get('sizes')!.split(',').map(Number)
    : [10_000, 100_000, 1_000_000];
const onlyE2e = opt.has('only-e2e');
const e2eN = opt.get(onlyE2e && opt.has('n') ? 'n' : 'e2e-n') ?? '2000';
const here = fileURLToPath(new URL('.', import.meta.url));
const results: Result[] = [];

/** Runs one cell in a child process, echoes its output, collects its RESULT lines. */
function cell(script: string, extra: string[]): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--max-old-space-size=4096', '--import', 'tsx', here + script, ...extra],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        console.log(line);
        if (line.startsWith('RESULT ')) results.push(JSON.parse(line.slice(7)) as Result);
      }
    });
    child.on('exit', (code) => {
      if (code !== 0) console.error(`bench: ${script} ${extra.join(' ')} exited with ${code}`);
      resolve();
    });
  });
}

let redis: RedisServer | null = null;
if (!opt.has('no-bullmq') && !opt.has('only-pg') && !onlyE2e) {
  if (ensureRedisInstalled()) {
    redis = await startRedis();
    console.error(
      `bench: redis-server pid ${redis.pid} on 127.0.0.1:${redis.port} (no persistence)`,
    );
  } else console.error('bench: BullMQ cells skipped (no redis-server)');
}

// PostgreSQL: the server named by WAKEUP_TEST_PG_URL, or a throwaway one for `--pg`.
const onlyPg = opt.has('only-pg');
let pgUrl: string | null = opt.has('no-pg') ? null : (process.env.WAKEUP_TEST_PG_URL ?? null);
let pgDir: string | null = null;
if (!pgUrl && (opt.has('pg') || onlyPg)) {
  try {
    const out = execFileSync(here + '../scripts/pg-test-server.sh', ['start'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    pgUrl = /WAKEUP_TEST_PG_URL=(\S+)/.exec(out)?.[1] ?? null;
    pgDir = /WAKEUP_TEST_PG_DIR=(\S+)/.exec(out)?.[1] ?? null;
  } catch {
    console.error('bench: PostgreSQL cells skipped (no server could be started, see above)');
  }
}

try {
  for (const n of onlyE2e ? [] : sizes) {
    const cap = ['--cap-s', opt.get('cap-s') ?? '180'];
    if (!onlyPg) {
      await cell('floor.ts', ['--n', String(n)]);
      await cell('wheel-ops.ts', ['--n', String(n)]);
      await cell('dispatch-engine.ts', ['--n', String(n), ...cap]);
      if (!opt.has('no-host')) await cell('dispatch-host.ts', ['--n', String(n), ...cap]);
      if (redis)
        await cell('dispatch-bullmq.ts', ['--n', String(n), '--port', String(redis.port), ...cap]);
    }
    if (pgUrl) {
      const pg = ['--url', pgUrl];
      await cell('floor.ts', ['--n', String(n), ...pg]);
      await cell('dispatch-pg-engine.ts', ['--n', String(n), ...pg, ...cap]);
      await cell('dispatch-pg-engine.ts', ['--n', String(n), ...pg, '--no-lease', ...cap]);
      await cell('dispatch-pgboss.ts', ['--n', String(n), ...pg, ...cap]);
    }
  }
  if (!opt.has('no-e2e')) {
    const e2e = ['--n', e2eN, '--cap-s', opt.get('e2e-cap-s') ?? '600'];
    if (!onlyPg) await cell('e2e.ts', e2e);
    // The server's folder, for its CPU (a server of WAKEUP_TEST_PG_URL: the cell reads WAKEUP_TEST_PG_DIR).
    if (pgUrl)
      await cell('e2e.ts', [...e2e, '--url', pgUrl, ...(pgDir ? ['--pg-dir', pgDir] : [])]);
  }
} finally {
  await redis?.stop();
  if (pgDir)
    execFileSync(here + '../scripts/pg-test-server.sh', ['stop', pgDir], { stdio: 'inherit' });
}

// ---- summary ------------------------------------------------------------------------------

/**
 * What a dispatch costs this machine on PostgreSQL: the cell's CPU plus the server's. While the
 * cell and the server share the machine's cores, the cores over that sum bound the rate; so is
 * 2× pg-boss within reach here, and what would a dispatch have to cost for it.
 */
function printPostgresBudget(): void {
  const cores = availableParallelism();
  const pgCells = results.filter(
    (r) => typeof r.server_cpu_us_per_dispatch === 'number' && r.dispatches_per_s,
  );
  if (pgCells.length === 0) return;
  console.log(
    `\nCPU per dispatch on PostgreSQL: the cell's + the server's, and the rate ${cores} cores could give at that cost`,
  );
  const sum = (r: Result) => Number(r.cpu_us_per_dispatch) + Number(r.server_cpu_us_per_dispatch);
  for (const r of pgCells)
    console.log(
      `  n=${String(r.n).padEnd(8)} ${String(r.system).padEnd(16)} ${text(r.cpu_us_per_dispatch)} + ${text(r.server_cpu_us_per_dispatch)} = ${sum(r).toFixed(1)} µs → at most ${Math.round((cores * 1e6) / sum(r))}/s (ran ${r.dispatches_per_s}/s)`,
    );
  for (const n of sizes) {
    const b = pgCells.find((r) => r.system === 'pg-boss' && r.n === n);
    if (b)
      console.log(
        `  n=${n}: 2× pg-boss (${2 * b.dispatches_per_s!}/s) needs at most ${((cores * 1e6) / (2 * b.dispatches_per_s!)).toFixed(1)} µs a dispatch in all (cell and server) on ${cores} cores`,
      );
  }
}
const text = (v: unknown): string =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
    ? String(v)
    : v == null
      ? '—'
      : JSON.stringify(v);
const fmt = (v: unknown, w: number) => text(v).padStart(w);
const spikes = results.filter((r) => r.workload === 'spike_0700');
if (spikes.length > 0) {
  console.log('\n07:00 spike (N due in the same second)');
  console.log(
    [
      'system',
      'n',
      'disp/s',
      'p50 ms',
      'p99 ms',
      'max ms',
      'early',
      'loop ms',
      'rss MiB',
      'drain s',
      'cpu µs',
    ]
      .map((h, i) => fmt(h, i === 0 ? 12 : 10))
      .join(''),
  );
}
for (const r of spikes) {
  console.log(
    [
      fmt(r.system, 12),
      fmt(r.n, 10),
      fmt(r.dispatches_per_s, 10),
      fmt(r.lateness_p50_ms, 10),
      fmt(r.lateness_p99_ms, 10),
      fmt(r.lateness_max_ms, 10),
      fmt(r.early_fires, 10),
      fmt(r.loop_max_delay_ms, 10),
      fmt(r.peak_rss_mib, 10),
      fmt(r.drain_s, 10),
      fmt(r.cpu_us_per_dispatch, 10),
    ].join(''),
  );
}
if (spikes.some((r) => r.system === 'bullmq')) console.log('\nRatios engine / BullMQ (same run)');
for (const n of sizes) {
  const e = spikes.find((r) => r.system === 'engine' && r.n === n);
  const b = spikes.find((r) => r.system === 'bullmq' && r.n === n);
  if (e && b && e.dispatches_per_s && b.dispatches_per_s) {
    const ratio = e.dispatches_per_s / b.dispatches_per_s;
    const capped = [e, b].filter((r) => r.complete === false).map((r) => r.system);
    console.log(
      `  n=${n}: throughput ×${ratio.toFixed(2)}, p99 lateness ${e.lateness_p99_ms} ms vs ${b.lateness_p99_ms} ms${capped.length ? ` (did not drain within the cap: ${capped.join(', ')})` : ''}`,
    );
  }
}
if (spikes.some((r) => r.system === 'pg-boss'))
  console.log('\nRatios engine on PostgreSQL / pg-boss (same server, same run)');
for (const n of sizes) {
  const b = spikes.find((r) => r.system === 'pg-boss' && r.n === n);
  for (const system of ['engine-pg', 'engine-pg-1']) {
    const e = spikes.find((r) => r.system === system && r.n === n);
    if (e && b && e.dispatches_per_s && b.dispatches_per_s) {
      const capped = [e, b].filter((r) => r.complete === false).map((r) => r.system);
      console.log(
        `  n=${n} ${system === 'engine-pg' ? 'leased' : 'one process'}: throughput ×${(e.dispatches_per_s / b.dispatches_per_s).toFixed(2)} (${e.dispatches_per_s}/s vs ${b.dispatches_per_s}/s), p99 lateness ${e.lateness_p99_ms} ms vs ${b.lateness_p99_ms} ms${capped.length ? ` (did not drain within the cap: ${capped.join(', ')})` : ''}`,
      );
    }
  }
}
printPostgresBudget();
if (spikes.some((r) => r.system === 'host'))
  console.log('\nHost composition beside engine only (same run)');
for (const n of sizes) {
  const e = spikes.find((r) => r.system === 'engine' && r.n === n);
  const h = spikes.find((r) => r.system === 'host' && r.n === n);
  if (e && h && e.dispatches_per_s && h.dispatches_per_s) {
    console.log(
      `  n=${n}: host composition ${h.dispatches_per_s}/s beside engine only ${e.dispatches_per_s}/s (×${(h.dispatches_per_s / e.dispatches_per_s).toFixed(2)}), p99 ${h.lateness_p99_ms} ms vs ${e.lateness_p99_ms} ms`,
    );
  }
}
const floors = results.filter((r) => r.workload === 'floor');
if (floors.length > 0) {
  console.log(
    '\nThe database floor (one narrow row updated and one inserted per dispatch, 1,000 a transaction; append: one row appended)',
  );
  for (const f of floors)
    console.log(
      `  ${String(f.system).padEnd(16)} n=${String(f.n).padEnd(8)} ${f.dispatches_per_s}/s, ${text(f.cpu_us_per_dispatch)} µs CPU per dispatch`,
    );
  console.log(
    'Each cell as a share of its database floor (same run): throughput, and CPU per dispatch as a multiple of the floor',
  );
  for (const r of spikes) {
    const f = floors.find(
      (x) =>
        x.n === r.n &&
        x.system === (String(r.system).startsWith('engine-pg') ? 'floor-pg' : 'floor'),
    );
    if (
      !f ||
      r.system === 'bullmq' ||
      r.system === 'pg-boss' ||
      !r.dispatches_per_s ||
      !f.dispatches_per_s
    )
      continue;
    const cpu =
      typeof r.cpu_us_per_dispatch === 'number' && typeof f.cpu_us_per_dispatch === 'number'
        ? r.cpu_us_per_dispatch / f.cpu_us_per_dispatch
        : null;
    console.log(
      `  n=${r.n} ${String(r.system).padEnd(12)} ${((100 * r.dispatches_per_s) / f.dispatches_per_s).toFixed(1)} % of ${f.system}'s throughput, CPU ×${cpu === null ? '—' : cpu.toFixed(1)}`,
    );
  }
}
const addCancel = results.filter(
  (x) => x.workload !== 'spike_0700' && x.workload !== 'floor' && x.workload !== 'e2e_calls',
);
if (addCancel.length > 0) console.log('\nAdd / cancel cost with N pending');
for (const r of addCancel) {
  const unit =
    r.workload === 'wheel_add_cancel'
      ? `${text(r.add_ns_per_op)} ns / ${text(r.cancel_ns_per_op)} ns (wheel, ${text(r.pending_rss_mib)} MiB for N pending)`
      : `${text(r.add_us_per_op)} µs / ${text(r.cancel_us_per_op)} µs (durable)`;
  console.log(
    `  ${String(r.system).padEnd(7)} n=${String(r.n).padEnd(8)} ${r.workload.padEnd(20)} add/cancel ${unit}`,
  );
}
const e2es = results.filter((r) => r.workload === 'e2e_calls');
if (e2es.length > 0) {
  console.log(
    '\nThe whole path (e2e: N calls due at once on one host, the fake provider, webhooks, credits)',
  );
  console.log(
    ['system', 'n', 'calls/s', 'p50 ms', 'p99 ms', 'host µs', 'pg µs', 'bare µs', 'host/bare', 'ok']
      .map((h, i) => fmt(h, i === 0 ? 12 : 10))
      .join(''),
  );
  for (const r of e2es) {
    console.log(
      [
        fmt(r.system, 12),
        fmt(r.n, 10),
        fmt(r.calls_per_s, 10),
        fmt(r.lateness_p50_ms, 10),
        fmt(r.lateness_p99_ms, 10),
        fmt(r.host_cpu_us_per_call, 10),
        fmt(r.postgres_cpu_us_per_call, 10),
        fmt(r.bare_koa_cpu_us_per_request, 10),
        fmt(r.host_cpu_per_call_over_bare_request, 10),
        fmt(r.ok, 10),
      ].join(''),
    );
  }
}
if (!onlyE2e)
  console.log(
    '\nTargets (issue 26, 2 cores): 100k: ≥10× BullMQ and ≥50 % of the floor (CPU ≤ 2× its), p99 ≤ 500 ms, loop ≤ 20 ms, 0 early; 1M: drained ≤ 5 s, peak RSS ≤ 500 MiB, add/cancel at 1M within 1.2× of 10k; PostgreSQL ≥ 2× pg-boss at 100k; host ≥ 0.8× engine.',
  );

// ---- the time functions, when their benchmark exists ---------------------------------------
if (!opt.has('no-time') && !opt.has('only-pg') && !onlyE2e && existsSync(here + 'time.ts')) {
  const mod = (await import(pathToFileURL(here + 'time.ts').href)) as {
    runTimeBench?: () => Promise<unknown>;
  };
  if (typeof mod.runTimeBench === 'function') {
    console.log('\nTime functions (bench/time.ts)');
    await mod.runTimeBench();
  }
}
