/**
 * `npm run test:multihost` (issue 17): several hosts on one PostgreSQL share the 07:00 spike,
 * and a host's death costs no call. Not part of `npm test`.
 *
 * For each host count (`--hosts 1,2,3`): a fresh database on the server
 * `WAKEUP_TEST_PG_URL` names (`scripts/with-pg.sh` starts a throwaway one), `--calls` one-off
 * wake-up calls seeded through the service's own modules (test/load/seed.ts), all due at one
 * instant a few seconds after the hosts are ready; that many production servers
 * (`dist/server.cjs`, `WAKEUP_DB=postgres://…`, leases of `--lease-s`) with the
 * Twilio-compatible adapter pointed at the fake provider in its own process
 * (test/load/fake-provider.ts). The provider's webhooks reach the hosts through a round-robin
 * proxy, as behind a load balancer: an event is applied by whichever host receives it.
 * One host (the only one in a 1-host run) is killed with SIGKILL at a random moment of the spike
 * and started again `--restart-s` later (as systemd's Restart= would), so its start-up
 * reconciliation places the calls whose intent it had stored.
 *
 * Checks, per run: the fake accepted exactly one call per attempt (none doubled, none that no
 * attempt owns, every attempt past `requested` holds a call the fake made for it) and every
 * seeded occurrence finished, confirmed when the phones press 1 (unless dispatched too late). Figures: dispatches/s (first attempts whose intent was stored,
 * over the span from the due instant to the last of them) and lateness p50/p99/max of that
 * intent against the due instant, as the benchmarks measure it.
 *
 * Prints progress on stderr and one `RESULT {json}` line per host count; exits 1 when a
 * check fails, or when no PostgreSQL is given (it says so). This file reads the options; one
 * run is test/load/spike-run.ts (which `npm run bench`'s e2e cell runs too).
 *
 * Usage: scripts/with-pg.sh node --import tsx test/load/multihost.ts [--hosts 1,2,3] [--calls 30000]
 *   [--rate N (the provider account's calls/s, each host its share)] [--no-kill] [--kill-after-ms N (default: a random moment of the spike's first 3 s)] [--sqlite (one host on a SQLite file)]
 *   [--lease-s 10] [--in-flight 64 (placements in flight across all hosts: each host's WAKEUP_CALLS_IN_FLIGHT is its share)] [--restart-s 5] [--lead-ms 4000] [--speed 20] [--answer confirm] [--drain-timeout-s 600] [--seed N] [--keep] [--log-level info (access lines with durations in the hosts' logs)] [--cpu-prof DIR] [--diag-simulator (hosts use the built-in telephony simulator: the dispatch rate without the provider path; the audit then fails)]
 * @module
 */
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { newProxyStats } from './balancer.js';
import { spawnFakeProvider } from './fake-provider.js';
import { buildDist } from './process.js';
import { runSpike } from './spike-run.js';
import { loadOptions } from './options.js';

const { opt, num } = loadOptions();
const hostCounts = (opt.get('hosts') ?? (opt.has('sqlite') ? '1' : '1,2,3')).split(',').map(Number);
const calls = num('calls', 30_000);
const leaseS = num('lease-s', 10);
const restartS = num('restart-s', 5);
// Placements in flight across the hosts, shared: a provider's limits are per account, not per
// host, so each host gets its share (WAKEUP_CALLS_IN_FLIGHT, as the README says to set it).
// The fake provider is one process sharing 2 cores with the hosts and PostgreSQL (some 60
// calls/s): 256 per host drove its answers past the client's 10 s timeout at 30,000 calls, and
// 64 per host at 3 hosts kept thousands of webhooks waiting on the hosts (a 408 after 30 s
// of unread headers, a balancer out of retries), the calls ending unconfirmed.
const inFlight = num('in-flight', 64);
const inFlightPerHost = (hosts: number) => Math.max(1, Math.round(inFlight / hosts));
const leadMs = num('lead-ms', 4000);
const speed = num('speed', 20);
const answer = opt.get('answer') ?? 'confirm';
const drainTimeoutMs = num('drain-timeout-s', 600) * 1000;
const keep = opt.has('keep');
const rate = opt.has('rate') ? num('rate', 0) : null; // the provider account's calls/s, shared by the hosts
const noKill = opt.has('no-kill');
const sqlite = opt.has('sqlite'); // one host on a SQLite file instead of PostgreSQL
const cpuProf = opt.get('cpu-prof'); // a folder: each host writes a .cpuprofile there when stopped
let seed = num('seed', Date.now() % 1_000_000);

const log = (msg: string) => process.stderr.write(`[multihost] ${msg}\n`);
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const baseUrl = process.env.WAKEUP_TEST_PG_URL;
if (!baseUrl && !sqlite) {
  log(
    'no PostgreSQL: WAKEUP_TEST_PG_URL is not set. Run it as `npm run test:multihost` (scripts/with-pg.sh starts a throwaway server).',
  );
  process.exit(1);
}

/** What the balancer saw, counted over every run (each RESULT's `proxy`). */
const proxyStats = newProxyStats();

const dir = mkdtempSync(join(tmpdir(), 'wakeup-multihost-'));
log(
  `logs in ${dir}; hosts ${hostCounts.join(',')}, calls ${calls}, lease ${leaseS} s, load average ${loadavg()[0]!.toFixed(1)}`,
);
buildDist();
// The fake waits for every webhook's answer, as in the crash loop (FakeTwilioOptions.answerTimeout).
const fake = await spawnFakeProvider({ speed, answer, answerTimeout: false });
let ok = true;
try {
  for (const n of hostCounts) {
    const r = await runSpike({
      hostCount: n,
      fake,
      dir,
      calls,
      pgUrl: sqlite ? null : baseUrl!,
      pgDir: process.env.WAKEUP_TEST_PG_DIR ?? null,
      leaseS,
      restartS,
      inFlightPerHost: inFlightPerHost(n),
      leadMs,
      answer,
      drainTimeoutMs,
      keep,
      rate,
      kill: !noKill,
      killAfterMs: opt.has('kill-after-ms') ? num('kill-after-ms', 0) : undefined,
      logLevel: opt.get('log-level') ?? 'warn',
      cpuProf,
      diagSimulator: opt.has('diag-simulator'),
      random,
      proxyStats,
    });
    ok &&= r.ok;
    console.log(`RESULT ${JSON.stringify(r)}`);
  }
} finally {
  await fake.stop();
}
process.exit(ok ? 0 : 1);
