/**
 * Heap bytes per pending row of the SQLite store's overlay (docs/decisions/0028, step 3; issue
 * 40's target is at most 100 at 1M): N occurrences with journal rows not folded yet, due
 * within one second, with no cached image (the image cache is bounded by count,
 * `imageCacheRows`, whatever N). Each row has its own account by default, as in the spike
 * (`--accounts K` shares K among them). Measured after two full garbage collections.
 *
 * Usage: node --expose-gc --import tsx bench/overlay-memory.ts [--n 1000000] [--accounts 1000]
 * @module
 */
import { Overlay } from '../engine/sqlite/overlay.js';
import { args, printResult, r2 } from './measure.js';

const opt = args();
const n = Number(opt.get('n') ?? 1_000_000);
const k = Number(opt.get('accounts') ?? n);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('bench/overlay-memory.ts: run with node --expose-gc');
const T0 = Date.UTC(2027, 2, 15, 7);
const ids = Array.from(
  { length: n },
  (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
);
const accounts = Array.from({ length: k }, (_, i) => `acct-${i}`);
gc();
gc();
const before = process.memoryUsage().heapUsed;
const overlay = new Overlay(0);
const started = performance.now();
for (let i = 0; i < n; i++)
  overlay.add(1, ids[i]!, i + 1, 1, T0 + (i % 1000), accounts[i % k]!, null);
const addUs = ((performance.now() - started) * 1000) / n;
gc();
gc();
const bytes = (process.memoryUsage().heapUsed - before) / n;
printResult({
  system: 'engine',
  workload: 'overlay_memory',
  n,
  dispatches_per_s: null,
  lateness_p50_ms: null,
  lateness_p99_ms: null,
  lateness_max_ms: null,
  early_fires: null,
  loop_max_delay_ms: null,
  peak_rss_mib: null,
  bytes_per_pending_row: r2(bytes),
  add_us_per_row: r2(addUs),
  pending: overlay.size,
  accounts: k,
});
