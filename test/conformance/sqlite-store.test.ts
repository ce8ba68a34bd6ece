import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runStoreConformance, sampleOccurrence } from '../../engine/testing/index.js';
import { openDatabase } from '../../host/db/open.js';
import { createSqliteStore } from '../../host/db/sqlite-store.js';

runStoreConformance('SqliteStore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wakeup-store-'));
  const db = openDatabase(join(dir, 'test.sqlite'));
  return {
    store: createSqliteStore(db, { cacheKiB: 4096 }),
    close: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('SqliteStore inside the host’s own transaction', () => {
  it('keeps writing correctly after the host rolls back a transaction that contained a unit of work', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wakeup-store-'));
    const db = openDatabase(join(dir, 'test.sqlite'));
    try {
      const store = createSqliteStore(db);
      const o = sampleOccurrence();
      store.transact((tx) => tx.insertOccurrence(o));
      assert.throws(() =>
        db.transaction(() => {
          store.transact((tx) => tx.updateOccurrence({ ...tx.getOccurrence(o.id)!, status: 'waiting', attemptCount: 2 }));
          throw new Error('host rolls back');
        })(),
      );
      // Same change again, from a record the caller kept: it must really be written now.
      store.transact((tx) => tx.updateOccurrence({ ...o, status: 'waiting', attemptCount: 2 }));
      const read = store.transact((tx) => tx.getOccurrence(o.id))!;
      assert.equal(read.status, 'waiting');
      assert.equal(read.attemptCount, 2);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SqliteStore with checkpoints in a worker thread', () => {
  it('checkpoints the WAL off the event loop and closes cleanly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wakeup-store-'));
    const db = openDatabase(join(dir, 'test.sqlite'));
    const store = createSqliteStore(db, { checkpointInWorker: true, checkpointIntervalMs: 10 });
    try {
      assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 0);
      const rows = Array.from({ length: 500 }, () => sampleOccurrence());
      for (let i = 0; i < rows.length; i += 50) store.transact((tx) => rows.slice(i, i + 50).forEach((o) => tx.insertOccurrence(o)));
      let done = false;
      for (let i = 0; i < 200 && !done; i++) {
        await new Promise((r) => setTimeout(r, 10));
        // [busy, frames in the WAL, frames checkpointed]: the worker has copied everything back.
        const [status] = db.pragma('wal_checkpoint(NOOP)') as { busy: number; log: number; checkpointed: number }[];
        done = status!.log > 0 && status!.checkpointed === status!.log;
      }
      assert.ok(done, 'the worker checkpointed the WAL');
      assert.equal(store.transact((tx) => tx.listDue(Number.MAX_SAFE_INTEGER, 1000)).length, rows.length);
    } finally {
      await store.close();
      assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 1000);
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
