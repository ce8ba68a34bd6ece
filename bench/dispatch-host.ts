/**
 * The 07:00 spike through the HTTP host's real composition of the engine, in its own process
 * (run by bench/run.ts beside the engine-only cell): `createCallRuntime` as host/compose.ts
 * builds it, so the service's SQLite store (migrated database, checkpoints on a worker), the
 * Accounts port (admission: account, blocked number, trial or plan entitlement, daily cap,
 * with its ledger) and the usage counting all run on every dispatch. N accounts on a trial,
 * one wake-up call each, due within the same second; a telephony sink that accepts every
 * call at once; the system clock.
 *
 * Lateness is the instant the runtime reported the attempt's intent stored (its
 * `attempt:status` event, emitted right after the commit) minus its due instant.
 *
 * Usage: node --expose-gc --import tsx bench/dispatch-host.ts --n 100000
 * Options: `--cpu-prof FILE` writes a CPU profile of the spike alone (setup excluded).
 * @module
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { Messaging, OccurrenceRecord, Telephony } from '../engine/index.js';
import { createSystemClock } from '../host/adapters/clock/system-clock.js';
import { createCallRuntime } from '../host/wiring/calls.js';
import { openSqliteDatabase } from '../host/db/open.js';
import { commitOccurrences, pendingOccurrence, seedAccounts } from '../test/load/seed.js';
import { args, percentile, printResult, r2, spikeLeadMs, watch } from './measure.js';

const opt = args();
const n = Number(opt.get('n') ?? 100_000);
const capMs = Number(opt.get('cap-s') ?? 180) * 1000;
const profileFile = opt.get('cpu-prof');
const dir = mkdtempSync(join(tmpdir(), 'wakeup-bench-host-'));
const sdb = openSqliteDatabase(join(dir, 'bench.sqlite'));
const db = sdb.raw;

let seq = 0;
const ids = {
  uuid: () =>
    `${(Date.now() * 1000 + (seq++ % 1000)).toString(16).padStart(16, '0')}-${(seq % 1e12).toString(16).padStart(12, '0')}`,
};
const telephony: Telephony = {
  placeCall: async (req) => ({ ok: true, callId: `C-${req.idempotencyKey}` }),
  hangUp: async () => {},
  onEvent: () => {},
};
const messaging: Messaging = {
  sendText: async () => ({ ok: true, messageId: 'm' }),
  sendEmail: async () => ({ ok: true, messageId: 'm' }),
};

// Setup (not measured): N accounts on a trial, one pending occurrence each, a day ahead
// (the seeding helpers are shared with the crash loop: test/load/seed.ts).
const setupNow = Date.now();
const far = setupNow + 86_400_000;
await seedAccounts(sdb, 'acct-', n, setupNow);
for (let i = 0; i < n; i += 10_000) {
  const rows: OccurrenceRecord[] = [];
  for (let j = i; j < Math.min(n, i + 10_000); j++)
    rows.push(
      pendingOccurrence({
        id: ids.uuid(),
        accountId: `acct-${j}`,
        to: '+14155550123',
        at: far + (j % 1000),
        now: setupNow,
      }),
    );
  await commitOccurrences(sdb, rows);
}

const clock = createSystemClock();
const runtime = createCallRuntime({
  db: sdb,
  clock,
  ids,
  telephony,
  messaging,
  logger: pino({ level: 'warn' }),
  dailyCap: 20,
  serviceName: 'Wakeup',
});
const lateness = new Float64Array(n);
let recorded = 0;
let refused = 0;
let lastCommit = 0;
runtime.on('attempt:status', ({ attempt, from }) => {
  if (from !== null || recorded >= n) return;
  const t = Date.now();
  lastCommit = t;
  lateness[recorded++] = t - attempt.dueAt;
});
runtime.on('occurrence:status', ({ occurrence }) => {
  if (occurrence.status === 'cancelled') refused++;
});

const lead = spikeLeadMs(n);
const due = Date.now() + lead;
db.prepare(
  `UPDATE occurrences SET scheduled_at = ? + (scheduled_at - ?), next_due_at = ? + (next_due_at - ?), series_base = ? + (series_base - ?) WHERE status = 'pending'`,
).run(due, far, due, far, due, far);
(globalThis as { gc?: () => void }).gc?.();
const session = profileFile ? new Session() : null;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
const w = watch();
const cpu0 = process.cpuUsage();
await runtime.start();
const startedVsDue = Date.now() - due;
await new Promise<void>((resolve) => {
  const check = setInterval(() => {
    if (recorded + refused >= n || Date.now() > due + capMs) {
      clearInterval(check);
      resolve();
    }
  }, 5);
});
const { loopMaxMs, peakRssMiB } = w.stop();
const cpu = process.cpuUsage(cpu0);
if (session && profileFile) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(profileFile, JSON.stringify(profile));
  session.disconnect();
}
await runtime.stop();
clock.stop();
const sorted = lateness.slice(0, recorded).sort();
let early = 0;
for (const l of sorted) if (l < 0) early++;
const drainS = (lastCommit - due - Math.max(0, startedVsDue)) / 1000;
printResult({
  system: 'host',
  workload: 'spike_0700',
  n,
  dispatches_per_s: Math.round(recorded / Math.max(drainS, 0.001)),
  lateness_p50_ms: percentile(sorted, 50),
  lateness_p99_ms: percentile(sorted, 99),
  lateness_max_ms: percentile(sorted, 100),
  early_fires: early,
  loop_max_delay_ms: r2(loopMaxMs),
  peak_rss_mib: r2(peakRssMiB),
  dispatched: recorded,
  refused,
  complete: recorded >= n,
  drain_s: r2(drainS),
  cpu_us_per_dispatch: r2((cpu.user + cpu.system) / Math.max(recorded, 1)),
  started_vs_due_ms: startedVsDue,
});
await sdb.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
