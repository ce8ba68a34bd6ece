/**
 * The SQLite store's dispatch journal (docs/decisions/0016), through the engine's public API:
 * a spike's commits are journal rows until folded; reads during the spike see every committed
 * change (the store's own loads at once, the tables once a read settles); a crash leaves the
 * journal, which the next store restores and folds; the fold trims the journal behind it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type Sqlite from 'better-sqlite3';
import type { OccurrenceRecord } from '../../engine/index.js';
import type { DueCursor } from '../../engine/internals.js';
import {
  createSqliteStore,
  type SqliteStore,
  type SqliteStoreOptions,
} from '../../engine/sqlite/index.js';
import { sampleOccurrence } from '../../engine/testing/index.js';
import { openSqliteDatabase } from '../../host/db/open.js';
import { harness, MIN, T0 } from './harness.js';

function tempDb(): { db: Sqlite.Database; file: string; reopen(): Sqlite.Database; done(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'wakeup-journal-'));
  const file = join(dir, 'db.sqlite');
  let db = openSqliteDatabase(file).raw;
  return {
    get db() {
      return db;
    },
    file,
    reopen() {
      db.close();
      db = openSqliteDatabase(file).raw;
      return db;
    },
    done() {
      if (db.open) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const journalRows = (db: Sqlite.Database) =>
  (db.prepare('SELECT COUNT(*) AS n FROM engine_journal').get() as { n: number }).n;
const tableRow = (db: Sqlite.Database, id: string) =>
  db.prepare('SELECT status, version, next_due_at AS due FROM occurrences WHERE id = ?').get(id) as
    { status: string; version: number; due: number | null } | undefined;

/** 200 calls of 50 accounts due at T0, on a journal store with `options`. */
async function spike(db: Sqlite.Database, options: SqliteStoreOptions) {
  const store = createSqliteStore(db, options);
  const h = await harness({}, { store });
  const made: OccurrenceRecord[] = [];
  for (let i = 0; i < 200; i++)
    made.push(
      await h.schedule({
        accountId: `acct-${i % 50}`,
        to: `+1415555${String(i).padStart(4, '0')}`,
      }),
    );
  return { store, h, made };
}

describe('the SQLite store’s dispatch journal', () => {
  it('a spike commits to the journal; reads during it see every committed change, through load at once and the tables after settle', async () => {
    const t = tempDb();
    try {
      const { store, h, made } = await spike(t.db, { fold: false });
      assert.equal(
        tableRow(t.db, made[0]!.id),
        undefined,
        'scheduled rows are journal rows until folded',
      );
      let reads = 0;
      // Each status change the runtime reports is committed: read it back right then, mid-spike.
      const checks: Promise<void>[] = [];
      h.runtime.on('occurrence:status', ({ occurrence }) => {
        if (occurrence.status !== 'dispatching') return;
        checks.push(
          (async () => {
            const [loaded] = (await store.load({ occurrences: [occurrence.id] })).occurrences;
            assert.ok(loaded!.version >= occurrence.version, 'load sees the commit');
            await store.settle({ accounts: [occurrence.accountId] });
            const row = tableRow(t.db, occurrence.id)!;
            assert.ok(
              row.version >= occurrence.version,
              'the table, settled for the account, has the commit',
            );
            reads++;
          })(),
        );
      });
      await h.at(T0 + 2 * MIN);
      await Promise.all(checks);
      assert.equal(reads, 200, 'one read per dispatch, all during the spike');
      assert.ok(store.unfolded > 0, 'the other accounts’ rows stayed in the journal');
      await store.settle();
      assert.equal(store.unfolded, 0);
      assert.equal(journalRows(t.db), 0, 'the journal is trimmed behind the fold');
      for (const o of made) {
        const [loaded] = (await store.load({ occurrences: [o.id] })).occurrences;
        assert.deepEqual(tableRow(t.db, o.id), {
          status: loaded!.status,
          version: loaded!.version,
          due: loaded!.nextDueAt,
        });
        assert.equal(loaded!.status, 'confirmed');
      }
      await h.runtime.stop();
      await store.close();
    } finally {
      t.done();
    }
  });

  it('settles by occurrence and attempt id (the accounts they belong to)', async () => {
    const t = tempDb();
    try {
      const { store, h, made } = await spike(t.db, { fold: false });
      await h.at(T0 + 2 * MIN);
      const [o] = (await store.load({ occurrences: [made[7]!.id] })).occurrences;
      await store.settle({ occurrences: [o!.id] });
      assert.equal(tableRow(t.db, o!.id)!.status, 'confirmed');
      const other = made.find((m) => m.accountId !== o!.accountId)!;
      assert.equal(
        tableRow(t.db, other.id),
        undefined,
        'another account’s rows are left to the fold',
      );
      const [attempt] = await store.listAttempts(other.id); // the store's own list folds everything
      await store.settle({ attempts: [attempt!.id] });
      assert.equal(store.unfolded, 0);
      await h.runtime.stop();
      await store.close();
    } finally {
      t.done();
    }
  });

  it('the background fold brings the tables up to date once the store is idle', async () => {
    const t = tempDb();
    try {
      const { store, h, made } = await spike(t.db, { fold: { idleMs: 1, sliceMs: 2 } });
      await h.at(T0 + 2 * MIN);
      for (let i = 0; i < 500 && store.unfolded > 0; i++)
        await new Promise((r) => setTimeout(r, 5));
      assert.equal(store.unfolded, 0);
      assert.equal(journalRows(t.db), 0);
      for (const o of made) assert.equal(tableRow(t.db, o.id)!.status, 'confirmed');
      await h.runtime.stop();
      await store.close();
    } finally {
      t.done();
    }
  });

  it('one account with thousands of journal rows: the fold takes them in chunks, settle takes the rest', async () => {
    const t = tempDb();
    try {
      const store = createSqliteStore(t.db, { fold: false });
      const rows = Array.from({ length: 3000 }, () => sampleOccurrence({ accountId: 'me' }));
      for (let i = 0; i < rows.length; i += 100) {
        await store.commit({
          occurrences: rows.slice(i, i + 100).map((record) => ({ record, expectedVersion: null })),
          attempts: [],
          series: [],
        });
      }
      const changed = rows.slice(0, 1500).map((o) => ({
        record: { ...o, status: 'cancelled' as const, nextDueAt: null, version: 2 },
        expectedVersion: 1,
      }));
      assert.deepEqual(await store.commit({ occurrences: changed, attempts: [], series: [] }), {
        ok: true,
      });
      assert.equal(store.unfolded, 4500);
      await store.settle({ accounts: ['me'] });
      assert.equal(store.unfolded, 0);
      assert.equal(journalRows(t.db), 0);
      assert.equal(tableRow(t.db, rows[0]!.id)!.status, 'cancelled');
      assert.equal(tableRow(t.db, rows[2999]!.id)!.status, 'pending');
      await store.close();
    } finally {
      t.done();
    }
  });

  it('pages of due rows from the table and the journal come in (instant, id) order past the cursor, each row once', async () => {
    const t = tempDb();
    try {
      const store = createSqliteStore(t.db, { fold: false });
      // 3,000 due in one second (most at one instant), 300 of them moved and moved back (their newest
      // images in the journal), beside 500 more spread over minutes.
      const rows = Array.from({ length: 3500 }, (_, i) => {
        const at = i < 3000 ? T0 + (i % 7 === 0 ? 500 : 0) : T0 + (i - 3000) * 997;
        return sampleOccurrence({ nextDueAt: at, scheduledAt: at, status: 'pending' });
      });
      await store.commit({
        occurrences: rows.map((record) => ({ record, expectedVersion: null })),
        attempts: [],
        series: [],
      });
      // In the table: a page of due rows merges the table's with the journal's below.
      await store.settle();
      assert.equal(store.unfolded, 0);
      const moved = rows.slice(0, 300).map((o) => ({
        record: { ...o, nextDueAt: o.nextDueAt! + 3_600_000, version: 2 },
        expectedVersion: 1,
      }));
      await store.commit({ occurrences: moved, attempts: [], series: [] });
      const back = moved.map((w) => ({
        record: {
          ...w.record,
          nextDueAt: rows.find((r) => r.id === w.record.id)!.nextDueAt,
          version: 3,
        },
        expectedVersion: 2,
      }));
      await store.commit({ occurrences: back, attempts: [], series: [] });
      const seen: string[] = [];
      let after: DueCursor | undefined;
      for (;;) {
        const page = await store.listDue({
          until: T0 + 3_600_000,
          limit: 100,
          ...(after ? { after } : {}),
        });
        if (page.length === 0) break;
        seen.push(...page.map((r) => r.id));
        after = page[page.length - 1]!;
      }
      const expected = [...rows]
        .sort((x, y) => x.nextDueAt! - y.nextDueAt! || (x.id < y.id ? -1 : 1))
        .map((o) => o.id);
      assert.deepEqual(seen, expected);
      await store.close();
    } finally {
      t.done();
    }
  });

  it('a crash leaves the journal: the next store restores it, answers from it and folds it', async () => {
    const t = tempDb();
    try {
      const { store, h, made } = await spike(t.db, { fold: false });
      await h.at(T0 + 2 * MIN);
      const before = new Map<string, OccurrenceRecord>();
      for (const o of (await store.load({ occurrences: made.map((m) => m.id) })).occurrences)
        before.set(o.id, o);
      const unfolded = store.unfolded;
      assert.ok(unfolded > 0);
      await h.runtime.stop({ drain: false });
      // kill -9: the store is never closed; the connection is dropped.
      const db = t.reopen();
      const next: SqliteStore = createSqliteStore(db, { fold: false });
      assert.equal(next.unfolded, unfolded, 'every journal row is known again');
      const after = (await next.load({ occurrences: made.map((m) => m.id) })).occurrences;
      for (const o of after) assert.deepEqual(o, before.get(o.id));
      assert.deepEqual(
        await next.listDue({ until: T0 + 60 * MIN, limit: 1000 }),
        [],
        'nothing is due: the table’s stale due keys are hidden',
      );
      await next.settle();
      for (const o of after) assert.equal(tableRow(db, o.id)!.status, o.status);
      await next.close();
    } finally {
      t.done();
    }
  });

  it('a fold inside a caller’s transaction that rolls back is undone, and the store reads the journal again', async () => {
    const t = tempDb();
    try {
      const store = createSqliteStore(t.db, { fold: false });
      const o = sampleOccurrence({ accountId: 'acct-x' });
      await store.commit({
        occurrences: [{ record: o, expectedVersion: null }],
        attempts: [],
        series: [],
      });
      assert.throws(() =>
        t.db.transaction(() => {
          void store.settle({ accounts: ['acct-x'] }); // folds synchronously, as a savepoint of the caller's transaction
          throw new Error('the caller rolls back');
        })(),
      );
      assert.equal(tableRow(t.db, o.id), undefined);
      assert.equal(journalRows(t.db), 1);
      assert.deepEqual((await store.load({ occurrences: [o.id] })).occurrences, [o]);
      await store.settle({ accounts: ['acct-x'] });
      assert.equal(tableRow(t.db, o.id)!.version, o.version);
      assert.equal(store.unfolded, 0);
      await store.close();
    } finally {
      t.done();
    }
  });
});
