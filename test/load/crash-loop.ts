/**
 * The crash loop (`npm run test:crash`, not part of `npm test`; issue 15 item 4).
 *
 * One SQLite file in a temporary folder; the real server entry (`node dist/server.cjs`,
 * built first) in its own process with the Twilio-compatible adapter pointed at the fake
 * provider, which runs in another process (test/load/fake-provider-main.ts) and counts every
 * accepted call by the attempt key it carries.
 *
 * 1. Before the first start, `--calls` wake-up calls (accounts, verified numbers, one-off
 *    occurrences; test/load/seed.ts) are seeded due at one instant, `--lead-ms` after the
 *    first spawn.
 * 2. Each of `--rounds` rounds: spawn the server; wait for GET /readyz 200 and for the first
 *    call of this round to reach the fake; wait a random 0..`--max-kill-ms` ms (seeded by
 *    `--seed`); kill -9. The next round's spawn is the restart.
 *    One spike drains across the rounds; when fewer than a tenth of its calls are still
 *    waiting for their first dispatch before a round, a fresh batch of `--calls` is seeded
 *    due at that round's spawn instant (so the restart walks into a spike already due), so
 *    that every kill lands while calls are being placed.
 * 3. A final clean run: restart, wait until every seeded call finished (attempts that lost
 *    their webhooks in a kill end by their watchdogs: about a minute), stop it with SIGTERM.
 * 4. Audit (test/load/audit.ts): exactly one accepted call per attempt, nothing lost,
 *    integrity_check ok, and every restart ready in under 1 s.
 *
 * Recovery of a restart = ms from its spawn to the first 200 of GET /readyz (the server
 * listens only after the runtime's start-up reconciliation ran and due work is loaded).
 * Also reported: ms from the spawn until the fake accepted the first call of that process
 * (dispatch resumed), for restarts that had calls due at their spawn.
 *
 * Prints progress on stderr and one `RESULT {json}` line; exits 1 when a check fails.
 *
 * Usage: node --import tsx test/load/crash-loop.ts [--rounds 50] [--calls 20000] [--seed 1]
 *   [--max-kill-ms 2000] [--lead-ms 3000] [--speed 20] [--drain-timeout-s 300] [--entry bundle|dist|tsx] [--keep]
 *   [--cpu-prof DIR] (node --cpu-prof for every server; only the final clean run, which exits, writes its profile)
 * @module
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { openSqliteDatabase } from '../../host/db/open.js';
import { audit, pendingCount, unacknowledgedCount, unfinishedCount } from './audit.js';
import { spawnFakeProvider } from './fake-provider.js';
import { buildDist, cpuMs, freePort, spawnServer, type ServerProcess } from './process.js';
import { seedDueCalls, setBatchDue, type SeededBatch } from './seed.js';
import { loadOptions } from './options.js';

const { opt, num } = loadOptions();
const rounds = num('rounds', 50);
const callsPerBatch = num('calls', 20_000);
const seed = num('seed', Date.now() % 1_000_000);
const maxKillMs = num('max-kill-ms', 2000);
const leadMs = num('lead-ms', 3000);
const speed = num('speed', 20);
const drainTimeoutMs = num('drain-timeout-s', 300) * 1000;
const entry = (['dist', 'tsx'] as const).find((e) => e === opt.get('entry')) ?? 'bundle';
const keep = opt.has('keep');
const cpuProf = opt.get('cpu-prof');
const nodeArgs = cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${cpuProf}`] : [];
const RECOVERY_LIMIT_MS = 1000;

const log = (msg: string) => process.stderr.write(`[crash] ${msg}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** mulberry32: the kill moments are reproducible from --seed. */
function prng(a: number): () => number {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(seed);

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}
const round1 = (x: number) => Math.round(x * 10) / 10;

interface RoundRecord {
  round: number;
  seeded: boolean;
  pendingAtSpawn: number;
  readyMs: number;
  /** CPU time the server used until it was ready (Linux), whatever the machine's load. */
  readyCpuMs: number | null;
  firstCallMs: number | null;
  killDelayMs: number | null;
  acceptedAtKill: number | null;
  /** Attempts left `requested` without the provider's acceptance by the kill. */
  unacknowledgedAfterKill: number | null;
}

const started = performance.now();
const loadAtStart = round1(loadavg()[0]!);
const dir = mkdtempSync(join(tmpdir(), 'wakeup-crash-'));
const dbFile = join(dir, 'wakeup.sqlite');
const logFile = join(dir, 'server.log');
log(
  `load average ${loadAtStart}; folder ${dir}; rounds ${rounds}, calls ${callsPerBatch}, seed ${seed}, entry ${entry}`,
);
if (entry !== 'tsx') buildDist();

// The fake waits for every webhook's answer: sharing the cores with the server at 20 times the
// calls' speed, its own lag would otherwise count as the server's (FakeTwilioOptions.answerTimeout).
const fake = await spawnFakeProvider({ speed, answerTimeout: false });
const port = await freePort();
const env = {
  WAKEUP_DB: dbFile,
  WAKEUP_LOG_LEVEL: opt.get('log-level') ?? 'warn',
  WAKEUP_LOG_PRETTY: '0',
  WAKEUP_DAILY_CAP: '100000',
  WAKEUP_SHUTDOWN_GRACE_SECONDS: '5',
  ...fake.serverEnv(),
};

const batches: SeededBatch[] = [];
const seedBatch = async (dueAt: number): Promise<void> => {
  const db = openSqliteDatabase(dbFile);
  try {
    const t = performance.now();
    const batch = await seedDueCalls(db, {
      n: callsPerBatch,
      dueAt,
      now: Date.now(),
      batch: batches.length,
    });
    await setBatchDue(db, batch, dueAt);
    batches.push(batch);
    log(
      `seeded batch ${batch.batch}: ${callsPerBatch} calls in ${Math.round(performance.now() - t)} ms`,
    );
  } finally {
    await db.close();
  }
};
const probe = (fn: (db: Sqlite.Database) => number): number => {
  const db = new Sqlite(dbFile, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    return fn(db);
  } finally {
    db.close();
  }
};
const pendingNow = () => probe((db) => pendingCount(db, 'crash-b%-occ-%'));

/** Polls the fake until it accepted more than `before` calls; ms since the spawn, or null if `stopAt` passed. */
async function firstCall(
  server: ServerProcess,
  before: number,
  stopAt: number,
): Promise<number | null> {
  for (;;) {
    if ((await fake.accepted()) > before) return performance.now() - server.spawnedAt;
    if (performance.now() > stopAt || server.child.exitCode !== null) return null;
    await sleep(5);
  }
}

const records: RoundRecord[] = [];
const failures: string[] = [];
let server: ServerProcess | null = null;
try {
  await seedBatch(0); // instant set below, just before the first spawn
  for (let round = 0; round < rounds; round++) {
    let seeded = false;
    if (round > 0 && pendingNow() < callsPerBatch / 10) {
      await seedBatch(Date.now());
      seeded = true;
    }
    const pendingAtSpawn = pendingNow();
    const before = await fake.accepted();
    if (round === 0) {
      const db = openSqliteDatabase(dbFile);
      await setBatchDue(db, batches[0]!, Date.now() + leadMs);
      await db.close();
    }
    server = spawnServer({ port, env, entry, logFile, nodeArgs });
    const spawnEpoch = Math.round(performance.timeOrigin + server.spawnedAt);
    const readyMs = await server.waitReady(60_000);
    const readyCpuMs = cpuMs(server.pid);
    const callMs = await firstCall(server, before, server.spawnedAt + 60_000 + leadMs);
    let killDelayMs: number | null = null;
    let acceptedAtKill: number | null = null;
    if (callMs !== null) {
      killDelayMs = Math.round(random() * maxKillMs);
      await sleep(killDelayMs);
      acceptedAtKill = await fake.accepted();
    }
    await server.kill9();
    server = null;
    const unacknowledgedAfterKill = probe(unacknowledgedCount);
    const rec: RoundRecord = {
      round,
      seeded,
      pendingAtSpawn,
      readyMs: round1(readyMs),
      readyCpuMs,
      firstCallMs: callMs === null ? null : round1(callMs),
      killDelayMs,
      acceptedAtKill,
      unacknowledgedAfterKill,
    };
    records.push(rec);
    log(
      `round ${round} (spawned at ${spawnEpoch}): ready ${rec.readyMs} ms (cpu ${rec.readyCpuMs} ms), first call ${rec.firstCallMs} ms, killed ${killDelayMs} ms later ` +
        `(pending at spawn ${pendingAtSpawn}, accepted ${acceptedAtKill}, unacknowledged after the kill ${unacknowledgedAfterKill}` +
        `${seeded ? ', fresh batch' : ''})`,
    );
    if (callMs === null)
      failures.push(`round ${round}: no call reached the fake within 60 s of the spawn`);
  }

  // Final clean run: everything drains.
  const pendingAtSpawn = pendingNow();
  const before = await fake.accepted();
  server = spawnServer({ port, env, entry, logFile, nodeArgs });
  const readyMs = await server.waitReady(60_000);
  const readyCpuMs = cpuMs(server.pid);
  const unfinishedAtSpawn = probe((db) => unfinishedCount(db, 'crash-b%-occ-%'));
  const callMs =
    unfinishedAtSpawn > 0 ? await firstCall(server, before, server.spawnedAt + 10_000) : null;
  records.push({
    round: rounds,
    seeded: false,
    pendingAtSpawn,
    readyMs: round1(readyMs),
    readyCpuMs,
    firstCallMs: callMs === null ? null : round1(callMs),
    killDelayMs: null,
    acceptedAtKill: null,
    unacknowledgedAfterKill: null,
  });
  log(
    `final run: ready ${round1(readyMs)} ms, first call ${callMs === null ? '-' : round1(callMs)} ms; draining ${unfinishedAtSpawn}`,
  );
  const drainStart = performance.now();
  for (let left = unfinishedAtSpawn; left > 0;) {
    if (performance.now() - drainStart > drainTimeoutMs) {
      failures.push(`drain: ${left} calls still unfinished after ${drainTimeoutMs / 1000} s`);
      break;
    }
    await sleep(1000);
    const now = probe((db) => unfinishedCount(db, 'crash-b%-occ-%'));
    if (now !== left) log(`draining: ${now} unfinished`);
    left = now;
  }
  // Let the last status callbacks of finished calls settle before stopping.
  await sleep(1000);
  const code = await server.stop();
  server = null;
  if (code !== 0) failures.push(`final server exited with ${code} on SIGTERM`);
} catch (err) {
  failures.push(`harness: ${err instanceof Error ? err.message : String(err)}`);
} finally {
  if (server) await server.kill9();
}

const keys = await fake.keys();
const pressed = await fake.pressed();
const fakeCounts = await fake.counts();
await fake.stop();
const a = await audit(
  dbFile,
  batches.flatMap((b) => b.occurrenceIds),
  keys,
  pressed,
);
if (a.duplicates > 0)
  failures.push(`${a.duplicates} doubled calls (keys ${a.duplicateKeys.join(', ')})`);
if (a.unknownCalls > 0) failures.push(`${a.unknownCalls} accepted calls belong to no attempt`);
if (a.mismatched > 0)
  failures.push(`${a.mismatched} attempts recorded a call the fake does not hold for them`);
if (a.unresolved > 0) failures.push(`${a.unresolved} attempts left in requested`);
if (a.notConfirmed > 0)
  failures.push(
    `${a.notConfirmed} of ${a.pressedOne} calls that pressed 1 did not end confirmed (e.g. ${a.notConfirmedKeys.slice(0, 5).join(', ')})`,
  );
if (a.unfinished > 0)
  failures.push(
    `${a.unfinished} calls not finished after the final run (${a.unfinished - a.lost} still due)`,
  );
if (a.lost > 0)
  failures.push(`${a.lost} occurrences lost (e.g. ${a.lostIds.slice(0, 5).join(', ')})`);
if (a.integrity !== 'ok') failures.push(`integrity_check: ${a.integrity}`);
const restarts = records.slice(1);
const ready = restarts.map((r) => r.readyMs).sort((x, y) => x - y);
const readyCpu = restarts
  .filter((r) => r.readyCpuMs !== null)
  .map((r) => r.readyCpuMs!)
  .sort((x, y) => x - y);
const first = restarts
  .filter((r) => r.firstCallMs !== null && !r.seeded)
  .map((r) => r.firstCallMs!)
  .sort((x, y) => x - y);
const slow = restarts.filter((r) => r.readyMs >= RECOVERY_LIMIT_MS);
if (slow.length > 0)
  failures.push(
    `${slow.length} restarts took ${RECOVERY_LIMIT_MS} ms or more to be ready (rounds ${slow.map((r) => r.round).join(', ')})`,
  );

let adopted = 0;
try {
  adopted =
    readFileSync(logFile, 'utf8').split('adopted a call placed earlier for this attempt').length -
    1;
} catch {
  // No log: no server ran.
}

const result = {
  rounds,
  batches: batches.length,
  calls: batches.length * callsPerBatch,
  accepted: a.accepted,
  attempts: a.attempts,
  duplicates: a.duplicates,
  unknown_calls: a.unknownCalls,
  mismatched: a.mismatched,
  unresolved: a.unresolved,
  unrecorded: a.unrecorded,
  pressed_one: a.pressedOne,
  pressed_one_unheard: a.unheard,
  pressed_one_not_confirmed: a.notConfirmed,
  unacknowledged_at_kills: records.reduce((n, r) => n + (r.unacknowledgedAfterKill ?? 0), 0),
  adopted_after_restart: adopted,
  unfinished: a.unfinished,
  lost: a.lost,
  integrity: a.integrity,
  occurrence_statuses: a.occurrenceStatuses,
  attempt_statuses: a.attemptStatuses,
  provider_create_requests: fakeCounts.createRequests,
  provider_list_requests: fakeCounts.listRequests,
  provider_get_requests: fakeCounts.getRequests,
  provider_webhook_retries: fakeCounts.webhookRetries,
  provider_webhook_failures: fakeCounts.webhookFailures,
  recovery_ready_p50_ms: percentile(ready, 50),
  recovery_ready_p99_ms: percentile(ready, 99),
  recovery_ready_max_ms: percentile(ready, 100),
  recovery_ready_cpu_p50_ms: percentile(readyCpu, 50),
  recovery_ready_cpu_max_ms: percentile(readyCpu, 100),
  first_call_p50_ms: percentile(first, 50),
  first_call_p99_ms: percentile(first, 99),
  first_call_max_ms: percentile(first, 100),
  first_call_restarts: first.length,
  wall_s: round1((performance.now() - started) / 1000),
  load_avg_1m: [loadAtStart, round1(loadavg()[0]!)],
  seed,
  ok: failures.length === 0,
  failures,
};
console.log(`RESULT ${JSON.stringify(result)}`);
if (keep || failures.length > 0) log(`kept ${dir} (database and server.log)`);
else rmSync(dir, { recursive: true, force: true });
process.exit(failures.length === 0 ? 0 : 1);
