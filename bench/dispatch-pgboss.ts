/**
 * One pg-boss cell of the 07:00 spike (issue 17, item 6), run in its own process by
 * bench/run.ts on the same PostgreSQL server as the engine's PostgreSQL cell, in a schema of
 * its own: N jobs inserted with `startAfter` within the same second, workers whose handler
 * calls the same instant-answer sink. The dispatch instant is when the handler starts: the
 * job is then durably `active` (pg-boss's fetch is one `FOR UPDATE SKIP LOCKED` claim
 * statement), as the engine's is when the attempt's intent commits.
 *
 * Worker settings, chosen to give pg-boss its best spike on this workload and documented in
 * the RESULT line: `batchSize` 512 (the engine's unit size), `localConcurrency` 2 (two fetch
 * loops, so one fetches while the other completes its batch), `pollingIntervalSeconds` 0.5
 * (pg-boss's minimum: it has no timer for `startAfter`, it polls) and `burstWhenBatchFull`
 * (fetch again at once while batches come back full). A handler's returning completes its
 * batch (one more statement), as pg-boss does by default.
 *
 * `server_cpu_us_per_dispatch`: the server's CPU over the cell's span, as in the engine's cell.
 *
 * Usage: node --import tsx bench/dispatch-pgboss.ts --url postgres://… --n 100000 [--cap-s 180]
 * @module
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { args, percentile, printResult, r2, serverCpu, watch } from './measure.js';

const a = args();
const n = Number(a.get('n') ?? 10_000);
const url = a.get('url');
if (!url) throw new Error('dispatch-pgboss: --url postgres://… is required');
const capS = Number(a.get('cap-s') ?? 180);
const settings = {
  batchSize: 512,
  localConcurrency: 2,
  pollingIntervalSeconds: 0.5,
  burstWhenBatchFull: true,
};

const schema = `bench_pgboss_${randomBytes(5).toString('hex')}`;
const boss = new PgBoss({ connectionString: url, schema, max: 8 });
boss.on('error', (err) => console.error(`bench: pg-boss error: ${String(err)}`));
await boss.start();
const name = `spike-${n}`;
await boss.createQueue(name);

// Pilot: how fast does insert go here? (so that all N are in before the spike)
const pilotName = `${name}-pilot`;
await boss.createQueue(pilotName);
const pilotN = Math.min(n, 10_000);
const t = Date.now();
await boss.insert(
  pilotName,
  Array.from({ length: pilotN }, (_, i) => ({
    data: { due: 0, i },
    startAfter: new Date(Date.now() + 86_400_000),
  })),
);
const insertRate = pilotN / Math.max(1, Date.now() - t); // jobs per ms
await boss.deleteQueue(pilotName);

const due = Date.now() + Math.ceil((n / insertRate) * 1.5) + 3000;
for (let i = 0; i < n; i += 5000) {
  await boss.insert(
    name,
    Array.from({ length: Math.min(5000, n - i) }, (_, k) => {
      const at = due + ((i + k) % 1000);
      return { data: { due: at }, startAfter: new Date(at) };
    }),
  );
}
if (Date.now() > due - 500)
  console.error(`bench: pg-boss setup overran the spike instant by ${Date.now() - due} ms`);

const lateness = new Float64Array(n);
let recorded = 0;
let last = 0;
const sink = async (id: string) => ({ ok: true, callId: `C-${id}` });
const w = watch();
const admin = new pg.Client({ connectionString: url });
await admin.connect();
const server = await serverCpu(admin);
const cpu0 = process.cpuUsage();
await boss.work<{ due: number }>(name, settings, async (jobs) => {
  for (const job of jobs) {
    const now = Date.now();
    if (recorded < n) lateness[recorded++] = now - job.data.due;
    last = now;
    await sink(job.id);
  }
});
await new Promise<void>((resolve) => {
  const check = setInterval(() => {
    if (recorded >= n || Date.now() > due + capS * 1000) {
      clearInterval(check);
      resolve();
    }
  }, 5);
});
const { loopMaxMs, peakRssMiB } = w.stop();
const cpu = process.cpuUsage(cpu0);
const serverUs = server.usPer(recorded);
await boss.offWork(name);
await boss.stop({ graceful: false });
const sorted = lateness.slice(0, recorded).sort();
let early = 0;
for (const l of sorted) if (l < 0) early++;
const drainS = (last - due) / 1000;
printResult({
  system: 'pg-boss',
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
  settings,
});
await admin.query(`DROP SCHEMA ${schema} CASCADE`);
await admin.end();
process.exit(0);
