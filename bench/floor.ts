/**
 * The database's floor on this machine (issue 26), run in its own process by bench/run.ts: what
 * N dispatches cost when nothing but the bytes of a dispatch is written, in 1,000-row
 * transactions, so each engine cell can be read as a share of it.
 * - `floor`: per dispatch one narrow row updated (the occurrence's state) and one inserted (the
 *   attempt's intent), the loop docs/performance/spike-profile.md quotes;
 * - `floor-append`: per dispatch one narrow row appended with a multi-row INSERT, nothing else.
 * SQLite (WAL, synchronous NORMAL, as the service opens it) on a temp file, or PostgreSQL with
 * `--url` (one statement per batch and table: `unnest`). Prints RESULT lines with
 * `dispatches_per_s` and `cpu_us_per_dispatch` (of this process; on PostgreSQL add the server's,
 * printed as `server_cpu_us_per_dispatch` when /proc shows it).
 *
 * Usage: node --import tsx bench/floor.ts --n 100000 [--url postgres://…]
 * @module
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteDatabase } from '../host/db/open.js';
import { loadPg } from '../host/db/sql.js';
import { args, printResult, r2, serverCpu } from './measure.js';

const opt = args();
const n = Number(opt.get('n') ?? 100_000);
const url = opt.get('url');
const BATCH = 1000;
let seq = 0;
/** Time-ordered ids, as the engine cell uses. */
const tid = () =>
  `${(Date.now() * 1000 + (seq++ % 1000)).toString(16).padStart(16, '0')}-${randomUUID().slice(19)}`;
const occurrences = Array.from({ length: n }, tid);
const attempts = Array.from({ length: n }, tid);

function report(
  system: string,
  ms: number,
  cpu: NodeJS.CpuUsage,
  extra: Record<string, unknown> = {},
): void {
  printResult({
    system,
    workload: 'floor',
    n,
    dispatches_per_s: Math.round(n / (ms / 1000)),
    lateness_p50_ms: null,
    lateness_p99_ms: null,
    lateness_max_ms: null,
    early_fires: null,
    loop_max_delay_ms: null,
    peak_rss_mib: null,
    cpu_us_per_dispatch: r2((cpu.user + cpu.system) / n),
    ...extra,
  });
}

async function timed(
  fn: () => Promise<void> | void,
): Promise<{ ms: number; cpu: NodeJS.CpuUsage }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  return { ms: performance.now() - t0, cpu: process.cpuUsage(cpu0) };
}

async function sqlite(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'wakeup-floor-'));
  try {
    const db = openSqliteDatabase(join(dir, 'floor.sqlite')).raw;
    db.exec(`CREATE TABLE o (id TEXT PRIMARY KEY, status INTEGER NOT NULL, live TEXT) STRICT;
             CREATE TABLE a (id TEXT PRIMARY KEY, occurrence_id TEXT NOT NULL, at INTEGER NOT NULL) STRICT;
             CREATE TABLE j (seq INTEGER PRIMARY KEY, ref TEXT NOT NULL, at INTEGER NOT NULL) STRICT;`);
    const seed = db.prepare('INSERT INTO o (id, status) VALUES (?, 0)');
    db.transaction(() => {
      for (const id of occurrences) seed.run(id);
    })();
    const update = db.prepare('UPDATE o SET status = 1, live = ? WHERE id = ?');
    const insert = db.prepare('INSERT INTO a (id, occurrence_id, at) VALUES (?, ?, ?)');
    const dispatch = db.transaction((from: number) => {
      for (let i = from; i < Math.min(n, from + BATCH); i++) {
        update.run(attempts[i], occurrences[i]);
        insert.run(attempts[i], occurrences[i], i);
      }
    });
    const t = await timed(() => {
      for (let i = 0; i < n; i += BATCH) dispatch(i);
    });
    report('floor', t.ms, t.cpu, { database: 'sqlite' });

    const append = db.prepare(
      `INSERT INTO j (ref, at) VALUES ${Array.from({ length: BATCH }, () => '(?, ?)').join(', ')}`,
    );
    const one = db.prepare('INSERT INTO j (ref, at) VALUES (?, ?)');
    const appendBatch = db.transaction((from: number) => {
      const to = Math.min(n, from + BATCH);
      if (to - from === BATCH) {
        const params: unknown[] = [];
        for (let i = from; i < to; i++) params.push(attempts[i], i);
        append.run(params);
      } else for (let i = from; i < to; i++) one.run(attempts[i], i);
    });
    const u = await timed(() => {
      for (let i = 0; i < n; i += BATCH) appendBatch(i);
    });
    report('floor-append', u.ms, u.cpu, { database: 'sqlite' });
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgres(connectionString: string): Promise<void> {
  const pg = loadPg();
  const client = new pg.Client({ connectionString });
  await client.connect();
  const schema = `floor_${process.pid}`;
  try {
    await client.query(`CREATE SCHEMA ${schema}; SET search_path = ${schema};
      CREATE TABLE o (id text PRIMARY KEY, status int NOT NULL, live text);
      CREATE TABLE a (id text PRIMARY KEY, occurrence_id text NOT NULL, at bigint NOT NULL);
      CREATE TABLE j (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, ref text NOT NULL, at bigint NOT NULL);`);
    await client.query('INSERT INTO o (id, status) SELECT unnest($1::text[]), 0', [occurrences]);
    let server = await serverCpu(client);
    const t = await timed(async () => {
      for (let i = 0; i < n; i += BATCH) {
        const occ = occurrences.slice(i, i + BATCH);
        const att = attempts.slice(i, i + BATCH);
        await client.query('BEGIN');
        await client.query(
          'UPDATE o SET status = 1, live = v.live FROM unnest($1::text[], $2::text[]) AS v(id, live) WHERE o.id = v.id',
          [occ, att],
        );
        await client.query(
          'INSERT INTO a (id, occurrence_id, at) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])',
          [att, occ, att.map((_, k) => i + k)],
        );
        await client.query('COMMIT');
      }
    });
    report('floor-pg', t.ms, t.cpu, {
      database: 'postgres',
      server_cpu_us_per_dispatch: server.usPer(n),
    });
    server = await serverCpu(client);
    const u = await timed(async () => {
      for (let i = 0; i < n; i += BATCH) {
        const att = attempts.slice(i, i + BATCH);
        await client.query(
          'INSERT INTO j (ref, at) SELECT * FROM unnest($1::text[], $2::bigint[])',
          [att, att.map((_, k) => i + k)],
        );
      }
    });
    report('floor-pg-append', u.ms, u.cpu, {
      database: 'postgres',
      server_cpu_us_per_dispatch: server.usPer(n),
    });
  } finally {
    await client.query(`DROP SCHEMA ${schema} CASCADE`).catch(() => undefined);
    await client.end();
  }
}

if (url) await postgres(url);
else await sqlite();
process.exit(0);
