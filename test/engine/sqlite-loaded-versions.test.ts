/**
 * The SQLite store's commit checks versions its loads read from the tables without reading them
 * again (engine/sqlite/table-versions.ts, docs/decisions/0028 step 2), and still refuses every
 * stale unit: a row committed and folded after the load, a row a maintenance write erased or
 * deleted, a row inserted twice. Counted through the public store on a real database.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type Sqlite from 'better-sqlite3';
import type { OccurrenceRecord } from '../../engine/index.js';
import { createSqliteStore, type SqliteStore } from '../../engine/sqlite/index.js';
import { sampleOccurrence } from '../../engine/testing/index.js';
import { openSqliteDatabase } from '../../host/db/open.js';

/** A store on a temporary file holding `n` occurrences of account `acct-a`, folded into the table. */
async function folded(n: number): Promise<{
  db: Sqlite.Database;
  store: SqliteStore;
  rows: OccurrenceRecord[];
  done(): Promise<void>;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'wakeup-versions-'));
  const db = openSqliteDatabase(join(dir, 'db.sqlite')).raw;
  const store = createSqliteStore(db, { fold: false });
  const rows = Array.from({ length: n }, () => sampleOccurrence({ accountId: 'acct-a' }));
  await store.commit({
    occurrences: rows.map((record) => ({ record, expectedVersion: null })),
    attempts: [],
    series: [],
  });
  await store.settle();
  return {
    db,
    store,
    rows,
    async done() {
      await store.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Counts the statements run whose SQL starts with `prefix`, until `stop()`. */
function countRuns(db: Sqlite.Database, prefix: string): { read(): number; stop(): void } {
  const proto = Object.getPrototypeOf(db.prepare('SELECT 1')) as Record<string, unknown>;
  const all = proto.all as (this: Sqlite.Statement, ...a: unknown[]) => unknown;
  let n = 0;
  proto.all = function (this: Sqlite.Statement, ...a: unknown[]) {
    if (this.source.startsWith(prefix)) n++;
    return all.apply(this, a);
  };
  return {
    read: () => n,
    stop: () => {
      proto.all = all;
    },
  };
}

const VERSION_READ = 'SELECT id, version FROM occurrences';

/** Each loaded row changed and committed at its next version. */
const changed = (loaded: readonly OccurrenceRecord[], label: string) =>
  loaded.map((o) => ({
    record: { ...o, label, version: o.version + 1 },
    expectedVersion: o.version,
  }));

const commit = (store: SqliteStore, occurrences: ReturnType<typeof changed>) =>
  store.commit({ occurrences, attempts: [], series: [] });

describe('the SQLite store’s versions read by a load', () => {
  it('a commit of rows a load read from the table reads no version, and a second commit reads them again', async () => {
    const t = await folded(300);
    const runs = countRuns(t.db, VERSION_READ);
    try {
      const ids = t.rows.map((o) => o.id);
      const { occurrences } = await t.store.load({ occurrences: ids });
      assert.equal(occurrences.length, 300);
      assert.deepEqual(await commit(t.store, changed(occurrences, 'first')), { ok: true });
      assert.equal(runs.read(), 0, 'the versions the load read answer the check');
      await t.store.settle();
      // Folded, so no longer in the journal: a stale unit (the versions of the first load) is
      // refused by the table's versions, which the check reads now.
      const stale = await commit(t.store, changed(occurrences, 'stale'));
      assert.equal(stale.ok, false);
      assert.equal(runs.read(), 1);
      assert.equal(stale.ok ? 0 : stale.conflicts.length, 300);
    } finally {
      runs.stop();
      await t.done();
    }
  });

  it('a row committed and folded between a load and its commit is a conflict', async () => {
    const t = await folded(4);
    try {
      const ids = t.rows.map((o) => o.id);
      const mine = (await t.store.load({ occurrences: ids })).occurrences;
      const theirs = (await t.store.load({ occurrences: [ids[0]!] })).occurrences;
      assert.deepEqual(await commit(t.store, changed(theirs, 'theirs')), { ok: true });
      await t.store.settle();
      const result = await commit(t.store, changed(mine, 'mine'));
      assert.deepEqual(result, { ok: false, conflicts: [{ kind: 'occurrence', id: ids[0] }] });
      await t.store.settle();
      const row = (await t.store.load({ occurrences: [ids[0]!] })).occurrences[0]!;
      assert.equal(row.label, 'theirs');
    } finally {
      await t.done();
    }
  });

  it('rows a maintenance write erased or deleted after the load are conflicts, and stay as it left them', async () => {
    for (const write of ['eraseAccount', 'purgeAccount'] as const) {
      const t = await folded(3);
      try {
        const ids = t.rows.map((o) => o.id);
        // Finished rows: an erasure blanks only those.
        const { occurrences } = await t.store.load({ occurrences: ids });
        const done = changed(occurrences, 'done').map((w) => ({
          ...w,
          record: { ...w.record, status: 'confirmed' as const, nextDueAt: null },
        }));
        assert.deepEqual(await commit(t.store, done), { ok: true });
        await t.store.settle();
        const loaded = (await t.store.load({ occurrences: ids })).occurrences;
        await t.store[write]('acct-a');
        const result = await commit(t.store, changed(loaded, 'after'));
        assert.equal(result.ok, false, write);
        assert.equal(result.ok ? 0 : result.conflicts.length, 3, write);
        await t.store.settle();
        const left = (await t.store.load({ occurrences: ids })).occurrences;
        if (write === 'purgeAccount') assert.deepEqual(left, [], 'purged rows stay gone');
        else for (const o of left) assert.equal(o.label, null, 'erased rows stay blank');
      } finally {
        await t.done();
      }
    }
  });

  it('an insert of an id a load read from the table is a conflict', async () => {
    const t = await folded(1);
    try {
      const [o] = (await t.store.load({ occurrences: [t.rows[0]!.id] })).occurrences;
      const result = await t.store.commit({
        occurrences: [{ record: { ...o!, version: 1 }, expectedVersion: null }],
        attempts: [],
        series: [],
      });
      assert.deepEqual(result, { ok: false, conflicts: [{ kind: 'occurrence', id: o!.id }] });
    } finally {
      await t.done();
    }
  });
});
