/**
 * Shared measuring helpers of the dispatch benchmark: percentiles, the event-loop delay
 * monitor, RSS sampling and the RESULT line format.
 * @module
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parentOf, postmasterCpuMs } from '../test/load/cpu.js';

/** One measured cell, printed as `RESULT {json}` for scripts and CI graphs. */
export interface Result {
  system: string;
  workload: string;
  n: number;
  dispatches_per_s: number | null;
  lateness_p50_ms: number | null;
  lateness_p99_ms: number | null;
  lateness_max_ms: number | null;
  early_fires: number | null;
  loop_max_delay_ms: number | null;
  peak_rss_mib: number | null;
  [extra: string]: unknown;
}

/** Prints the cell as one `RESULT {json}` line. */
export function printResult(r: Result): void {
  console.log(`RESULT ${JSON.stringify(r)}`);
}

/** The p-th percentile (0..100) of `sorted` (ascending). */
export function percentile(sorted: Float64Array | number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

/** Watches the event loop (1 ms resolution) and RSS (every 20 ms) between start() and stop(). */
export function watch(): { stop(): { loopMaxMs: number; peakRssMiB: number } } {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  let peak = process.memoryUsage.rss();
  const t = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  return {
    stop() {
      h.disable();
      clearInterval(t);
      peak = Math.max(peak, process.memoryUsage.rss());
      // The histogram includes the 1 ms resolution itself.
      return { loopMaxMs: Math.max(0, h.max / 1e6 - 1), peakRssMiB: peak / 1048576 };
    },
  };
}

/**
 * The PostgreSQL server's CPU from now on: the postmaster of the backend serving `db` and all
 * its backends, read from /proc (test/load/cpu.ts). `usPer(count)` is µs of server CPU per item
 * since the call, or null when the server is not a process of this machine.
 *
 * On a machine where the cell and the server share the cores, the cell's CPU plus this is what
 * one dispatch costs the machine, and the cores over that sum bound the rate.
 */
export async function serverCpu(db: {
  query(text: string): Promise<{ rows: Array<Record<string, unknown>> }>;
}): Promise<{ usPer(count: number): number | null }> {
  const { rows } = await db.query('SELECT pg_backend_pid() AS pid');
  const postmaster = parentOf(Number(rows[0]!['pid']));
  const start = postmaster === null ? null : postmasterCpuMs(postmaster);
  return {
    usPer(count) {
      const end = start === null ? null : postmasterCpuMs(postmaster!);
      return start === null || end === null
        ? null
        : r2(((end - start) * 1000) / Math.max(count, 1));
    },
  };
}

/** Rounds for display. */
export function r2(x: number): number {
  return Math.round(x * 100) / 100;
}

/** Parses `--key value` pairs. */
export function args(argv = process.argv.slice(2)): Map<string, string> {
  const m = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--')) {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('--')) {
        m.set(a.slice(2), next);
        i++;
      } else m.set(a.slice(2), 'true');
    }
  }
  return m;
}

/**
 * How far ahead to put a spike's instant before moving its N rows there with one UPDATE (about
 * 20 µs a row on the 2-core machine, 35 s at 1M) and starting the runtime: the cells print
 * `started_vs_due_ms` when it was not enough, and count their rate from the start then.
 */
export function spikeLeadMs(n: number): number {
  return 2000 + Math.ceil(n / 25);
}
