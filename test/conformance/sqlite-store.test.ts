import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Sqlite, { type Database } from 'better-sqlite3';
import { runStoreConformance, sampleOccurrence } from '../../engine/testing/index.js';
import { openSqliteDatabase } from '../../host/db/open.js';
import { createSqliteStore, type SqliteStoreOptions } from '../../engine/sqlite/index.js';
import type { Store } from '../../engine/index.js';

/**
 * The store with its dispatch journal (docs/decisions/0016) in each state a read can meet it:
 * the background fold as configured by default; stopped (every row read from the journal and
 * the overlay); folding at once after each commit (every row read from the tables); and with no
 * image cached (unfolded rows decoded from their journal rows).
 */
const variants: [string, SqliteStoreOptions, boolean][] = [
  ['SqliteStore', {}, false],
  ['SqliteStore, fold stopped', { fold: false }, false],
  ['SqliteStore, folded after every commit', { fold: false }, true],
  [
    'SqliteStore, no image cached, eager fold',
    { imageCacheRows: 0, fold: { idleMs: 0, sliceMs: 1 } },
    false,
  ],
];
for (const [name, options, settleEachCommit] of variants) {
  runStoreConformance(name, () => {
    const dir = mkdtempSync(join(tmpdir(), 'wakeup-store-'));
    const db = openSqliteDatabase(join(dir, 'test.sqlite')).raw;
    const inner = createSqliteStore(db, { cacheKiB: 4096, ...options });
    db.exec('CREATE TABLE conformance_writes (seq INTEGER PRIMARY KEY, tag TEXT NOT NULL)');
    const store: Store<Database> = settleEachCommit
      ? {
          ...inner,
          commit: async (changes, commitOptions) => {
            const r = await inner.commit(changes, commitOptions);
            await inner.settle();
            return r;
          },
        }
      : inner;
    return {
      store: store,
      writes: {
        // Awaits before it writes: the store's transaction stays open across the caller's awaits.
        write: (tag) => async (tx) => {
          await Promise.resolve();
          (tx as Database).prepare('INSERT INTO conformance_writes (tag) VALUES (?)').run(tag);
        },
        written: async () =>
          db.prepare('SELECT tag FROM conformance_writes ORDER BY seq').pluck().all() as string[],
      },
      close: async () => {
        await inner.close();
        db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
}

describe('SqliteStore and a transaction of the caller’s', () => {
  it('refuses a commit inside it, and never rebuilds its overlay', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wakeup-store-'));
    const db = openSqliteDatabase(join(dir, 'test.sqlite')).raw;
    try {
      const store = createSqliteStore(db);
      const o = sampleOccurrence();
      assert.deepEqual(
        await store.commit({
          occurrences: [{ record: o, expectedVersion: null }],
          attempts: [],
          series: [],
        }),
        { ok: true },
      );
      const [read] = (await store.load({ occurrences: [o.id] })).occurrences;
      const change = {
        occurrences: [
          {
            record: { ...read!, status: 'waiting' as const, attemptCount: 2, version: 2 },
            expectedVersion: 1,
          },
        ],
        attempts: [],
        series: [],
      };
      db.exec('BEGIN');
      await assert.rejects(
        store.commit(change),
        /pass what must commit with the unit as commit's `writes`/,
      );
      db.exec('ROLLBACK');
      // Same change again, outside: written now.
      assert.deepEqual(await store.commit(change), { ok: true });
      const [after] = (await store.load({ occurrences: [o.id] })).occurrences;
      assert.equal(after!.status, 'waiting');
      assert.equal(after!.version, 2);
      assert.equal(store.restores, 0);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SqliteStore on an embedder’s own database', () => {
  it('creates its tables with createTables and works on them', async () => {
    const db = new Sqlite(':memory:');
    try {
      const store = createSqliteStore(db, { createTables: true });
      createSqliteStore(db, { createTables: true }); // idempotent
      const o = sampleOccurrence();
      assert.deepEqual(
        await store.commit({
          occurrences: [{ record: o, expectedVersion: null }],
          attempts: [],
          series: [],
        }),
        { ok: true },
      );
      assert.deepEqual((await store.load({ occurrences: [o.id] })).occurrences, [o]);
    } finally {
      db.close();
    }
  });
});

describe('SqliteStore with checkpoints in a worker thread', () => {
  it('checkpoints the WAL off the event loop and closes cleanly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wakeup-store-'));
    const db = openSqliteDatabase(join(dir, 'test.sqlite')).raw;
    const store = createSqliteStore(db, { checkpointInWorker: true, checkpointIntervalMs: 10 });
    try {
      assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 0);
      const rows = Array.from({ length: 500 }, () => sampleOccurrence());
      for (let i = 0; i < rows.length; i += 50) {
        await store.commit({
          occurrences: rows.slice(i, i + 50).map((record) => ({ record, expectedVersion: null })),
          attempts: [],
          series: [],
        });
      }
      let done = false;
      for (let i = 0; i < 200 && !done; i++) {
        await new Promise((r) => setTimeout(r, 10));
        // [busy, frames in the WAL, frames checkpointed]: the worker has copied everything back.
        const [status] = db.pragma('wal_checkpoint(NOOP)') as {
          busy: number;
          log: number;
          checkpointed: number;
        }[];
        done = status!.log > 0 && status!.checkpointed === status!.log;
      }
      assert.ok(done, 'the worker checkpointed the WAL');
      assert.equal(
        (await store.listDue({ until: Number.MAX_SAFE_INTEGER, limit: 1000 })).length,
        rows.length,
      );
    } finally {
      await store.close();
      assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 1000);
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
