/**
 * CPU time of the processes of a load run, read from /proc (Linux): the hosts, sampled while
 * they run so that a killed host's last reading is kept ({@link HostCpu}), and the PostgreSQL
 * server ({@link postgresCpuMs}). Per call, these are what a run costs beside what it achieves.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuMs } from './process.js';

/** The fields of /proc/<pid>/stat after the command's name (so [1] is the parent), or null when gone. */
function stat(pid: number): string[] | null {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return f.slice(f.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * CPU ms of the PostgreSQL server whose folder is `dir` (scripts/pg-test-server.sh's
 * WAKEUP_TEST_PG_DIR); see {@link postmasterCpuMs}. Null without a folder, or when its
 * postmaster cannot be read.
 */
export function postgresCpuMs(dir: string | undefined | null): number | null {
  if (!dir) return null;
  let postmaster: number;
  try {
    postmaster = Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
  return postmasterCpuMs(postmaster);
}

/**
 * CPU ms of the PostgreSQL server whose postmaster is `postmaster` (on this machine): the
 * postmaster with its reaped backends, plus the live ones. Null when it cannot be read.
 */
export function postmasterCpuMs(postmaster: number): number | null {
  const own = stat(postmaster);
  if (!own) return null;
  // utime, stime, cutime, cstime: the reaped backends' time is in the last two.
  let total = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const x = stat(Number(name)); // null: gone meanwhile, its time now in the postmaster's cutime
    if (x && Number(x[1]) === postmaster) total += Number(x[11]) + Number(x[12]);
  }
  return total * 10; // clock ticks of 10 ms
}

/** The parent of process `pid` (a backend's is its postmaster), or null when it cannot be read. */
export function parentOf(pid: number): number | null {
  const x = stat(pid);
  return x ? Number(x[1]) : null;
}

/** CPU ms of the hosts (each one's last reading, a killed host's too), sampled while they run. */
export class HostCpu {
  private readonly last = new Map<number, number>();
  private readonly start = new Map<number, number>();
  sample(hosts: readonly ({ pid: number } | null)[]): void {
    for (const h of hosts) {
      if (!h) continue;
      const ms = cpuMs(h.pid);
      if (ms === null) continue;
      if (!this.start.has(h.pid)) this.start.set(h.pid, ms);
      this.last.set(h.pid, ms);
    }
  }
  /** Marks the start of the measured span: CPU before it (start-up) is left out. */
  mark(hosts: readonly ({ pid: number } | null)[]): void {
    this.start.clear();
    this.sample(hosts);
  }
  total(): number {
    let t = 0;
    // A host spawned after the mark (the restart) counts from its spawn, start-up included.
    for (const [pid, ms] of this.last) t += ms - (this.start.get(pid) ?? 0);
    return t;
  }
}
