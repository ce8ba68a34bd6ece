/**
 * Add and cancel cost of the engine's timer wheel with N timers pending (spread over the
 * next 24 hours), in steady state, and the RSS of N pending. Run in its own process by
 * bench/run.ts.
 *
 * Usage: node --expose-gc --import tsx bench/wheel-ops.ts --n 1000000
 * @module
 */
import { TimerWheel } from '../engine/internals.js';
import { args, printResult, r2 } from './measure.js';

const n = Number(args().get('n') ?? 100_000);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
gc();
const rss0 = process.memoryUsage.rss();
const now = Date.now();
const wheel = new TimerWheel<string>(now);
// Deterministic spread (no Math.random: reproducible figures).
let x = 12345;
const rand = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
const ids = Array.from({ length: n }, (_, i) => `occ-${i.toString(16).padStart(12, '0')}`);
for (let i = 0; i < n; i++) wheel.add(now + 1 + Math.floor(rand() * 86_400_000), ids[i]!);
gc();
const rssPending = (process.memoryUsage.rss() - rss0) / 1048576;
const ops = 100_000;
// Steady state: one round of adds and cancels first, so that the arrays have grown and the
// free list is warm (growth is amortised O(1) but would land in the first measured round).
{
  const warm = Array.from({ length: ops }, () =>
    wheel.add(now + 1 + Math.floor(rand() * 86_400_000), 'warm'),
  );
  for (const h of warm) wheel.cancel(h);
}
const extra = Array.from({ length: ops }, (_, i) => `new-${i}`);
const ats = Array.from({ length: ops }, () => now + 1 + Math.floor(rand() * 86_400_000));
const timers = new Array<number>(ops);
let t0 = process.hrtime.bigint();
for (let i = 0; i < ops; i++) timers[i] = wheel.add(ats[i]!, extra[i]!);
const addNs = Number(process.hrtime.bigint() - t0) / ops;
t0 = process.hrtime.bigint();
for (let i = 0; i < ops; i++) wheel.cancel(timers[i]!);
const cancelNs = Number(process.hrtime.bigint() - t0) / ops;
printResult({
  system: 'engine',
  workload: 'wheel_add_cancel',
  n,
  dispatches_per_s: null,
  lateness_p50_ms: null,
  lateness_p99_ms: null,
  lateness_max_ms: null,
  early_fires: null,
  loop_max_delay_ms: null,
  peak_rss_mib: r2(process.memoryUsage.rss() / 1048576),
  add_ns_per_op: r2(addNs),
  cancel_ns_per_op: r2(cancelNs),
  pending_rss_mib: r2(rssPending),
  size: wheel.size,
});
