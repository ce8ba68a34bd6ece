/**
 * One engine cell of the 07:00 spike, run in its own process by bench/run.ts:
 * N occurrences due within the same second, the SQLite store (WAL) on a temp file, the
 * system clock, and a telephony sink that accepts every call at once. Prints RESULT lines:
 * the spike, and add/cancel cost through the runtime with N pending.
 *
 * Lateness is durably recorded minus due: the time the transaction holding the attempt's
 * intent committed, minus its due instant. An early fire is a commit before the instant.
 *
 * Usage: node --expose-gc --import tsx bench/dispatch-engine.ts --n 100000
 * Options: `--cpu-prof FILE` writes a CPU profile of the spike alone (setup excluded);
 * `--batch-size N` and `--slice-ms N` pass those runtime options (defaults otherwise).
 * @module
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createRuntime,
  type OccurrenceRecord,
  type Store,
  type Telephony,
} from '../engine/index.js';
import { createSystemClock } from '../host/adapters/clock/system-clock.js';
import { openSqliteDatabase } from '../host/db/open.js';
import { createSqliteStore } from '../engine/sqlite/index.js';
import { pendingOccurrence } from '../test/load/seed.js';
import { args, percentile, printResult, r2, spikeLeadMs, watch } from './measure.js';

const opt = args();
const n = Number(opt.get('n') ?? 100_000);
const profileFile = opt.get('cpu-prof');
const runtimeOptions = {
  ...(opt.has('batch-size') ? { batchSize: Number(opt.get('batch-size')) } : {}),
  ...(opt.has('slice-ms') ? { sliceMs: Number(opt.get('slice-ms')) } : {}),
};
/** Stop waiting for the spike to drain after this long (the figures then cover what was dispatched). */
const capMs = Number(args().get('cap-s') ?? 180) * 1000;
const dir = mkdtempSync(join(tmpdir(), 'wakeup-bench-'));
const db = openSqliteDatabase(join(dir, 'bench.sqlite')).raw;
// Checkpoints on a worker thread, as the host runs its production store (see SqliteStoreOptions).
const inner = createSqliteStore(db, { checkpointInWorker: true });

// Time-ordered ids (like UUIDv7): rows of one spike sit together in the B-trees.
let seq = 0;
const ids = {
  uuid: () =>
    `${(Date.now() * 1000 + (seq++ % 1000)).toString(16).padStart(16, '0')}-${randomUUID().slice(19)}`,
};

// A store that notes when each attempt's intent became durable.
const lateness = new Float64Array(n);
let recorded = 0;
let firstCommit = Infinity;
let lastCommit = 0;
const slowest = { ms: 0, rows: 0, at: 0 };
const store: Store = {
  ...inner,
  async commit(changes) {
    const dues: number[] = [];
    for (const w of changes.attempts) if (w.expectedVersion === null) dues.push(w.record.dueAt);
    const ts = performance.now();
    const result = await inner.commit(changes);
    const took = performance.now() - ts;
    if (took > slowest.ms) Object.assign(slowest, { ms: took, rows: dues.length, at: Date.now() });
    if (result.ok && dues.length > 0) {
      const t = Date.now();
      firstCommit = Math.min(firstCommit, t);
      lastCommit = t;
      for (const d of dues) if (recorded < n) lateness[recorded++] = t - d;
    }
    return result;
  },
};

const telephony: Telephony = {
  placeCall: async (req) => ({ ok: true, callId: `C-${req.idempotencyKey}` }),
  hangUp: async () => {},
  onEvent: () => {},
};

/** A one-off pending call (test/load/seed.ts, shared with the host cell and the load tests). */
function pendingRow(id: string, at: number, now: number): OccurrenceRecord {
  return pendingOccurrence({ id, accountId: `acct-${id.slice(-6)}`, to: '+14155550123', at, now });
}

// Setup (not measured): N pending rows, then move them all to one second a few seconds ahead.
const far = Date.now() + 86_400_000;
for (let i = 0; i < n; i += 10_000) {
  const rows = [];
  for (let j = i; j < Math.min(n, i + 10_000); j++)
    rows.push({
      record: pendingRow(ids.uuid(), far + (j % 1000), Date.now()),
      expectedVersion: null,
    });
  await inner.commit({ occurrences: rows, attempts: [], series: [] });
}
(globalThis as { gc?: () => void }).gc?.();

const clock = createSystemClock();
const runtime = createRuntime({ clock, ids, store, telephony, options: runtimeOptions });
// Add and cancel cost through the runtime with N pending (each its own transaction).
{
  const ops = 2000;
  const t0 = performance.now();
  const made = [];
  for (let i = 0; i < ops; i++)
    made.push(
      (
        await runtime.schedule({
          accountId: 'x',
          to: '+14155550100',
          scheduledAt: far + 3_600_000 + i,
        })
      ).id,
    );
  const t1 = performance.now();
  for (const id of made) await runtime.cancel(id);
  const t2 = performance.now();
  printResult({
    system: 'engine',
    workload: 'add_cancel_durable',
    n,
    dispatches_per_s: null,
    lateness_p50_ms: null,
    lateness_p99_ms: null,
    lateness_max_ms: null,
    early_fires: null,
    loop_max_delay_ms: null,
    peak_rss_mib: null,
    add_us_per_op: r2(((t1 - t0) * 1000) / ops),
    cancel_us_per_op: r2(((t2 - t1) * 1000) / ops),
  });
}
// The rows are moved with SQL on the tables: fold the journal into them first.
await inner.settle();
const lead = spikeLeadMs(n);
const due = Date.now() + lead;
const moveT0 = performance.now();
db.transaction(() => {
  db.prepare(
    `UPDATE occurrences SET scheduled_at = ? + (scheduled_at - ?), next_due_at = ? + (next_due_at - ?), series_base = ? + (series_base - ?) WHERE status = 'pending' AND next_due_at >= ? AND next_due_at < ?`,
  ).run(due, far, due, far, due, far, far, far + 1000);
})();
(globalThis as { gc?: () => void }).gc?.();
const session = profileFile ? new Session() : null;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
const w = watch();
const cpu0 = process.cpuUsage();
const dbg = process.env.BENCH_DEBUG
  ? setInterval(() => {
      let wal = 0;
      try {
        wal = statSync(join(dir, 'bench.sqlite-wal')).size;
      } catch {
        // no WAL file yet
      }
      console.error(
        `t+${Date.now() - due}ms recorded ${recorded} wal ${(wal / 1048576).toFixed(1)}MiB rss ${(process.memoryUsage.rss() / 1048576).toFixed(0)} stats ${JSON.stringify({ ...runtime.stats, memo: undefined })}`,
      );
    }, 1000)
  : undefined;
const startT0 = performance.now();
await runtime.start();
const startMs = performance.now() - startT0;
const moveMs = startT0 - moveT0;
const startRss = process.memoryUsage.rss() / 1048576;
const startedVsDue = Date.now() - due;
await new Promise<void>((resolve) => {
  const check = setInterval(() => {
    if (recorded >= n || Date.now() > due + capMs) {
      clearInterval(check);
      resolve();
    }
  }, 5);
});
clearInterval(dbg);
const { loopMaxMs, peakRssMiB } = w.stop();
const cpu = process.cpuUsage(cpu0);
if (session && profileFile) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(profileFile, JSON.stringify(profile));
  session.disconnect();
}
await runtime.stop();
clock.stop();
const stats = runtime.stats;
const sorted = lateness.slice(0, recorded).sort();
let early = 0;
for (const l of sorted) if (l < 0) early++;
const drainS = (lastCommit - due - Math.max(0, startedVsDue)) / 1000;
printResult({
  system: 'engine',
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
  complete: recorded >= n,
  drain_s: r2(drainS),
  // CPU time of the process (every thread) per dispatch: steadier than wall time on a shared machine.
  cpu_us_per_dispatch: r2((cpu.user + cpu.system) / Math.max(recorded, 1)),
  slowest_unit_ms: r2(slowest.ms),
  slowest_unit_rows: slowest.rows,
  slowest_unit_vs_due_ms: slowest.at - due,
  rss_at_start_mib: r2(startRss),
  started_vs_due_ms: startedVsDue,
  move_ms: r2(moveMs),
  start_ms: r2(startMs),
  units: stats.units,
  memo_hits: stats.memo.occurrence.hits + stats.memo.attempt.hits,
  memo_misses: stats.memo.occurrence.misses + stats.memo.attempt.misses,
});
await inner.close();
db.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
