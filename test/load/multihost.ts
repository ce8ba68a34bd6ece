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
 * check fails, or when no PostgreSQL is given (it says so).
 *
 * Usage: scripts/with-pg.sh node --import tsx test/load/multihost.ts [--hosts 1,2,3] [--calls 30000]
 *   [--rate N (the provider account's calls/s, each host its share)] [--no-kill] [--sqlite (one host on a SQLite file)]
 *   [--lease-s 10] [--in-flight 64 (placements in flight across all hosts: each host's WAKEUP_CALLS_IN_FLIGHT is its share)] [--restart-s 5] [--lead-ms 4000] [--speed 20] [--answer confirm] [--drain-timeout-s 600] [--seed N] [--keep] [--log-level info (access lines with durations in the hosts' logs)] [--cpu-prof DIR] [--diag-simulator (hosts use the built-in telephony simulator: the dispatch rate without the provider path; the audit then fails)]
 * @module
 */
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../host/db/open.js';
import type { Db } from '../../host/db/sql.js';
import { FINISHED_OCCURRENCE_STATUSES, isFinishedOccurrence } from '../../engine/internals.js';
import { spawnFakeProvider, type FakeProviderProcess } from './fake-provider.js';
import { buildDist, cpuMs, freePort, spawnServer, type ServerProcess } from './process.js';
import { seedDueCalls, setBatchDue } from './seed.js';
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
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const percentile = (sorted: readonly number[], p: number): number | null =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

const baseUrl = process.env.WAKEUP_TEST_PG_URL;
if (!baseUrl && !sqlite) {
  log('no PostgreSQL: WAKEUP_TEST_PG_URL is not set. Run it as `npm run test:multihost` (scripts/with-pg.sh starts a throwaway server).');
  process.exit(1);
}

/** What the balancer saw (all runs): requests sent again to the next host, and 502s it gave. */
const proxyStats = {
  retried: 0,
  /** Why a forward failed and was sent again, by error code (ECONNREFUSED: a host down). */
  retriedBy: {} as Record<string, number>,
  badGateway: 0,
  failedMidAnswer: 0,
  clientErrors: {} as Record<string, number>,
};

/** A round-robin HTTP proxy over the live hosts: the provider's webhooks reach any of them. */
function balancer(hosts: () => readonly ServerProcess[]) {
  let next = 0;
  // A bounded pool per host, as load balancers keep (HAProxy's maxconn per server): past it,
  // requests wait here rather than open ever more connections while the hosts are busy.
  const upstream = new Agent({ keepAlive: true, maxSockets: 128 });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const forward = (tries: number) => {
        const live = hosts();
        if (live.length === 0 || tries > 6) {
          proxyStats.badGateway++;
          res.writeHead(502).end();
          return;
        }
        const target = new URL(live[next++ % live.length]!.url);
        const out = request(
          { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent: upstream },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        // A host that just died refuses the connection: the balancer tries the next one (unless
        // its answer had begun: then the request cannot be sent again).
        out.on('error', (err: NodeJS.ErrnoException) => {
          if (res.headersSent) {
            proxyStats.failedMidAnswer++;
            res.destroy();
            return;
          }
          proxyStats.retried++;
          const code = err.code ?? 'unknown';
          proxyStats.retriedBy[code] = (proxyStats.retriedBy[code] ?? 0) + 1;
          forward(tries + 1);
        });
        out.end(body);
      };
      forward(0);
    });
  });
  // The provider's HTTP client keeps idle connections open a few seconds (undici: 4 s). A
  // balancer that closes them sooner or at the same moment (Node's default: 5 s) races it: a
  // webhook sent on a connection being closed fails, and the provider treats that as a failed
  // answer (the call hangs up). Load balancers in front of webhooks keep idle connections
  // longer than their clients do; so does this one (the hosts too: host/server.ts).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.on('close', () => upstream.destroy());
  // Counted (a 408 the provider sees may come from here): a timeout on a connection not yet
  // answered gets Node's 408, anything else is closed.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    const code = err.code ?? 'unknown';
    proxyStats.clientErrors[code] = (proxyStats.clientErrors[code] ?? 0) + 1;
    if (code === 'ERR_HTTP_REQUEST_TIMEOUT' && socket.writable && (socket as Socket).bytesWritten === 0) {
      socket.write('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    }
    socket.destroy();
  });
  return server;
}

/** The kernel's count of connections dropped because an accept queue was full (Linux), or null. */
function listenOverflows(): number | null {
  try {
    const lines = readFileSync('/proc/net/netstat', 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('TcpExt:'));
    const names = lines[0]!.split(/\s+/);
    const values = lines[1]!.split(/\s+/);
    const i = names.indexOf('ListenOverflows');
    return i < 0 ? null : Number(values[i]);
  } catch {
    return null;
  }
}

/** Counts the hosts' `request not read` warnings (host/server.ts) in this run's logs, by code. */
function unreadRequests(dir: string, hostCount: number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const file of readdirSync(dir).filter((f) => f.startsWith(`host-${hostCount}-`))) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line.includes('request not read')) continue;
      let code = 'unparsed'; // a line cut by kill -9
      try {
        code = (JSON.parse(line) as { error_code?: string }).error_code ?? 'unknown';
      } catch {
        // counted as unparsed
      }
      counts[code] = (counts[code] ?? 0) + 1;
    }
  }
  return counts;
}

/** Clock ticks (10 ms) of /proc/<pid>/stat: utime, stime, cutime, cstime. */
function ticks(pid: number): number[] | null {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const x = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return [Number(x[11]), Number(x[12]), Number(x[13]), Number(x[14])];
  } catch {
    return null;
  }
}

/** CPU ms of the PostgreSQL server of scripts/with-pg.sh: the postmaster with its reaped backends, plus the live ones. */
function postgresCpuMs(): number | null {
  const dir = process.env.WAKEUP_TEST_PG_DIR;
  if (!dir) return null;
  let postmaster: number;
  try {
    postmaster = Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
  const own = ticks(postmaster);
  if (!own) return null;
  let total = own[0]! + own[1]! + own[2]! + own[3]!;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const f = readFileSync(`/proc/${name}/stat`, 'utf8');
      const x = f.slice(f.lastIndexOf(')') + 2).split(' ');
      if (Number(x[1]) === postmaster) total += Number(x[11]) + Number(x[12]);
    } catch {
      // gone meanwhile: its time is in the postmaster's cutime now
    }
  }
  return total * 10;
}

/** CPU ms of the hosts (each one's last reading, a killed host's too), sampled while they run. */
class HostCpu {
  private readonly last = new Map<number, number>();
  private readonly start = new Map<number, number>();
  sample(hosts: readonly (ServerProcess | null)[]): void {
    for (const h of hosts) {
      if (!h) continue;
      const ms = cpuMs(h.pid);
      if (ms === null) continue;
      if (!this.start.has(h.pid)) this.start.set(h.pid, ms);
      this.last.set(h.pid, ms);
    }
  }
  /** Marks the start of the measured span: CPU before it (start-up) is left out. */
  mark(hosts: readonly (ServerProcess | null)[]): void {
    this.start.clear();
    this.sample(hosts);
  }
  total(): number {
    let t = 0;
    // A host spawned after the mark (the restart) counts from its spawn, start-up included.
    for (const [pid, ms] of this.last) t += ms - (this.start.get(pid) ?? 0);
    return t;
  }
}

interface RunResult {
  hosts: number;
  db: 'postgres' | 'sqlite';
  /** First attempts over the span from the due instant until every seeded call finished (webhooks included). */
  calls_per_s: number | null;
  /** CPU of every process of the run (hosts, PostgreSQL, the fake, the balancer and harness), µs per call, due instant to drained. */
  cpu_us_per_call: number | null;
  cpu_ms_by_process: Record<string, number>;
  /** Provider requests (creates and call lists) per call placed. */
  provider_requests_per_placement: number | null;
  doubled: number;
  rate_per_s?: number;
  /** With a rate: first attempts per second from the first placement to the last. */
  placement_rate_per_s?: number | null;
  /** With a rate: the most the k-th call was placed later than k / rate after its due instant, ms. */
  rate_max_excess_ms?: number | null;
  /** WAKEUP_CALLS_IN_FLIGHT of each host (its share of --in-flight). */
  in_flight_per_host: number;
  calls: number;
  dispatches_per_s: number | null;
  lateness_p50_ms: number | null;
  lateness_p99_ms: number | null;
  lateness_max_ms: number | null;
  early: number;
  killed_host_after_ms: number | null;
  restarted: boolean;
  accepted: number;
  attempts: number;
  duplicates: number;
  unknown_calls: number;
  mismatched: number;
  unfinished: number;
  occurrence_statuses: Record<string, number>;
  drain_s: number;
  load_avg: number;
  /** The fake's webhooks that got no 2xx answer so far (all runs), by status; 0 is a network error. */
  webhook_failures: Record<string, number>;
  /** Connections the kernel dropped during the run because an accept queue was full (any process on the machine). */
  listen_overflows: number | null;
  /** Requests the hosts could not read (their `request not read` log lines), by error code. */
  host_unread_requests: Record<string, number>;
  /** The balancer's counts so far (all runs). */
  proxy: typeof proxyStats;
  ok: boolean;
  failures: string[];
}

async function run(hostCount: number, fake: FakeProviderProcess, dir: string): Promise<RunResult> {
  if (sqlite && hostCount !== 1) throw new Error('--sqlite runs one host (SQLite is one process)');
  const failures: string[] = [];
  const badGatewayAtStart = proxyStats.badGateway;
  const dbName = `wakeup_mh_${hostCount}_${Date.now().toString(36)}`;
  let admin: pg.Client | null = null;
  let dbUrl: string;
  if (sqlite) {
    dbUrl = join(dir, `${dbName}.sqlite`);
  } else {
    admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    const url = new URL(baseUrl!);
    url.pathname = `/${dbName}`;
    dbUrl = url.toString();
  }
  const hostCpu = new HostCpu();
  let sampler: NodeJS.Timeout | null = null;
  const hosts: (ServerProcess | null)[] = [];
  const lb = balancer(() => hosts.filter((h): h is ServerProcess => h !== null));
  await new Promise<void>((resolve) => lb.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve));
  const lbUrl = `http://127.0.0.1:${(lb.address() as { port: number }).port}`;
  let db: Db | null = null;
  let killedAfterMs: number | null = null;
  let restarted = false;
  const started = performance.now();
  const overflowsAtStart = listenOverflows();
  try {
    db = await openDatabase(dbUrl); // migrates: the hosts find the schema in place
    const t = performance.now();
    const batch = await seedDueCalls(db, { n: calls, dueAt: Date.now() + 86_400_000, now: Date.now(), batch: hostCount });
    log(`${hostCount} host(s): seeded ${calls} calls in ${Math.round(performance.now() - t)} ms`);
    const env = {
      WAKEUP_DB: dbUrl,
      WAKEUP_LEASE_SECONDS: String(leaseS),
      WAKEUP_CALLS_IN_FLIGHT: String(inFlightPerHost(hostCount)),
      // The provider account's rate, each host its share.
      ...(rate !== null ? { WAKEUP_CALLS_PER_SECOND: String(Math.round((rate / hostCount) * 1000) / 1000) } : {}),
      WAKEUP_SITE_URL: lbUrl,
      WAKEUP_LOG_LEVEL: opt.get('log-level') ?? 'warn',
      WAKEUP_LOG_PRETTY: '0',
      WAKEUP_DAILY_CAP: '100000',
      WAKEUP_SHUTDOWN_GRACE_SECONDS: '5',
      ...fake.serverEnv(),
      ...(opt.has('diag-simulator') ? { WAKEUP_TELEPHONY: 'simulator' } : {}),
    };
    const ports = await Promise.all(Array.from({ length: hostCount }, () => freePort()));
    const spawnHost = (i: number) =>
      spawnServer({
        port: ports[i]!,
        env,
        entry: 'bundle',
        logFile: join(dir, `host-${hostCount}-${i}.log`),
        ...(cpuProf ? { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', cpuProf] } : {}),
      });
    // SQLite: the host's store reads its journal and memory, not rows written under it by
    // another process, so the calls are made due before it starts (as the crash loop does).
    let dueAt = Date.now() + leadMs + (sqlite ? 3000 : 0);
    if (sqlite) await setBatchDue(db, batch, dueAt);
    for (let i = 0; i < hostCount; i++) hosts.push(spawnHost(i));
    await Promise.all(hosts.map((h) => h!.waitReady(60_000)));
    if (!sqlite) {
      dueAt = Date.now() + leadMs;
      await setBatchDue(db, batch, dueAt);
    }
    log(`${hostCount} host(s) ready; ${calls} calls due at +${leadMs} ms`);
    // CPU from here on, every process of the run.
    hostCpu.mark(hosts);
    sampler = setInterval(() => hostCpu.sample(hosts), 250);
    const cpuAtStart = { pg: postgresCpuMs(), fake: (await fake.counts()).cpuMicros, self: process.cpuUsage() };
    const providerAtStart = await fake.counts();

    if (!noKill) {
      // Kill one host at a random moment of the spike (the first second or so of it), then
      // start it again after --restart-s. With one host that is the only one: the provider's
      // webhooks meet a 502 from the balancer until it is back, as behind a real one.
      const into = Math.round(random() * Math.min(3000, calls / 10));
      await sleep(Math.max(0, dueAt - Date.now()) + into);
      const victim = Math.floor(random() * hostCount);
      killedAfterMs = Date.now() - dueAt;
      const dead = hosts[victim]!;
      hosts[victim] = null;
      await dead.kill9();
      log(`killed host ${victim} (kill -9) ${killedAfterMs} ms into the spike`);
      await sleep(restartS * 1000);
      const again = spawnHost(victim);
      await again.waitReady(60_000);
      hosts[victim] = again;
      restarted = true;
      log(`host ${victim} restarted`);
    }

    const ids = batch.occurrenceIds;
    const drainStart = performance.now();
    let left = ids.length;
    for (;;) {
      const row = await db.get<{ n: number }>(
        `SELECT count(*) AS n FROM occurrences WHERE id LIKE ? AND status NOT IN (${[...FINISHED_OCCURRENCE_STATUSES].map((s) => `'${s}'`).join(', ')})`,
        [`crash-b${hostCount}-occ-%`],
      );
      if (row!.n !== left) log(`${hostCount} host(s): ${row!.n} unfinished`);
      left = row!.n;
      if (left === 0) break;
      if (performance.now() - drainStart > drainTimeoutMs) {
        failures.push(`${left} calls still unfinished after ${drainTimeoutMs / 1000} s`);
        break;
      }
      await sleep(1000);
    }
    const drainS = Math.round((performance.now() - drainStart) / 100) / 10;
    const drainedAt = Date.now();
    await sleep(1000); // the last status callbacks
    hostCpu.sample(hosts);
    if (sampler) clearInterval(sampler);
    const endCounts = await fake.counts();
    const selfCpu = process.cpuUsage(cpuAtStart.self);
    const pgEnd = postgresCpuMs();
    const cpuMsBy: Record<string, number> = {
      hosts: hostCpu.total(),
      fake_provider: Math.round((endCounts.cpuMicros - cpuAtStart.fake) / 1000),
      harness_and_balancer: Math.round((selfCpu.user + selfCpu.system) / 1000),
      ...(cpuAtStart.pg !== null && pgEnd !== null && !sqlite ? { postgresql: pgEnd - cpuAtStart.pg } : {}),
    };
    const providerRequests =
      endCounts.createRequests - providerAtStart.createRequests + (endCounts.listRequests - providerAtStart.listRequests);
    const placedCalls = endCounts.accepted - providerAtStart.accepted;
    // The occurrences are finished, but the fake may still be sending the calls' last status
    // callbacks: the hosts answer them before they stop (else the balancer would count 502s
    // for webhooks sent after the run).
    const settleUntil = performance.now() + 60_000;
    for (;;) {
      const c = await fake.counts();
      const live = (c.statuses.queued ?? 0) + (c.statuses.ringing ?? 0) + (c.statuses['in-progress'] ?? 0);
      if ((live === 0 && c.webhooksInFlight === 0) || performance.now() > settleUntil) break;
      await sleep(200);
    }
    for (const h of hosts) if (h) await h.stop();

    // Audit against the fake, which no host could take down with it.
    const fakeKeys = await fake.keys();
    const attempts = await db.all<{ id: string; key: string; status: string; sid: string | null; kind: string; late: number }>(
      `SELECT a.id, a.idempotency_key AS key, a.status, a.provider_call_id AS sid, a.kind, a.requested_at - a.due_at AS late
         FROM attempts a WHERE a.occurrence_id LIKE ?`,
      [`crash-b${hostCount}-occ-%`],
    );
    const mine = new Set(attempts.map((a) => a.key));
    let accepted = 0;
    let duplicates = 0;
    let unknownCalls = 0;
    for (const [key, sids] of Object.entries(fakeKeys)) {
      if (!key.startsWith(`crash-b${hostCount}-`) && !mine.has(key)) continue;
      accepted += sids.length;
      if (sids.length > 1) duplicates += sids.length - 1;
      if (!mine.has(key)) unknownCalls += sids.length;
    }
    let mismatched = 0;
    for (const a of attempts) {
      const sids = fakeKeys[a.key] ?? [];
      if (a.status === 'requested') failures.push(`attempt ${a.id} left requested`);
      if (a.sid !== null && !sids.includes(a.sid)) mismatched++;
    }
    const statuses: Record<string, number> = {};
    for (const o of await db.all<{ status: string }>('SELECT status FROM occurrences WHERE id LIKE ?', [`crash-b${hostCount}-occ-%`]))
      statuses[o.status] = (statuses[o.status] ?? 0) + 1;
    const finished = Object.entries(statuses).reduce((n, [s, c]) => n + (isFinishedOccurrence(s as never) ? c : 0), 0);
    if (duplicates > 0) failures.push(`${duplicates} calls doubled`);
    if (unknownCalls > 0) failures.push(`${unknownCalls} accepted calls belong to no attempt`);
    if (mismatched > 0) failures.push(`${mismatched} attempts hold a call the fake did not make for them`);
    if (finished !== ids.length) failures.push(`${ids.length - finished} occurrences not finished`);
    // Every fake phone presses 1 (`--answer confirm`): a call that rang ends confirmed; only a
    // call dispatched too late may end otherwise (missed, late_dispatch), or one whose webhook
    // met the balancer with no host alive (a 1-host run's kill): each such call needs a 502.
    const notConfirmed = (statuses.unconfirmed ?? 0) + (statuses.failed ?? 0);
    const badGateways = proxyStats.badGateway - badGatewayAtStart;
    if (answer === 'confirm' && notConfirmed > badGateways)
      failures.push(`${notConfirmed} answered calls did not end confirmed, ${badGateways} webhooks answered 502 (keypad digits lost?)`);

    const firsts = attempts.filter((a) => a.kind === 'first');
    const late = firsts.map((a) => a.late).sort((x, y) => x - y);
    const span = late.length === 0 ? null : Math.max(1, late[late.length - 1]!);
    const cpuTotalMs = Object.values(cpuMsBy).reduce((a, b) => a + b, 0);
    const endToEnd = Math.max(1, drainedAt - dueAt);
    const rated =
      rate === null || late.length < 2
        ? {}
        : {
            rate_per_s: rate,
            placement_rate_per_s: Math.round(((late.length - 1) / Math.max(1, late[late.length - 1]! - late[0]!)) * 1000 * 100) / 100,
            rate_max_excess_ms: Math.max(...late.map((l, k) => l - (k / rate) * 1000)),
          };
    return {
      hosts: hostCount,
      db: sqlite ? 'sqlite' : 'postgres',
      calls_per_s: Math.round((firsts.length / endToEnd) * 1000),
      cpu_us_per_call: firsts.length === 0 ? null : Math.round((cpuTotalMs * 1000) / firsts.length),
      cpu_ms_by_process: cpuMsBy,
      provider_requests_per_placement: placedCalls === 0 ? null : Math.round((providerRequests / placedCalls) * 1000) / 1000,
      doubled: duplicates,
      ...rated,
      in_flight_per_host: inFlightPerHost(hostCount),
      calls,
      dispatches_per_s: span === null ? null : Math.round((firsts.length / span) * 1000),
      lateness_p50_ms: percentile(late, 50),
      lateness_p99_ms: percentile(late, 99),
      lateness_max_ms: percentile(late, 100),
      early: late.filter((l) => l < 0).length,
      killed_host_after_ms: killedAfterMs,
      restarted,
      accepted,
      attempts: attempts.length,
      duplicates,
      unknown_calls: unknownCalls,
      mismatched,
      unfinished: ids.length - finished,
      occurrence_statuses: statuses,
      drain_s: drainS,
      load_avg: Math.round(loadavg()[0]! * 10) / 10,
      webhook_failures: (await fake.counts()).webhookFailures,
      proxy: { ...proxyStats, retriedBy: { ...proxyStats.retriedBy }, clientErrors: { ...proxyStats.clientErrors } },
      host_unread_requests: unreadRequests(dir, hostCount),
      listen_overflows: overflowsAtStart === null ? null : (listenOverflows() ?? 0) - overflowsAtStart,
      ok: failures.length === 0,
      failures: failures.slice(0, 20),
    };
  } finally {
    if (sampler) clearInterval(sampler);
    for (const h of hosts) if (h) await h.kill9();
    await new Promise<void>((resolve) => lb.close(() => resolve()));
    await db?.close();
    if (admin && !keep) await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin?.end();
    log(`${hostCount} host(s): done in ${Math.round((performance.now() - started) / 1000)} s`);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'wakeup-multihost-'));
log(`logs in ${dir}; hosts ${hostCounts.join(',')}, calls ${calls}, lease ${leaseS} s, load average ${loadavg()[0]!.toFixed(1)}`);
buildDist();
const fake = await spawnFakeProvider({ speed, answer });
let ok = true;
try {
  for (const n of hostCounts) {
    const r = await run(n, fake, dir);
    ok &&= r.ok;
    console.log(`RESULT ${JSON.stringify(r)}`);
  }
} finally {
  await fake.stop();
}
process.exit(ok ? 0 : 1);
