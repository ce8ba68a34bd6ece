/**
 * Prototypes of the spike's next storage shapes (docs/decisions/0028), each measured alone, in
 * its own process, beside the shape it would replace; the decision record quotes their figures.
 * Nothing here is the engine: each loop writes only the bytes the shape would write.
 *
 * SQLite (default):
 * - `images`: today's journal, per dispatch an occurrence image and an attempt image (JSON arrays
 *   of the tables' widths) for the intent, and the attempt's image again for the acceptance;
 * - `narrow`: the intent and the acceptance as typed rows of their changed fields only;
 * - `overlay-map` / `overlay-flat`: heap bytes per pending row of the in-memory overlay, today's
 *   Map of objects against flat typed arrays keyed by a row number (`--n` rows each).
 * PostgreSQL (`--url`):
 * - `pg-narrow`: claims from a narrow `occurrence_due` table
 *   (`UPDATE … FROM (SELECT … FOR UPDATE SKIP LOCKED LIMIT n) … RETURNING`), the intent and the
 *   acceptance appended to a typed journal with one `unnest` statement per batch, and the claimed
 *   rows' due keys cleared; `--inflight k` batches on k connections;
 * - `pg-fold`: the fold of that journal into wide occurrence and attempt tables, off the spike.
 *
 * Usage: node --import tsx bench/prototype-spike.ts --n 100000 [--url postgres://… --inflight 2]
 *        node --expose-gc --import tsx bench/prototype-spike.ts --n 1000000 --overlay
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
const inflight = Number(opt.get('inflight') ?? 1);
const BATCH = 512;
let seq = 0;
const tid = () =>
  `${(Date.now() * 1000 + (seq++ % 1000)).toString(16).padStart(16, '0')}-${randomUUID().slice(19)}`;
const occurrences = Array.from({ length: n }, tid);
const attempts = Array.from({ length: n }, tid);
const accounts = Array.from({ length: 1000 }, () => randomUUID());
const T0 = Date.parse('2027-01-04T07:00:00Z');

function report(system: string, t: { ms: number; cpu: NodeJS.CpuUsage }, extra = {}): void {
  printResult({
    system,
    workload: 'prototype',
    n,
    dispatches_per_s: Math.round(n / (t.ms / 1000)),
    lateness_p50_ms: null,
    lateness_p99_ms: null,
    lateness_max_ms: null,
    early_fires: null,
    loop_max_delay_ms: null,
    peak_rss_mib: null,
    cpu_us_per_dispatch: r2((t.cpu.user + t.cpu.system) / n),
    ...extra,
  });
}

async function timed(fn: () => Promise<void> | void) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  return { ms: performance.now() - t0, cpu: process.cpuUsage(cpu0) };
}

/** A row image as today's journal holds it: the table's columns in order (39 and 30 wide). */
function occurrenceImage(i: number, version: number): unknown[] {
  return [
    occurrences[i],
    accounts[i % 1000],
    null,
    '+14155550123',
    'Wake up',
    T0,
    T0,
    'America/New_York',
    '07:00',
    '2027-01-04',
    'later_offset',
    'calling',
    version,
    null,
    attempts[i],
    1,
    0,
    3,
    300,
    2,
    0,
    null,
    null,
    null,
    null,
    null,
    'en-US',
    'Good morning',
    null,
    null,
    null,
    null,
    0,
    T0 - 86_400_000,
    T0,
    null,
    null,
    null,
    null,
  ];
}
function attemptImage(i: number, version: number, callId: string | null): unknown[] {
  return [
    attempts[i],
    occurrences[i],
    accounts[i % 1000],
    'primary',
    1,
    '+14155550123',
    callId ? 'ringing' : 'requested',
    version,
    callId,
    null,
    T0,
    T0 + 60_000,
    null,
    null,
    null,
    null,
    null,
    null,
    0,
    null,
    null,
    null,
    null,
    null,
    `${attempts[i]}:place`,
    null,
    null,
    T0,
    T0,
    null,
  ];
}

function sqlite(): void {
  const dir = mkdtempSync(join(tmpdir(), 'wakeup-proto-'));
  try {
    const db = openSqliteDatabase(join(dir, 'p.sqlite')).raw;
    db.exec(`CREATE TABLE ji (seq INTEGER PRIMARY KEY, kind INTEGER NOT NULL, id TEXT NOT NULL,
               version INTEGER NOT NULL, due_at INTEGER, account_id TEXT, image TEXT NOT NULL) STRICT;
             CREATE TABLE jn (seq INTEGER PRIMARY KEY, kind INTEGER NOT NULL, id TEXT NOT NULL,
               version INTEGER NOT NULL, due_at INTEGER, ref TEXT, status INTEGER NOT NULL,
               at INTEGER NOT NULL) STRICT;`);
    const cols = 7;
    const multi = (table: string, width: number) =>
      db.prepare(
        `INSERT INTO ${table} (${table === 'ji' ? 'kind, id, version, due_at, account_id, image' : 'kind, id, version, due_at, ref, status, at'}) VALUES ${Array.from({ length: BATCH }, () => `(${Array(width).fill('?').join(', ')})`).join(', ')}`,
      );
    const ji = multi('ji', cols - 1);
    const jn = multi('jn', cols);
    const images = db.transaction((from: number, acceptance: boolean) => {
      const p: unknown[] = [];
      for (let i = from; i < from + BATCH; i++) {
        if (!acceptance) {
          p.push(
            1,
            occurrences[i],
            2,
            null,
            accounts[i % 1000],
            JSON.stringify(occurrenceImage(i, 2)),
          );
          p.push(
            2,
            attempts[i],
            1,
            T0 + 60_000,
            accounts[i % 1000],
            JSON.stringify(attemptImage(i, 1, null)),
          );
        } else {
          p.push(
            2,
            attempts[i],
            2,
            T0 + 60_000,
            accounts[i % 1000],
            JSON.stringify(attemptImage(i, 2, `CA${i}`)),
          );
        }
        if (p.length === BATCH * 6) {
          ji.run(p);
          p.length = 0;
        }
      }
      if (p.length) throw new Error('a partial batch');
    });
    const narrow = db.transaction((from: number, acceptance: boolean) => {
      const p: unknown[] = [];
      for (let i = from; i < from + BATCH; i++) {
        if (!acceptance) p.push(1, occurrences[i], 2, null, attempts[i], 1, T0);
        else p.push(2, attempts[i], 2, T0 + 60_000, `CA${i}`, 2, T0 + 5);
      }
      jn.run(p);
    });
    const whole = Math.floor(n / BATCH) * BATCH;
    for (const [system, fn] of [
      ['images', images],
      ['narrow', narrow],
    ] as const) {
      const t = timedSync(() => {
        for (let i = 0; i < whole; i += BATCH) fn(i, false);
        for (let i = 0; i < whole; i += BATCH) fn(i, true);
      });
      report(system, t, { database: 'sqlite' });
    }
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function timedSync(fn: () => void) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  fn();
  return { ms: performance.now() - t0, cpu: process.cpuUsage(cpu0) };
}

/** Heap bytes per pending row: the overlay as a Map of objects, and as flat typed arrays. */
function overlays(): void {
  const heap = () => {
    (globalThis as { gc?: () => void }).gc?.();
    return process.memoryUsage().heapUsed;
  };
  const h2 = heap();
  // Row numbers by id (one Map entry with a small integer), the rest in columns.
  const rowOf = new Map<string, number>();
  const seqs = new Float64Array(n);
  const ats = new Float64Array(n);
  const versions = new Int32Array(n);
  const accountNo = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    rowOf.set(occurrences[i]!, i);
    seqs[i] = i;
    ats[i] = T0;
    versions[i] = 2;
    accountNo[i] = i % 1000;
  }
  const h3 = heap();
  printResult({
    system: 'overlay-flat',
    workload: 'prototype',
    n,
    bytes_per_row: Math.round(
      (h3 - h2 + seqs.byteLength + ats.byteLength + versions.byteLength + accountNo.byteLength) / n,
    ),
  } as never);
  (globalThis as { keep?: unknown }).keep = [rowOf, seqs, ats, versions, accountNo];
  const h0 = heap();
  const map = new Map<string, object>();
  for (let i = 0; i < n; i++)
    map.set(occurrences[i]!, {
      seq: i,
      version: 2,
      at: T0,
      account: accounts[i % 1000],
      row: null,
    });
  const h1 = heap();
  printResult({
    system: 'overlay-map',
    workload: 'prototype',
    n,
    bytes_per_row: Math.round((h1 - h0) / n),
  } as never);
  (globalThis as { keep?: unknown }).keep = [map];
}

async function postgres(connectionString: string): Promise<void> {
  const pg = loadPg();
  const schema = `proto_${process.pid}`;
  const clients = await Promise.all(
    Array.from({ length: Math.max(1, inflight) }, async () => {
      const c = new pg.Client({ connectionString });
      await c.connect();
      return c;
    }),
  );
  const [admin] = clients as [InstanceType<typeof pg.Client>];
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
    for (const c of clients) await c.query(`SET search_path = ${schema}`);
    await admin.query(`
      CREATE TABLE occurrence_due (id text PRIMARY KEY, due_at bigint, version bigint NOT NULL,
        lease_owner text, lease_until bigint);
      CREATE INDEX occurrence_due_at ON occurrence_due (due_at, id) WHERE due_at IS NOT NULL;
      CREATE TABLE journal (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, kind smallint NOT NULL,
        id text NOT NULL, version bigint NOT NULL, ref text, status smallint NOT NULL, at bigint NOT NULL);`);
    await admin.query(
      'INSERT INTO occurrence_due (id, due_at, version) SELECT unnest($1::text[]), $2, 1',
      [occurrences, T0],
    );
    await admin.query('VACUUM ANALYZE occurrence_due');
    const claimSql = `UPDATE occurrence_due d SET lease_owner = $1, lease_until = $2,
        due_at = NULL, version = d.version + 1
      FROM (SELECT id FROM occurrence_due WHERE due_at IS NOT NULL AND due_at <= $3
            AND (lease_owner IS NULL OR lease_until <= $3)
            ORDER BY due_at, id LIMIT $4 FOR UPDATE SKIP LOCKED) c
      WHERE d.id = c.id RETURNING d.id, d.version`;
    const appendSql = `INSERT INTO journal (kind, id, version, ref, status, at)
      SELECT * FROM unnest($1::smallint[], $2::text[], $3::bigint[], $4::text[], $5::smallint[], $6::bigint[])`;
    let next = 0;
    const attemptOf = new Map(occurrences.map((o, i) => [o, attempts[i]!]));
    async function worker(c: InstanceType<typeof pg.Client>, owner: string): Promise<void> {
      for (;;) {
        await c.query('BEGIN');
        const { rows } = await c.query<{ id: string; version: string }>(claimSql, [
          owner,
          T0 + 60_000,
          T0,
          BATCH,
        ]);
        if (rows.length === 0) {
          await c.query('COMMIT');
          return;
        }
        // The intent: the occurrence's changed fields and the attempt's, one statement.
        const k = rows.length;
        await c.query(appendSql, [
          Array(k).fill(1),
          rows.map((r) => r.id),
          rows.map((r) => r.version),
          rows.map((r) => attemptOf.get(r.id)),
          Array(k).fill(1),
          Array(k).fill(T0),
        ]);
        await c.query('COMMIT');
        // The acceptance, appended in its own statement once the provider answered.
        await c.query(appendSql, [
          Array(k).fill(2),
          rows.map((r) => attemptOf.get(r.id)),
          Array(k).fill(2),
          rows.map((_, j) => `CA${next + j}`),
          Array(k).fill(2),
          Array(k).fill(T0 + 5),
        ]);
        next += k;
      }
    }
    const server = await serverCpu(admin);
    const t = await timed(() =>
      Promise.all(clients.map((c, i) => worker(c, `host-${i}`))).then(() => undefined),
    );
    report('pg-narrow', t, {
      database: 'postgres',
      inflight,
      dispatched: next,
      server_cpu_us_per_dispatch: server.usPer(n),
    });

    // The fold, off the spike: wide tables written from the journal in chunks.
    await admin.query(`
      CREATE TABLE occurrences (id text PRIMARY KEY, account_id text NOT NULL, status text NOT NULL,
        version bigint NOT NULL, live_attempt_id text, next_due_at bigint, scheduled_at bigint NOT NULL,
        updated_at bigint NOT NULL, body text);
      CREATE INDEX occurrences_account ON occurrences (account_id, scheduled_at);
      CREATE INDEX occurrences_status ON occurrences (status);
      CREATE INDEX occurrences_due ON occurrences (next_due_at) WHERE next_due_at IS NOT NULL;
      CREATE TABLE attempts (id text PRIMARY KEY, occurrence_id text NOT NULL, account_id text NOT NULL,
        status smallint NOT NULL, version bigint NOT NULL, provider_call_id text, created_at bigint NOT NULL);
      CREATE INDEX attempts_account ON attempts (account_id, created_at);
      CREATE INDEX attempts_occurrence ON attempts (occurrence_id);
      CREATE INDEX attempts_call ON attempts (provider_call_id);`);
    await admin.query(
      `INSERT INTO occurrences SELECT id, md5(id), 'pending', 1, NULL, $1, $1, $1, repeat('x', 200)
       FROM unnest($2::text[]) id`,
      [T0, occurrences],
    );
    const foldServer = await serverCpu(admin);
    const u = await timed(async () => {
      for (;;) {
        const { rowCount } = await admin.query(`WITH chunk AS (
            DELETE FROM journal WHERE seq IN (SELECT seq FROM journal ORDER BY seq LIMIT 4096) RETURNING *),
          occ AS (UPDATE occurrences o SET status = 'calling', version = c.version, live_attempt_id = c.ref,
              next_due_at = NULL, updated_at = c.at FROM chunk c WHERE c.kind = 1 AND o.id = c.id),
          att AS (INSERT INTO attempts (id, occurrence_id, account_id, status, version, provider_call_id, created_at)
              SELECT a.ref, a.id, md5(a.id), 1, 1, NULL, a.at FROM chunk a WHERE a.kind = 1
              ON CONFLICT (id) DO NOTHING)
          UPDATE attempts t SET status = 2, version = c.version, provider_call_id = c.ref
            FROM chunk c WHERE c.kind = 2 AND t.id = c.id`);
        if (
          rowCount === 0 &&
          Number(
            (await admin.query<{ count: string }>('SELECT count(*) FROM journal')).rows[0]!.count,
          ) === 0
        )
          break;
      }
    });
    report('pg-fold', u, {
      database: 'postgres',
      server_cpu_us_per_dispatch: foldServer.usPer(n),
    });
  } finally {
    await admin.query(`DROP SCHEMA ${schema} CASCADE`).catch(() => undefined);
    await Promise.all(clients.map((c) => c.end()));
  }
}

if (url) await postgres(url);
else if (opt.has('overlay')) overlays();
else sqlite();
process.exit(0);
