/**
 * One BullMQ cell of the 07:00 spike, run in its own process by bench/run.ts against a
 * Redis on loopback (persistence off): N delayed jobs due within the same second, one
 * Worker (concurrency 500) whose processor calls the same instant-answer sink. The dispatch
 * instant is when the processor starts (the job is then active and locked in Redis). Also
 * add/cancel cost (delayed add, then remove) with N delayed jobs pending.
 *
 * Usage: node --import tsx bench/dispatch-bullmq.ts --n 100000 --port 6379 [--cap-s 180]
 * @module
 */
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { args, percentile, printResult, r2, watch } from './measure.js';

const a = args();
const n = Number(a.get('n') ?? 10_000);
const port = Number(a.get('port'));
const capS = Number(a.get('cap-s') ?? 180);
// BullMQ 6 takes a constructed client under ESM; one per Queue/Worker (a worker blocks on its own).
const connect = () => new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: null });
const connection = connect();
const name = `spike-${n}`;

const queue = new Queue(name, { connection });
await queue.obliterate({ force: true });

// Pilot: how fast does addBulk go here? (so that all N are in before the spike)
const pilot = new Queue(`${name}-pilot`, { connection: connect() });
const pilotN = Math.min(n, 10_000);
const t = Date.now();
await pilot.addBulk(
  Array.from({ length: pilotN }, (_, i) => ({
    name: 'call',
    data: { due: 0, i },
    opts: { delay: 86_400_000 },
  })),
);
const addRate = pilotN / Math.max(1, Date.now() - t); // jobs per ms
await pilot.obliterate({ force: true });
await pilot.close();

const due = Date.now() + Math.ceil((n / addRate) * 1.5) + 3000;
for (let i = 0; i < n; i += 5000) {
  const now = Date.now();
  await queue.addBulk(
    Array.from({ length: Math.min(5000, n - i) }, (_, k) => {
      const at = due + ((i + k) % 1000);
      return {
        name: 'call',
        data: { due: at },
        opts: { delay: at - now, removeOnComplete: true, removeOnFail: true },
      };
    }),
  );
}
if (Date.now() > due - 500)
  console.error(`bench: bullmq setup overran the spike instant by ${Date.now() - due} ms`);

// Add and cancel cost with N delayed jobs pending.
{
  const ops = 2000;
  const t0 = performance.now();
  const jobs = [];
  for (let i = 0; i < ops; i++)
    jobs.push(await queue.add('x', { due: 0 }, { delay: 86_400_000 + i }));
  const t1 = performance.now();
  for (const j of jobs) await j.remove();
  const t2 = performance.now();
  printResult({
    system: 'bullmq',
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

const lateness = new Float64Array(n);
let recorded = 0;
let last = 0;
const sink = async (id: string) => ({ ok: true, callId: `C-${id}` });
const w = watch();
const worker = new Worker(
  name,
  async (job) => {
    const now = Date.now();
    if (recorded < n) lateness[recorded++] = now - (job.data as { due: number }).due;
    last = now;
    await sink(job.id!);
  },
  {
    connection: connect(),
    concurrency: 500,
    removeOnComplete: { count: 0 },
    removeOnFail: { count: 0 },
  },
);
await new Promise<void>((resolve) => {
  const check = setInterval(() => {
    if (recorded >= n || Date.now() > due + capS * 1000) {
      clearInterval(check);
      resolve();
    }
  }, 5);
});
const { loopMaxMs, peakRssMiB } = w.stop();
await worker.close(true);
const sorted = lateness.slice(0, recorded).sort();
let early = 0;
for (const l of sorted) if (l < 0) early++;
const drainS = (last - due) / 1000;
printResult({
  system: 'bullmq',
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
  drain_s: r2(drainS),
  complete: recorded >= n,
});
await queue.obliterate({ force: true });
await queue.close();
process.exit(0);
