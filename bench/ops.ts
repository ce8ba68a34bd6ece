/**
 * The operator's endpoints with a million occurrences: fills a database with
 * a year of finished wake-up calls (each with its first attempt: placed, some late, rung,
 * answered or missed or failed) plus tomorrow's pending spike, starts the real server on it and
 * times each GET /api/v1/ops/… operation over HTTP (median and worst of `--runs`). Prints
 * numbers, asserts nothing; not part of `npm test`.
 *
 *   npm run bench:ops                        # SQLite, 1,000,000 occurrences
 *   npm run bench:ops -- --n 200000 --runs 10
 *   WAKEUP_TEST_DB=postgres scripts/with-pg.sh npm run bench:ops   # PostgreSQL
 *
 * Filling takes minutes of CPU (the engine store's commits, 10,000 rows each): run it on a
 * quiet machine and quote the machine with the figures.
 * @module
 */
import { performance } from 'node:perf_hooks';
import type { AttemptRecord, OccurrenceRecord } from '../engine/index.js';
import { createEngineStore } from '../host/db/engine-store.js';
import { migrate } from '../host/db/migrate.js';
import { openDatabase } from '../host/db/open.js';
import { pendingOccurrence } from '../test/load/seed.js';
import { signIn, startTestServer } from '../test/helpers/server.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const N = arg('n', 1_000_000);
const RUNS = arg('runs', 20);
const NOW = Date.parse('2027-05-04T12:00:00Z');
const DAY = 86_400_000;
const OPERATOR = 'bench-ops@example.com';

/** Occurrence i of the year: a sleeper's call at 06:00 to 08:00 UTC on one of 365 days, finished. */
function finished(i: number): { occurrence: OccurrenceRecord; attempt: AttemptRecord } {
  const day = i % 365;
  const at = NOW - day * DAY - 6 * 3_600_000 + Math.floor((i * 7919) % 7200) * 1000;
  const id = `bench-occ-${i}`;
  const accountId = `bench-acct-${i % 50_000}`;
  const to = `+1201${String(5_000_000 + (i % 50_000)).padStart(7, '0')}`;
  const late = (i * 31) % 40_000; // up to 40 s late
  const outcome = i % 20 === 0 ? 'failed' : i % 7 === 0 ? 'missed' : 'confirmed';
  const requestedAt = at + late;
  const rang = outcome !== 'failed';
  const occurrence: OccurrenceRecord = {
    ...pendingOccurrence({ id, accountId, to, at, now: at - DAY }),
    status: outcome,
    outcomeReason:
      outcome === 'failed' ? 'provider_error' : outcome === 'missed' ? 'no_answer' : 'confirmed',
    attemptCount: 1,
    nextDueAt: null,
    dispatchedAt: requestedAt,
    confirmedAt: outcome === 'confirmed' ? requestedAt + 20_000 : null,
    finishedAt: requestedAt + 40_000,
    updatedAt: requestedAt + 40_000,
  };
  const attempt: AttemptRecord = {
    id: `bench-att-${i}`,
    occurrenceId: id,
    accountId,
    phoneNumberId: null,
    kind: 'first',
    n: 1,
    status: outcome === 'failed' ? 'failed' : outcome === 'missed' ? 'no_answer' : 'confirmed',
    to,
    dueAt: at,
    createdAt: requestedAt,
    requestedAt,
    ringingAt: rang ? requestedAt + 1500 : null,
    answeredAt: outcome === 'confirmed' ? requestedAt + 8000 : null,
    endedAt: requestedAt + 30_000,
    answeredBy: outcome === 'confirmed' ? 'person' : null,
    digits: outcome === 'confirmed' ? '1' : null,
    durationSeconds: outcome === 'confirmed' ? 5 + (i % 30) : null,
    errorCode: outcome === 'failed' ? 'provider_refused' : null,
    providerCallId: `CA${i}`,
    idempotencyKey: `bench-att-${i}`,
    ringTimeoutSeconds: 45,
    deadlineAt: null,
    script: null,
    updatedAt: requestedAt + 30_000,
    version: 1,
  };
  return { occurrence, attempt };
}

async function fill(dbUrl: string): Promise<void> {
  const db = await openDatabase(dbUrl);
  await migrate(db);
  const store = createEngineStore(db);
  const started = performance.now();
  const pendingN = Math.min(20_000, Math.floor(N / 50));
  for (let i = 0; i < N - pendingN; i += 10_000) {
    const rows = Array.from({ length: Math.min(10_000, N - pendingN - i) }, (_, k) =>
      finished(i + k),
    );
    await store.commit({
      occurrences: rows.map((r) => ({ record: r.occurrence, expectedVersion: null })),
      attempts: rows.map((r) => ({ record: r.attempt, expectedVersion: null })),
      series: [],
    });
    if ((i / 10_000) % 10 === 0) process.stdout.write(`\r  ${i + rows.length} finished calls`);
  }
  // Tomorrow's spike: pending calls at 07:00 and around it.
  const pending = Array.from({ length: pendingN }, (_, k) =>
    pendingOccurrence({
      id: `bench-next-${k}`,
      accountId: `bench-acct-${k % 50_000}`,
      to: `+1202${String(5_000_000 + k).padStart(7, '0')}`,
      at: NOW + 19 * 3_600_000 + (k % 3 === 0 ? 0 : (k % 120) * 30_000),
      now: NOW,
    }),
  );
  for (let i = 0; i < pending.length; i += 10_000) {
    await store.commit({
      occurrences: pending
        .slice(i, i + 10_000)
        .map((record) => ({ record, expectedVersion: null })),
      attempts: [],
      series: [],
    });
  }
  await store.settle?.();
  console.log(
    `\r  filled ${N} occurrences (${pendingN} pending) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  await db.close();
}

async function main(): Promise<void> {
  const pgUrl =
    process.env['WAKEUP_TEST_DB'] === 'postgres' ? process.env['WAKEUP_TEST_PG_URL'] : undefined;
  const dir = (await import('node:fs')).mkdtempSync(
    `${(await import('node:os')).tmpdir()}/bench-ops-`,
  );
  const dbUrl = pgUrl ?? `${dir}/bench.sqlite`;
  console.log(`bench:ops: ${N} occurrences on ${pgUrl ? 'PostgreSQL' : 'SQLite'}`);
  if (!pgUrl) await fill(dbUrl);
  const server = await startTestServer({
    env: {
      WAKEUP_CLOCK_START: '2027-05-04T12:00:00Z',
      WAKEUP_OPERATOR_EMAILS: OPERATOR,
      WAKEUP_CALLS_PER_SECOND: '10',
      ...(pgUrl ? {} : { WAKEUP_DB: dbUrl }),
    },
  });
  try {
    if (pgUrl) await fill(server.dbFile);
    const { token } = await signIn(server, OPERATOR);
    const paths = [
      '/ops/forecast',
      '/ops/lateness',
      '/ops/lateness?from=2027-05-02T12:00:00Z&to=2027-05-04T12:00:00Z',
      '/ops/outcomes',
      '/ops/outcomes?from=2027-04-27T12:00:00Z&to=2027-05-04T12:00:00Z',
      '/ops/health',
      '/ops/audit',
      '/ops/calls?q=%2B12015000042',
    ];
    for (const path of paths) {
      const times: number[] = [];
      let status = 0;
      for (let r = 0; r < RUNS + 1; r++) {
        const t = performance.now();
        const res = await fetch(`${server.api}${path}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        await res.arrayBuffer();
        status = res.status;
        if (r > 0) times.push(performance.now() - t); // the first run warms the statement cache
      }
      times.sort((a, b) => a - b);
      console.log(
        `  GET ${path.padEnd(70)} ${status}  median ${times[Math.floor(times.length / 2)]!.toFixed(1).padStart(7)} ms  worst ${times[times.length - 1]!.toFixed(1).padStart(7)} ms`,
      );
    }
  } finally {
    await server.close();
  }
}

await main();
