/**
 * The `e2e` cell of `npm run bench` (bench/run.ts): the whole path of N one-off wake-up calls
 * due at one instant on ONE host (`dist/server.cjs`), played through the Twilio-compatible fake
 * provider: each call a placement, the provider's status callbacks and a keypad confirm (the
 * fake phone answers and presses 1). The harness is the load test's (test/load/spike-run.ts, as
 * `npm run test:multihost -- --sqlite --no-kill` runs it), with what real accounts add
 * (bench/e2e-seed.ts): a trial account owning a share of the calls whose credits admission
 * spends, and a few accounts with an outbound webhook endpoint on a local receiver
 * (bench/webhook-receiver.ts) that answers 200.
 *
 * Then, in the same run, the bare Koa handler's CPU per request (bench/bare-koa.ts), and one
 * `RESULT {json}` line: calls/s (first attempts over the span from the due instant until every
 * call finished), lateness p50/p99 of the placements' intents, CPU µs per call of the host (and
 * of PostgreSQL's processes, from /proc, before and after), and the host's CPU per call over
 * the bare handler's per request. Exits 1 when a check of the run failed (after printing).
 *
 * Options: `--n 2000` calls; `--url postgres://…` run on that PostgreSQL server (a database of
 * its own, dropped after) instead of a SQLite file, with `--pg-dir` its scripts/pg-test-server.sh
 * folder for its CPU; `--trial-calls` the trial account's calls (default a tenth of N);
 * `--webhook-accounts 5`; `--cap-s 600` stop waiting for unfinished calls; `--in-flight 64`;
 * `--speed 20` the fake's clock; `--bare-seconds 5`; `--connections 20` (the bare handler's load);
 * `--cpu-prof DIR` the host's CPU profile (node --cpu-prof) into DIR.
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { newProxyStats } from '../test/load/balancer.js';
import { spawnFakeProvider } from '../test/load/fake-provider.js';
import { loadOptions } from '../test/load/options.js';
import { buildDist, ROOT } from '../test/load/process.js';
import type { SeededBatch } from '../test/load/seed.js';
import { hostLogLines } from '../test/load/run-signals.js';
import { runSpike } from '../test/load/spike-run.js';
import { measureBareKoa } from './bare-koa.js';
import {
  creditSpends,
  e2eAccountOf,
  expectedCreditSpends,
  expectedDeliveries,
  pendingDeliveries,
  seedE2eExtras,
} from './e2e-seed.js';
import { printResult, r2 } from './measure.js';
import { startWebhookReceiver } from './webhook-receiver.js';

const { opt, num } = loadOptions();
const n = num('n', 2000);
const pgUrl = opt.get('url') ?? null;
const pgDir = opt.get('pg-dir') ?? process.env.WAKEUP_TEST_PG_DIR ?? null;
const accounts = {
  calls: n,
  trialCalls: Math.min(n, num('trial-calls', Math.floor(n / 10))),
  webhookAccounts: num('webhook-accounts', 5),
};
const log = (msg: string) => process.stderr.write(`[e2e] ${msg}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Peak RSS of a process (VmHWM), MiB, or null. */
function peakRssMiB(pid: number): number | null {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? r2(Number(m[1]) / 1024) : null;
}

/** The commit measured, `+dirty` when the work tree differs from it. */
function commit(): string {
  try {
    const git = (...argv: string[]) =>
      execFileSync('git', argv, {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    const head = git('rev-parse', '--short', 'HEAD');
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    return dirty ? `${head}+dirty` : head;
  } catch {
    return 'unknown';
  }
}

const dir = mkdtempSync(join(tmpdir(), 'wakeup-bench-e2e-'));
log(`${n} calls on ${pgUrl ? 'PostgreSQL' : 'SQLite'}, logs in ${dir}`);
buildDist();
const receiver = await startWebhookReceiver();
// The fake waits for every webhook's answer, as in the crash loop (FakeTwilioOptions.answerTimeout):
// the cell measures the path's cost, and runs its calls 20 times faster on the host's cores.
const fake = await spawnFakeProvider({
  speed: num('speed', 20),
  answer: 'confirm',
  answerTimeout: false,
});
let batch: SeededBatch | null = null;
let credits: number | null = null;
let hostPeakRss: number | null = null;
let run;
try {
  run = await runSpike({
    hostCount: 1,
    fake,
    dir,
    calls: n,
    pgUrl,
    pgDir,
    leaseS: 10,
    restartS: 5,
    inFlightPerHost: num('in-flight', 64),
    leadMs: 4000,
    answer: 'confirm',
    drainTimeoutMs: num('cap-s', 600) * 1000,
    keep: false,
    rate: null,
    kill: false,
    logLevel: 'warn',
    diagSimulator: false,
    random: Math.random,
    proxyStats: newProxyStats(),
    cpuProf: opt.get('cpu-prof'),
    accountOf: e2eAccountOf(accounts),
    afterSeed: async (db, seeded) => {
      batch = seeded;
      await seedE2eExtras(db, seeded, accounts, receiver.url, Date.now());
    },
    // The receiver is on loopback over plain HTTP: allowed as for a LAN home automation.
    env: { WAKEUP_WEBHOOK_ALLOW_PRIVATE: '1', WAKEUP_WEBHOOK_ALLOW_HTTP: '1' },
    // The host's work for a call ends with its outcome's delivery: wait for it (at most 2 min).
    settle: async (db) => {
      const until = performance.now() + 120_000;
      while (
        performance.now() < until &&
        (receiver.received() < expectedDeliveries(accounts) || (await pendingDeliveries(db)) > 0)
      )
        await sleep(200);
      if (batch) credits = await creditSpends(db, batch);
    },
    beforeStop: (hosts) => {
      hostPeakRss = hosts[0] ? peakRssMiB(hosts[0].pid) : null;
    },
  });
} finally {
  await fake.stop();
}
const bare = await measureBareKoa(num('bare-seconds', 5), num('connections', 20));
await receiver.close();

const firsts = run.attempts; // one attempt per call: no retries are seeded
const perCall = (ms: number | undefined) =>
  ms === undefined || firsts === 0 ? null : Math.round((ms * 1000) / firsts);
const hostUs = perCall(run.cpu_ms_by_process.hosts);
const failures = [...run.failures];
if (receiver.received() < expectedDeliveries(accounts))
  failures.push(
    `${receiver.received()} webhook deliveries received of ${expectedDeliveries(accounts)}`,
  );
// The load test's audit allows `missed` (a call dispatched too late); here every phone answers and presses 1.
const missed = run.occurrence_statuses.missed ?? 0;
if (missed > 0)
  failures.push(`${missed} calls ended missed although every phone answers and presses 1`);
if (credits !== expectedCreditSpends(accounts))
  failures.push(`${credits ?? '?'} credits spent, ${expectedCreditSpends(accounts)} expected`);
printResult({
  system: pgUrl ? 'host-e2e-pg' : 'host-e2e',
  workload: 'e2e_calls',
  n,
  db: run.db,
  calls_per_s: run.calls_per_s,
  dispatches_per_s: run.dispatches_per_s,
  lateness_p50_ms: run.lateness_p50_ms,
  lateness_p99_ms: run.lateness_p99_ms,
  lateness_max_ms: run.lateness_max_ms,
  early_fires: run.early,
  loop_max_delay_ms: null,
  peak_rss_mib: hostPeakRss,
  host_cpu_us_per_call: hostUs,
  postgres_cpu_us_per_call: perCall(run.cpu_ms_by_process.postgresql),
  all_processes_cpu_us_per_call: run.cpu_us_per_call,
  cpu_ms_by_process: run.cpu_ms_by_process,
  bare_koa_cpu_us_per_request: r2(bare.cpuUsPerRequest),
  bare_koa_requests_per_s: Math.round(bare.requestsPerS),
  host_cpu_per_call_over_bare_request:
    hostUs === null || bare.cpuUsPerRequest === 0
      ? null
      : Math.round(hostUs / bare.cpuUsPerRequest),
  trial_calls: accounts.trialCalls,
  credits_spent: credits,
  webhook_accounts: accounts.webhookAccounts,
  webhook_deliveries_expected: expectedDeliveries(accounts),
  webhook_deliveries_received: receiver.received(),
  webhook_ids_distinct: receiver.distinct(),
  occurrence_statuses: run.occurrence_statuses,
  // Effects that failed and were retried (a placement cut by the fake, under load), and the fake's webhooks the host did not answer 2xx.
  host_effect_failures: hostLogLines(dir, 1, 'runtime effect failed'),
  provider_webhook_failures: run.webhook_failures,
  drain_s: run.drain_s,
  complete: run.unfinished === 0,
  load_avg: run.load_avg,
  commit: commit(),
  machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
  node: process.versions.node,
  ok: failures.length === 0,
  failures: failures.slice(0, 20),
});
if (failures.length === 0) rmSync(dir, { recursive: true, force: true });
else log(`checks failed; host log kept in ${dir}`);
process.exit(failures.length === 0 ? 0 : 1);
