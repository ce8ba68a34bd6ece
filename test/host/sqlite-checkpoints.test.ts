/**
 * The service's SQLite store checkpoints the WAL on a worker thread (engine/sqlite/checkpointer.ts),
 * not inside the spike's commits, and the database's close stops the worker (and its
 * connection) before the connection closes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sampleOccurrence } from '../../engine/testing/index.js';
import { createEngineStore } from '../../host/db/engine-store.js';
import { openSqliteDatabase } from '../../host/db/open.js';
import type { SqliteDb } from '../../host/db/sql.js';
import { startTestServer } from '../helpers/server.js';

const autocheckpoint = (db: SqliteDb) => db.raw.pragma('wal_autocheckpoint', { simple: true });
/** The worker threads this process runs (its diagnostic report lists those started). */
const workers = () => (process.report.getReport() as { workers: unknown[] }).workers.length;
/** Waits until {@link workers} is `n` (a worker is listed once it has started), at most 5 s. */
async function untilWorkers(n: number): Promise<number> {
  for (let i = 0; i < 100 && workers() !== n; i++) await new Promise((r) => setTimeout(r, 50));
  return workers();
}

describe('the service’s SQLite checkpoints', () => {
  it('run on a worker while the engine store is open; closing the database stops it first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wakeup-checkpoints-'));
    try {
      const file = join(dir, 'wakeup.sqlite');
      const db = openSqliteDatabase(file);
      const before = workers();
      const store = createEngineStore(db);
      assert.equal(autocheckpoint(db), 0, 'no checkpoint inside a commit');
      assert.equal(await untilWorkers(before + 1), before + 1, 'the checkpoint worker runs');
      const rows = Array.from({ length: 500 }, () => sampleOccurrence());
      const result = await store.commit({
        occurrences: rows.map((record) => ({ record, expectedVersion: null })),
        attempts: [],
        series: [],
      });
      assert.deepEqual(result, { ok: true });
      await store.settle!();
      await db.close();
      assert.equal(await untilWorkers(before), before, 'the worker stopped with the database');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the server’s store checkpoints on the worker', async (t) => {
    const server = await startTestServer();
    try {
      const { db } = server.running.deps;
      if (db.dialect !== 'sqlite') return t.skip('SQLite only: this run is on PostgreSQL');
      assert.equal(autocheckpoint(db as SqliteDb), 0);
    } finally {
      await server.close();
    }
  });
});
