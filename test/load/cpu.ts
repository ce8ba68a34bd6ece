/**
 * CPU time of the processes of a load run, read from /proc (Linux): the hosts, sampled while
 * they run so that a killed host's last reading is kept ({@link HostCpu}), and the PostgreSQL
 * server ({@link postgresCpuMs}). Per call, these are what a run costs beside what it achieves.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuMs } from './process.js';

/** Clock ticks (10 ms) of /proc/<pid>/stat: utime, stime, cutime, cstime. */
function ticks(pid: number): number[] | null {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const x = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return [Number(x[11]), Number(x[12]), Number(x[13]), Number(x[14])];
  } catch {
    return null;
  }
}

/**
 * CPU ms of the PostgreSQL server whose folder is `dir` (scripts/pg-test-server.sh's
 * WAKEUP_TEST_PG_DIR): the postmaster with its reaped backends, plus the live ones. Null
 * without a folder, or when its postmaster cannot be read.
 */
export function postgresCpuMs(dir: string | undefined | null): number | null {
  if (!dir) return null;
  let postmaster: number;
  try {
    postmaster = Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
  const own = ticks(postmaster);
  if (!own) return null;
  let total = own[0]! + own[1]! + own[2]! + own[3]!;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const f = readFileSync(`/proc/${name}/stat`, 'utf8');
      const x = f.slice(f.lastIndexOf(')') + 2).split(' ');
      if (Number(x[1]) === postmaster) total += Number(x[11]) + Number(x[12]);
    } catch {
      // gone meanwhile: its time is in the postmaster's cutime now
    }
  }
  return total * 10;
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
