/**
 * The yardstick of the end-to-end cell: CPU µs per request of the bare Koa handler
 * (bench/http-bare.ts, the one `npm run bench:http` compares the service with), in its own
 * process under autocannon, measured from /proc like the hosts. A call's host CPU divided by it
 * says how many trivial requests' worth of work one wake-up call costs on this machine now.
 * @module
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { cpuMs, readLine } from '../test/load/process.js';

/** What {@link measureBareKoa} found. */
export interface BareKoa {
  cpuUsPerRequest: number;
  requestsPerS: number;
  requests: number;
}

const ENTRY = fileURLToPath(new URL('./http-bare.ts', import.meta.url));

/** Starts bench/http-bare.ts, warms it for 2 s, then loads it for `seconds` with `connections` and reads its CPU before and after. */
export async function measureBareKoa(seconds = 5, connections = 20): Promise<BareKoa> {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = (await readLine(child, (line) => line.startsWith('LISTENING '), 30_000)).slice(
      'LISTENING '.length,
    );
    await autocannon({ url, connections, duration: 2 });
    const pid = child.pid!;
    const before = cpuMs(pid);
    const r = await autocannon({ url, connections, duration: seconds });
    const after = cpuMs(pid);
    if (before === null || after === null) throw new Error('bare Koa: no CPU reading from /proc');
    return {
      cpuUsPerRequest: ((after - before) * 1000) / Math.max(1, r.requests.total),
      requestsPerS: r.requests.average,
      requests: r.requests.total,
    };
  } finally {
    const gone = new Promise<void>((resolve) =>
      child.exitCode !== null ? resolve() : child.once('exit', () => resolve()),
    );
    child.kill('SIGTERM');
    await gone;
  }
}
