/**
 * Cold start on an idle database: spawn the production entry, time it to the first 200 of
 * `GET /readyz` (wall clock, and the server's CPU time until then), stop it, repeat.
 *
 * The first start creates and migrates the database and is not counted; the others open it
 * as a restart does. Not part of `npm test` (it measures, asserts nothing).
 *
 * With `--pending N` the database holds N wake-up calls due tomorrow (N accounts, each with a
 * verified number: test/load/seed.ts), seeded after the first start; with `--journal M`, M more
 * whose rows are still in the engine's dispatch journal, unfolded (docs/decisions/0016: what a
 * kill -9 during a spike leaves), which the restarted store restores before it serves. Each run
 * leaves the journal as it found it only if the server had no time to fold it: the runs after
 * the first may find it folded (the result says how many rows each start found).
 *
 * Usage: node --import tsx test/load/cold-start.ts [--runs 9] [--entry bundle|dist|tsx] [--cpu-prof DIR] [--pending N] [--journal M]
 * Prints `RESULT {json}` with p50 and max of both figures.
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { createSqliteStore } from '../../engine/sqlite/index.js';
import { openDatabase } from '../../host/db/open.js';
import type { SqliteDb } from '../../host/db/sql.js';
import { buildDist, cpuMs, freePort, spawnServer, type ServerEntry } from './process.js';
import { pendingOccurrence, seedDueCalls } from './seed.js';

const argv = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const runs = Number(arg('runs') ?? 9);
const entry = (arg('entry') ?? 'bundle') as ServerEntry;
const profDir = arg('cpu-prof');
const pending = Number(arg('pending') ?? 0);
const journal = Number(arg('journal') ?? 0);

const dir = mkdtempSync(join(tmpdir(), 'wakeup-cold-'));
const env = {
  WAKEUP_DB: join(dir, 'wakeup.sqlite'),
  WAKEUP_LOG_LEVEL: 'warn',
  WAKEUP_LOG_PRETTY: '0',
};
if (entry !== 'tsx') buildDist();
const port = await freePort();
const ready: number[] = [];
const cpu: number[] = [];
const journalRows: number[] = [];

/** Seeds `pending` calls due tomorrow, and `journal` more left in the engine's journal. */
async function seed(file: string): Promise<void> {
  if (pending + journal === 0) return;
  const db = await openDatabase(file);
  try {
    const dueAt = Date.now() + 86_400_000;
    for (let batch = 0, left = pending; left > 0; batch++, left -= 100_000) {
      await seedDueCalls(db, { n: Math.min(100_000, left), dueAt, now: Date.now(), batch });
    }
    if (journal > 0) {
      const store = createSqliteStore((db as SqliteDb).raw, { fold: false });
      for (let i = 0; i < journal; i += 10_000) {
        const rows = Array.from({ length: Math.min(10_000, journal - i) }, (_, k) =>
          pendingOccurrence({
            id: `journal-${i + k}`,
            accountId: `journal-acct-${(i + k) % 1000}`,
            to: '+12125550100',
            at: dueAt,
            now: Date.now(),
          }),
        );
        await store.commit({
          occurrences: rows.map((record) => ({ record, expectedVersion: null })),
          attempts: [],
          series: [],
        });
      }
      await store.close(); // the journal stays unfolded, as a kill leaves it
    }
  } finally {
    await db.close();
  }
}

function countJournal(file: string): number {
  const db = new Sqlite(file, { readonly: true });
  try {
    return (
      db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'engine_journal'").get() as {
        n: number;
      }
    ).n === 0
      ? 0
      : (db.prepare('SELECT COUNT(*) AS n FROM engine_journal').get() as { n: number }).n;
  } finally {
    db.close();
  }
}
try {
  for (let i = 0; i <= runs; i++) {
    const nodeArgs = profDir && i > 0 ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [];
    if (i > 0) journalRows.push(countJournal(env.WAKEUP_DB));
    const server = spawnServer({ port, env, entry, nodeArgs });
    const ms = await server.waitReady(60_000);
    const used = cpuMs(server.pid);
    await server.stop();
    if (i === 0) {
      // created and migrated the database; now the calls waiting in it
      await seed(env.WAKEUP_DB);
      continue;
    }
    ready.push(Math.round(ms));
    if (used !== null) cpu.push(used);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const p50 = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? null;
const result = {
  entry,
  runs,
  load_average: Math.round(loadavg()[0]! * 10) / 10,
  ready_p50_ms: p50(ready),
  ready_max_ms: Math.max(...ready),
  cpu_p50_ms: p50(cpu),
  cpu_max_ms: cpu.length ? Math.max(...cpu) : null,
  pending,
  journal_rows_at_each_start: journalRows,
};
process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
