/**
 * One engine cell of the 07:00 spike on the engine's PostgreSQL store (issue 17, item 6), run
 * in its own process by bench/run.ts against the server at `--url`, in a schema of its own:
 * N occurrences due within the same second, the system clock, a telephony sink that accepts
 * every call at once. The runtime claims its due work with leases (`RuntimeOptions.lease`, the
 * mode several hosts share a database in) unless `--no-lease` (one process). Lateness is as in
 * bench/dispatch-engine.ts: the instant the commit holding the attempt's intent returned, minus
 * its due instant; an early fire is a commit before the instant.
 *
 * Runtime options: `sliceMs` 1000 by default here (see below; `--slice-ms N` to change it),
 * `unitsInFlight` the host's on PostgreSQL (`--units-in-flight N`), `--batch-size N`;
 * `--rtt-ms N` delays every answer of the store's statements by N ms (a database on another
 * machine); with leases `ttlMs` 30 s, `pollMs` 1 s (rows are claimed about 1 s before they are
 * due), `maxClaimed` its default (2 × batchSize).
 *
 * `server_cpu_us_per_dispatch` is the server's CPU over the same span as the cell's own, when
 * the server runs on this machine: what a dispatch costs the database beside what it costs
 * the engine.
 *
 * Usage: node --import tsx bench/dispatch-pg-engine.ts --url postgres://… --n 100000 [--no-lease] [--cap-s 180]
 * @module
 */
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import {
  createRuntime,
  type OccurrenceRecord,
  type Store,
  type Telephony,
} from '../engine/index.js';
import { createPostgresStore, ensurePostgresEngineSchema } from '../engine/postgres/index.js';
import { createSystemClock } from '../host/adapters/clock/system-clock.js';
import { POSTGRES_UNITS_IN_FLIGHT } from '../host/wiring/calls.js';
import { pendingOccurrence } from '../test/load/seed.js';
import { args, percentile, printResult, r2, serverCpu, watch } from './measure.js';

const opt = args();
const n = Number(opt.get('n') ?? 100_000);
const url = opt.get('url');
if (!url) throw new Error('dispatch-pg-engine: --url postgres://… is required');
const lease = !opt.has('no-lease');
const capMs = Number(opt.get('cap-s') ?? 180) * 1000;
const system = lease ? 'engine-pg' : 'engine-pg-1';
// The unit sizer halves a unit that takes longer than sliceMs (default 10): on SQLite, whose
// commit blocks the loop, that bounds loop stalls; on PostgreSQL a unit's time is mostly
// awaited round trips (the loop is free meanwhile), and a 10 ms slice keeps units at 16 rows
// (a 100 ms slice at about 90 on a loaded machine: half the throughput of 1000 ms at 10k).
// This cell therefore runs with sliceMs 1000 unless told otherwise (docs/decisions/0012).
const runtimeOptions = {
  sliceMs: Number(opt.get('slice-ms') ?? 1000),
  ...(opt.has('batch-size') ? { batchSize: Number(opt.get('batch-size')) } : {}),
  unitsInFlight: Number(opt.get('units-in-flight') ?? POSTGRES_UNITS_IN_FLIGHT),
};

const schema = `bench_engine_${randomBytes(5).toString('hex')}`;
const admin = new pg.Client({ connectionString: url });
await admin.connect();
await admin.query(`CREATE SCHEMA ${schema}`);
const pool = new pg.Pool({ connectionString: url, options: `-c search_path=${schema}`, max: 8 });
await ensurePostgresEngineSchema(pool);
// `--rtt-ms N`: every statement answers N ms later, as from a database on another machine.
const rttMs = Number(opt.get('rtt-ms') ?? 0);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const inner = createPostgresStore(
  rttMs > 0
    ? { query: async (config) => pool.query(config).then(async (r) => (await wait(rttMs), r)) }
    : pool,
);

// Time-ordered ids (like UUIDv7): rows of one spike sit together in the B-trees.
let seq = 0;
const ids = {
  uuid: () =>
    `${(Date.now() * 1000 + (seq++ % 1000)).toString(16).padStart(16, '0')}-${randomUUID().slice(19)}`,
};

// A store that notes when each attempt's intent became durable.
const lateness = new Float64Array(n);
let recorded = 0;
let lastCommit = 0;
const store: Store = {
  ...inner,
  async commit(changes) {
    const dues: number[] = [];
    for (const w of changes.attempts) if (w.expectedVersion === null) dues.push(w.record.dueAt);
    const result = await inner.commit(changes);
    if (result.ok && dues.length > 0) {
      const t = Date.now();
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

// Setup (not measured): N pending rows a day ahead, then moved to one second a few seconds ahead.
const far = Date.now() + 86_400_000;
for (let i = 0; i < n; i += 5000) {
  const rows = [];
  for (let j = i; j < Math.min(n, i + 5000); j++)
    rows.push({
      record: pendingRow(ids.uuid(), far + (j % 1000), Date.now()),
      expectedVersion: null,
    });
  await inner.commit({ occurrences: rows, attempts: [], series: [] });
}
await admin.query(`ANALYZE ${schema}.occurrences`);
const clock = createSystemClock();
const runtime = createRuntime({
  clock,
  ids,
  store,
  telephony,
  options: {
    ...runtimeOptions,
    ...(lease ? { lease: { owner: 'bench-host', ttlMs: 30_000, pollMs: 1000 } } : {}),
  },
});
const lead = 2000 + Math.ceil(n / 200);
const due = Date.now() + lead;
await admin.query(
  `UPDATE ${schema}.occurrences SET scheduled_at = $1 + (scheduled_at - $2), next_due_at = $1 + (next_due_at - $2), series_base = $1 + (series_base - $2)
   WHERE status = 'pending' AND next_due_at >= $2 AND next_due_at < $2 + 1000`,
  [due, far],
);
if (Date.now() > due - 500)
  console.error(`bench: engine-pg setup overran the spike instant by ${Date.now() - due} ms`);
(globalThis as { gc?: () => void }).gc?.();
const w = watch();
const server = await serverCpu(admin);
const cpu0 = process.cpuUsage();
await runtime.start();
await new Promise<void>((resolve) => {
  const check = setInterval(() => {
    if (recorded >= n || Date.now() > due + capMs) {
      clearInterval(check);
      resolve();
    }
  }, 5);
});
const { loopMaxMs, peakRssMiB } = w.stop();
const cpu = process.cpuUsage(cpu0);
const serverUs = server.usPer(recorded);
await runtime.stop();
clock.stop();
const sorted = lateness.slice(0, recorded).sort();
let early = 0;
for (const l of sorted) if (l < 0) early++;
const drainS = (lastCommit - due) / 1000;
printResult({
  system,
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
  cpu_us_per_dispatch: r2((cpu.user + cpu.system) / Math.max(recorded, 1)),
  server_cpu_us_per_dispatch: serverUs,
  units: runtime.stats.units,
  conflicts: runtime.stats.conflicts,
  lease,
  slice_ms: runtimeOptions.sliceMs,
  units_in_flight: runtimeOptions.unitsInFlight,
});
await pool.end();
await admin.query(`DROP SCHEMA ${schema} CASCADE`);
await admin.end();
process.exit(0);
