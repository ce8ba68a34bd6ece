/**
 * Cold start on an idle database: spawn the production entry, time it to the first 200 of
 * `GET /readyz` (wall clock, and the server's CPU time until then), stop it, repeat.
 *
 * The first start creates and migrates the database and is not counted; the others open it
 * as a restart does. Not part of `npm test` (it measures, asserts nothing).
 *
 * Usage: node --import tsx test/load/cold-start.ts [--runs 9] [--entry bundle|dist|tsx] [--cpu-prof DIR]
 * Prints `RESULT {json}` with p50 and max of both figures.
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDist, cpuMs, freePort, spawnServer, type ServerEntry } from './process.js';

const argv = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const runs = Number(arg('runs') ?? 9);
const entry = (arg('entry') ?? 'bundle') as ServerEntry;
const profDir = arg('cpu-prof');

const dir = mkdtempSync(join(tmpdir(), 'wakeup-cold-'));
const env = { WAKEUP_DB: join(dir, 'wakeup.sqlite'), WAKEUP_LOG_LEVEL: 'warn', WAKEUP_LOG_PRETTY: '0' };
if (entry !== 'tsx') buildDist();
const port = await freePort();
const ready: number[] = [];
const cpu: number[] = [];
try {
  for (let i = 0; i <= runs; i++) {
    const nodeArgs = profDir && i > 0 ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [];
    const server = spawnServer({ port, env, entry, nodeArgs });
    const ms = await server.waitReady(60_000);
    const used = cpuMs(server.pid);
    await server.stop();
    if (i === 0) continue; // created and migrated the database
    ready.push(Math.round(ms));
    if (used !== null) cpu.push(used);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? null;
const result = {
  entry,
  runs,
  load_average: Math.round(loadavg()[0]! * 10) / 10,
  ready_p50_ms: p50(ready),
  ready_max_ms: Math.max(...ready),
  cpu_p50_ms: p50(cpu),
  cpu_max_ms: cpu.length ? Math.max(...cpu) : null,
};
process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
