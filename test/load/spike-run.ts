/**
 * One run of the 07:00 spike through the whole path (test/load/multihost.ts runs it for each
 * host count; bench/e2e.ts for the benchmark's end-to-end cell): a fresh database (a PostgreSQL
 * database on the given server, or a SQLite file), one-off wake-up calls seeded due at one
 * instant (test/load/seed.ts), production servers (`dist/server.cjs`) with the
 * Twilio-compatible adapter pointed at the fake provider, its webhooks through a round-robin
 * balancer (test/load/balancer.ts), optionally one host killed and restarted; then the audit
 * against the fake and the figures: calls/s, lateness, CPU per call of every process.
 *
 * Hooks let a caller add to the path without a second harness: which seeded account owns each
 * call, more seeding before the hosts start, more host environment, a wait before the CPU is
 * read at the end, a look at the hosts before they stop.
 * @module
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../host/db/open.js';
import type { Db } from '../../host/db/sql.js';
import { FINISHED_OCCURRENCE_STATUSES, isFinishedOccurrence } from '../../engine/internals.js';
import { balancer, snapshotProxyStats, type ProxyStats } from './balancer.js';
import { HostCpu, postgresCpuMs } from './cpu.js';
import type { FakeProviderProcess } from './fake-provider.js';
import { freePort, spawnServer, type ServerProcess } from './process.js';
import { listenOverflows, unreadRequests } from './run-signals.js';
import { seedDueCalls, setBatchDue, type SeededBatch } from './seed.js';

/** What {@link runSpike} needs. */
export interface SpikeRunOptions {
  hostCount: number;
  fake: FakeProviderProcess;
  /** Folder of the hosts' logs (`host-<hostCount>-<i>.log`) and of the SQLite file. */
  dir: string;
  /** Calls to seed, all due at one instant. */
  calls: number;
  /** A PostgreSQL server (a database of its own is created for the run, dropped after it), or null: one host on a SQLite file. */
  pgUrl: string | null;
  /** The PostgreSQL server's folder (scripts/pg-test-server.sh), to read its CPU; null: not measured. */
  pgDir: string | null;
  /** Each host's lease, seconds (WAKEUP_LEASE_SECONDS). */
  leaseS: number;
  /** Seconds before a killed host is started again. */
  restartS: number;
  /** WAKEUP_CALLS_IN_FLIGHT of each host. */
  inFlightPerHost: number;
  /** The calls are due this long after the hosts are ready, ms. */
  leadMs: number;
  /** What the fake's phones do (`confirm`: answer and press 1). */
  answer: string;
  drainTimeoutMs: number;
  /** Keep the PostgreSQL database after the run. */
  keep: boolean;
  /** The provider account's calls/s, each host its share; null: the adapter's default. */
  rate: number | null;
  /** Kill one host (kill -9) at a random moment of the spike and start it again. */
  kill: boolean;
  /** Kill it this many ms after the due instant; default a random moment of the first 3 s (at most calls / 10 ms). */
  killAfterMs?: number | undefined;
  /** WAKEUP_LOG_LEVEL of the hosts. */
  logLevel: string;
  /** A folder: each host writes a .cpuprofile there when stopped. */
  cpuProf?: string | undefined;
  /** Hosts use the built-in telephony simulator (the audit then fails). */
  diagSimulator: boolean;
  /** Random numbers in [0, 1) (which host dies, and when). */
  random: () => number;
  /** The balancer's counts, shared across runs. */
  proxyStats: ProxyStats;
  /** The seeded account (0 ≤ index < calls) that owns call i; default: each call its own account. */
  accountOf?: (i: number) => number;
  /** More seeding once the calls are seeded, before the hosts start (e.g. webhook endpoints, credits). */
  afterSeed?: (db: Db, batch: SeededBatch) => Promise<void>;
  /** More environment for the hosts (over the run's own). */
  env?: Record<string, string>;
  /** Awaited once every call finished, before the CPU is read (e.g. until outbound webhooks are delivered). */
  settle?: (db: Db) => Promise<void>;
  /** Called with the live hosts just before they are stopped. */
  beforeStop?: (hosts: readonly ServerProcess[]) => void;
}

const log = (msg: string) => process.stderr.write(`[multihost] ${msg}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: readonly number[], p: number): number | null =>
  sorted.length === 0
    ? null
    : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

/** The figures and checks of one run (multihost's `RESULT` line). */
export interface RunResult {
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
  /** Occurrences not ended confirmed, by `status/outcome_reason`: how many, and the first 5 ids. */
  not_confirmed: Record<string, { n: number; ids: string[] }>;
  drain_s: number;
  load_avg: number;
  /** The fake's webhooks that got no 2xx answer so far (all runs), by status; 0 is a network error. */
  webhook_failures: Record<string, number>;
  /** Connections the kernel dropped during the run because an accept queue was full (any process on the machine). */
  listen_overflows: number | null;
  /** Requests the hosts could not read (their `request not read` log lines), by error code. */
  host_unread_requests: Record<string, number>;
  /** The balancer's counts so far (all runs). */
  proxy: ProxyStats;
  ok: boolean;
  failures: string[];
}

/** Runs the spike once with `o.hostCount` hosts; resolves with its figures and checks (never rejects on a failed check). */
export async function runSpike(o: SpikeRunOptions): Promise<RunResult> {
  const { hostCount, fake, dir, calls, proxyStats, random, rate } = o;
  const sqlite = o.pgUrl === null;
  const baseUrl = o.pgUrl;
  if (sqlite && hostCount !== 1) throw new Error('--sqlite runs one host (SQLite is one process)');
  const failures: string[] = [];
  const badGatewayAtStart = proxyStats.badGateway;
  const dbName = `wakeup_mh_${hostCount}_${Date.now().toString(36)}`;
  let admin: pg.Client | null = null;
  let dbUrl: string;
  if (baseUrl === null) {
    dbUrl = join(dir, `${dbName}.sqlite`);
  } else {
    admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    const url = new URL(baseUrl);
    url.pathname = `/${dbName}`;
    dbUrl = url.toString();
  }
  const hostCpu = new HostCpu();
  let sampler: NodeJS.Timeout | null = null;
  const hosts: (ServerProcess | null)[] = [];
  const lb = balancer(() => hosts.filter((h): h is ServerProcess => h !== null), proxyStats);
  await new Promise<void>((resolve) =>
    lb.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve),
  );
  const lbUrl = `http://127.0.0.1:${(lb.address() as { port: number }).port}`;
  let db: Db | null = null;
  let killedAfterMs: number | null = null;
  let restarted = false;
  const started = performance.now();
  const overflowsAtStart = listenOverflows();
  try {
    db = await openDatabase(dbUrl); // migrates: the hosts find the schema in place
    const t = performance.now();
    const batch = await seedDueCalls(db, {
      n: calls,
      dueAt: Date.now() + 86_400_000,
      now: Date.now(),
      batch: hostCount,
      ...(o.accountOf ? { accountOf: o.accountOf } : {}),
    });
    await o.afterSeed?.(db, batch);
    log(`${hostCount} host(s): seeded ${calls} calls in ${Math.round(performance.now() - t)} ms`);
    const env = {
      WAKEUP_DB: dbUrl,
      WAKEUP_LEASE_SECONDS: String(o.leaseS),
      WAKEUP_CALLS_IN_FLIGHT: String(o.inFlightPerHost),
      // The provider account's rate, each host its share.
      ...(rate !== null
        ? { WAKEUP_CALLS_PER_SECOND: String(Math.round((rate / hostCount) * 1000) / 1000) }
        : {}),
      WAKEUP_SITE_URL: lbUrl,
      WAKEUP_LOG_LEVEL: o.logLevel,
      WAKEUP_LOG_PRETTY: '0',
      WAKEUP_DAILY_CAP: '100000',
      WAKEUP_SHUTDOWN_GRACE_SECONDS: '5',
      ...fake.serverEnv(),
      ...(o.diagSimulator ? { WAKEUP_TELEPHONY: 'simulator' } : {}),
      ...o.env,
    };
    const ports = await Promise.all(Array.from({ length: hostCount }, () => freePort()));
    const spawnHost = (i: number) =>
      spawnServer({
        port: ports[i]!,
        env,
        entry: 'bundle',
        logFile: join(dir, `host-${hostCount}-${i}.log`),
        ...(o.cpuProf ? { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', o.cpuProf] } : {}),
      });
    // SQLite: the host's store reads its journal and memory, not rows written under it by
    // another process, so the calls are made due before it starts (as the crash loop does).
    let dueAt = Date.now() + o.leadMs + (sqlite ? 3000 : 0);
    if (sqlite) await setBatchDue(db, batch, dueAt);
    for (let i = 0; i < hostCount; i++) hosts.push(spawnHost(i));
    await Promise.all(hosts.map((h) => h!.waitReady(60_000)));
    if (!sqlite) {
      dueAt = Date.now() + o.leadMs;
      await setBatchDue(db, batch, dueAt);
    }
    log(`${hostCount} host(s) ready; ${calls} calls due at +${o.leadMs} ms`);
    // CPU from here on, every process of the run.
    hostCpu.mark(hosts);
    sampler = setInterval(() => hostCpu.sample(hosts), 250);
    const cpuAtStart = {
      pg: postgresCpuMs(o.pgDir),
      fake: (await fake.counts()).cpuMicros,
      self: process.cpuUsage(),
    };
    const providerAtStart = await fake.counts();

    if (o.kill) {
      // Kill one host at a random moment of the spike (the first second or so of it), then
      // start it again after --restart-s. With one host that is the only one: the provider's
      // webhooks meet a 502 from the balancer until it is back, as behind a real one.
      const into = o.killAfterMs ?? Math.round(random() * Math.min(3000, calls / 10));
      await sleep(Math.max(0, dueAt - Date.now()) + into);
      const victim = Math.floor(random() * hostCount);
      killedAfterMs = Date.now() - dueAt;
      const dead = hosts[victim]!;
      hosts[victim] = null;
      await dead.kill9();
      log(`killed host ${victim} (kill -9) ${killedAfterMs} ms into the spike`);
      await sleep(o.restartS * 1000);
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
      if (performance.now() - drainStart > o.drainTimeoutMs) {
        failures.push(`${left} calls still unfinished after ${o.drainTimeoutMs / 1000} s`);
        break;
      }
      await sleep(1000);
    }
    const drainS = Math.round((performance.now() - drainStart) / 100) / 10;
    const drainedAt = Date.now();
    await sleep(1000); // the last status callbacks
    await o.settle?.(db);
    hostCpu.sample(hosts);
    if (sampler) clearInterval(sampler);
    const endCounts = await fake.counts();
    const selfCpu = process.cpuUsage(cpuAtStart.self);
    const pgEnd = postgresCpuMs(o.pgDir);
    const cpuMsBy: Record<string, number> = {
      hosts: hostCpu.total(),
      fake_provider: Math.round((endCounts.cpuMicros - cpuAtStart.fake) / 1000),
      harness_and_balancer: Math.round((selfCpu.user + selfCpu.system) / 1000),
      ...(cpuAtStart.pg !== null && pgEnd !== null && !sqlite
        ? { postgresql: pgEnd - cpuAtStart.pg }
        : {}),
    };
    const providerRequests =
      endCounts.createRequests -
      providerAtStart.createRequests +
      (endCounts.listRequests - providerAtStart.listRequests);
    const placedCalls = endCounts.accepted - providerAtStart.accepted;
    // The occurrences are finished, but the fake may still be sending the calls' last status
    // callbacks: the hosts answer them before they stop (else the balancer would count 502s
    // for webhooks sent after the run).
    const settleUntil = performance.now() + 60_000;
    for (;;) {
      const c = await fake.counts();
      const live =
        (c.statuses.queued ?? 0) + (c.statuses.ringing ?? 0) + (c.statuses['in-progress'] ?? 0);
      if ((live === 0 && c.webhooksInFlight === 0) || performance.now() > settleUntil) break;
      await sleep(200);
    }
    o.beforeStop?.(hosts.filter((h): h is ServerProcess => h !== null));
    for (const h of hosts) if (h) await h.stop();

    // Audit against the fake, which no host could take down with it.
    const fakeKeys = await fake.keys();
    const attempts = await db.all<{
      id: string;
      key: string;
      status: string;
      sid: string | null;
      kind: string;
      late: number;
    }>(
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
    // Every occurrence that did not end confirmed, by status and reason, with a few ids to
    // look up in a kept database (--keep): a run says which calls went wrong and why.
    const notConfirmedBy: Record<string, { n: number; ids: string[] }> = {};
    for (const o of await db.all<{ id: string; status: string; reason: string | null }>(
      'SELECT id, status, outcome_reason AS reason FROM occurrences WHERE id LIKE ?',
      [`crash-b${hostCount}-occ-%`],
    )) {
      statuses[o.status] = (statuses[o.status] ?? 0) + 1;
      if (o.status === 'confirmed') continue;
      const by = (notConfirmedBy[`${o.status}/${o.reason ?? '-'}`] ??= { n: 0, ids: [] });
      by.n++;
      if (by.ids.length < 5) by.ids.push(o.id);
    }
    const finished = Object.entries(statuses).reduce(
      (n, [s, c]) => n + (isFinishedOccurrence(s as never) ? c : 0),
      0,
    );
    if (duplicates > 0) failures.push(`${duplicates} calls doubled`);
    if (unknownCalls > 0) failures.push(`${unknownCalls} accepted calls belong to no attempt`);
    if (mismatched > 0)
      failures.push(`${mismatched} attempts hold a call the fake did not make for them`);
    if (finished !== ids.length) failures.push(`${ids.length - finished} occurrences not finished`);
    // Every fake phone answers and presses 1 (`--answer confirm`): a call that rang ends
    // confirmed; only one whose webhook met the balancer with no host alive (a 1-host run's
    // kill) may end otherwise (missed, unconfirmed), and each such call needs a 502.
    const notConfirmed = ids.length - (statuses.confirmed ?? 0);
    const badGateways = proxyStats.badGateway - badGatewayAtStart;
    if (o.answer === 'confirm' && notConfirmed > badGateways)
      failures.push(
        `${notConfirmed} answered calls did not end confirmed, ${badGateways} webhooks answered 502 (keypad digits lost?)`,
      );

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
            placement_rate_per_s:
              Math.round(
                ((late.length - 1) / Math.max(1, late[late.length - 1]! - late[0]!)) * 1000 * 100,
              ) / 100,
            rate_max_excess_ms: Math.max(...late.map((l, k) => l - (k / rate) * 1000)),
          };
    return {
      hosts: hostCount,
      db: sqlite ? 'sqlite' : 'postgres',
      calls_per_s: Math.round((firsts.length / endToEnd) * 1000),
      cpu_us_per_call: firsts.length === 0 ? null : Math.round((cpuTotalMs * 1000) / firsts.length),
      cpu_ms_by_process: cpuMsBy,
      provider_requests_per_placement:
        placedCalls === 0 ? null : Math.round((providerRequests / placedCalls) * 1000) / 1000,
      doubled: duplicates,
      ...rated,
      in_flight_per_host: o.inFlightPerHost,
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
      not_confirmed: notConfirmedBy,
      drain_s: drainS,
      load_avg: Math.round(loadavg()[0]! * 10) / 10,
      webhook_failures: (await fake.counts()).webhookFailures,
      proxy: snapshotProxyStats(proxyStats),
      host_unread_requests: unreadRequests(dir, hostCount),
      listen_overflows:
        overflowsAtStart === null ? null : (listenOverflows() ?? 0) - overflowsAtStart,
      ok: failures.length === 0,
      failures: failures.slice(0, 20),
    };
  } finally {
    if (sampler) clearInterval(sampler);
    for (const h of hosts) if (h) await h.kill9();
    await new Promise<void>((resolve) => lb.close(() => resolve()));
    await db?.close();
    if (admin && !o.keep) await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin?.end();
    log(`${hostCount} host(s): done in ${Math.round((performance.now() - started) / 1000)} s`);
  }
}
