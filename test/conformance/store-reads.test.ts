/**
 * The stores' read model and maintenance writes (engine/reads.ts, docs/decisions/0021), on the
 * SQLite store (its journal never folded in the background: every read must fold what it
 * covers first) and, with WAKEUP_TEST_PG_URL, on the PostgreSQL store: series newest first with
 * ties in insertion order, keyset paging, the journal seen, the calls placed and used, the
 * account summary, and removing, erasing and purging.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import type { ChangeSet } from '../../engine/internals.js';
import { createPostgresStore, ensurePostgresEngineSchema } from '../../engine/postgres/index.js';
import { createSqliteStore } from '../../engine/sqlite/index.js';
import { sampleAttempt, sampleOccurrence, sampleSeries } from '../../engine/testing/index.js';
import type { AttemptRecord, OccurrenceRecord, SeriesRecord, Store } from '../../engine/index.js';
import type { StoreMaintenance, StoreReads } from '../../engine/internals.js';
import { throwawaySchema } from '../helpers/pg-schema.js';

type Full = Store & StoreReads & StoreMaintenance;
const url = process.env.WAKEUP_TEST_PG_URL;
const T = Date.UTC(2027, 2, 14, 7, 0, 0);

function inserts(rows: {
  occurrences?: OccurrenceRecord[];
  attempts?: AttemptRecord[];
  series?: SeriesRecord[];
}): ChangeSet {
  const ins = <R>(list: R[] = []) => list.map((record) => ({ record, expectedVersion: null }));
  return {
    occurrences: ins(rows.occurrences),
    attempts: ins(rows.attempts),
    series: ins(rows.series),
  };
}

function contract(
  name: string,
  open: () => Promise<{ store: Full; close(): Promise<void> }>,
): void {
  describe(`the read model: ${name}`, () => {
    const run = (title: string, fn: (store: Full) => Promise<void>): void => {
      it(title, async () => {
        const h = await open();
        try {
          await fn(h.store);
        } finally {
          await h.close();
        }
      });
    };

    run(
      'lists series newest first, ties in insertion order, paged, with their next occurrences',
      async (store) => {
        const account = 'acct-1';
        const next = sampleOccurrence({ accountId: account });
        const older = sampleSeries({
          accountId: account,
          createdAt: T - 1000,
          status: 'completed',
        });
        const [a, b, c] = [0, 1, 2].map(() => sampleSeries({ accountId: account, createdAt: T }));
        next.scheduleId = c!.id;
        c!.nextOccurrenceId = next.id;
        for (const s of [older, a!, b!])
          assert.deepEqual(await store.commit(inserts({ series: [s] })), { ok: true });
        assert.deepEqual(await store.commit(inserts({ series: [c!], occurrences: [next] })), {
          ok: true,
        });
        await store.commit(
          inserts({ series: [sampleSeries({ accountId: 'someone-else', createdAt: T })] }),
        );

        const all = await store.listSeries({ accountId: account, limit: 10 });
        assert.deepEqual(
          all.series.map((s) => s.record.id),
          [c!.id, b!.id, a!.id, older.id],
        );
        assert.deepEqual(all.series[0]!.record, c);
        assert.deepEqual(all.occurrences, [next]);
        const first = await store.listSeries({ accountId: account, limit: 2 });
        const last = first.series[1]!;
        const rest = await store.listSeries({
          accountId: account,
          limit: 10,
          before: { createdAt: last.record.createdAt, seq: last.seq },
        });
        assert.deepEqual(
          rest.series.map((s) => s.record.id),
          [a!.id, older.id],
        );
        assert.deepEqual(
          (
            await store.listSeries({ accountId: account, status: 'completed', limit: 10 })
          ).series.map((s) => s.record.id),
          [older.id],
        );
        assert.deepEqual(
          await store.countSeries([account, 'nobody']),
          new Map([[account, { series: 4, active: 3 }]]),
        );
        assert.deepEqual(
          (await store.exportSeries(account, 0, 10)).map((s) => s.record.id),
          [older.id, a!.id, b!.id, c!.id],
        );
      },
    );

    run(
      'reads what was just committed, occurrences with their series and attempts',
      async (store) => {
        const s = sampleSeries({ accountId: 'acct-2' });
        const o = sampleOccurrence({
          accountId: 'acct-2',
          scheduleId: s.id,
          status: 'waiting',
          dispatchedAt: T,
          nextDueAt: T + 60_000,
        });
        const failed = sampleAttempt({
          accountId: 'acct-2',
          occurrenceId: o.id,
          n: 1,
          kind: 'first',
          status: 'failed',
          requestedAt: T,
          createdAt: T,
        });
        const rang = sampleAttempt({
          accountId: 'acct-2',
          occurrenceId: o.id,
          n: 2,
          kind: 'retry',
          status: 'no_answer',
          requestedAt: T,
          createdAt: T + 1,
        });
        const test = sampleAttempt({
          accountId: 'acct-2',
          occurrenceId: null,
          kind: 'test',
          status: 'confirmed',
          requestedAt: T,
          createdAt: T + 2,
        });
        await store.commit(
          inserts({ series: [s], occurrences: [o], attempts: [failed, rang, test] }),
        );

        const page = await store.listOccurrences({
          accountId: 'acct-2',
          from: T - 1,
          to: T + 1,
          limit: 10,
        });
        assert.deepEqual(page.occurrences, [o]);
        assert.deepEqual(page.series, [s]);
        assert.deepEqual(await store.listUnfinishedOccurrenceIds('acct-2'), [o.id]);
        assert.deepEqual(await store.listOccurrenceAttempts('acct-2', o.id), [failed, rang]);
        assert.deepEqual(
          (
            await store.listAccountAttempts({
              accountId: 'acct-2',
              kinds: ['first', 'retry', 'test'],
              limit: 10,
            })
          ).map((a) => a.record.id),
          [test.id, rang.id, failed.id],
        );
        assert.deepEqual(
          await store.countPlacedAttempts(['acct-2'], T, T + 10, ['first', 'retry', 'test']),
          new Map([['acct-2', 2]]),
        );
        assert.deepEqual(await store.occurrencesWithPlacedAttempt([o.id, 'none']), new Set([o.id]));
        assert.deepEqual(
          await store.listCallsUsed([{ accountId: 'acct-2', from: T, to: T + 10 }], 'test'),
          new Map([['acct-2', [rang.to, test.to]]]),
        );
        const summary = await store.summarizeAccount({
          accountId: 'acct-2',
          kinds: ['first', 'retry', 'test'],
          standaloneKind: 'test',
          usedIn: { from: T, to: T + 10 },
        });
        assert.deepEqual(
          { ...summary, lastConfirmedAt: summary.lastConfirmedAt !== null },
          {
            series: 1,
            activeSeries: 1,
            lastConfirmedAt: true,
            standaloneConfirmed: 1,
            lastStandalone: { createdAt: T + 2, status: 'confirmed' },
            callsUsed: 2,
          },
        );
        assert.equal(await store.isPhoneNumberInUse('acct-2', o.phoneNumberId!), true);
        assert.equal(await store.isPhoneNumberInUse('acct-2', 'another-number'), false);
      },
    );

    run(
      'removes a series that never rang, not one that did; erases and purges an account',
      async (store) => {
        const quiet = sampleSeries({ accountId: 'acct-3' });
        const pending = sampleOccurrence({ accountId: 'acct-3', scheduleId: quiet.id });
        const rang = sampleSeries({ accountId: 'acct-3', enabled: false, status: 'disabled' });
        const done = sampleOccurrence({
          accountId: 'acct-3',
          scheduleId: rang.id,
          status: 'confirmed',
          dispatchedAt: T,
          nextDueAt: null,
        });
        const call = sampleAttempt({
          accountId: 'acct-3',
          occurrenceId: done.id,
          kind: 'first',
          status: 'confirmed',
          digits: '1',
          script: null,
        });
        await store.commit(
          inserts({ series: [quiet, rang], occurrences: [pending, done], attempts: [call] }),
        );

        assert.equal(await store.deleteSeries(rang.id), false, 'it rang: kept as history');
        assert.equal(await store.deleteSeries(quiet.id), true);
        assert.deepEqual(
          (await store.load({ series: [quiet.id], occurrences: [pending.id] })).occurrences,
          [],
        );

        await store.eraseAccount('acct-3');
        const after = await store.load({ series: [rang.id], attempts: [call.id] });
        assert.deepEqual(
          after.series.map((s) => [s.to, s.label, s.message, s.greetingName, s.attributes]),
          [['', null, null, null, null]],
        );
        assert.deepEqual(
          after.occurrences.map((o) => [o.to, o.label, o.message]),
          [['', null, null]],
        );
        assert.deepEqual(
          after.attempts.map((a) => [a.to, a.digits]),
          [['', null]],
        );

        await store.purgeAccount('acct-3');
        const gone = await store.load({
          series: [rang.id],
          occurrences: [done.id],
          attempts: [call.id],
        });
        assert.deepEqual([gone.series, gone.occurrences, gone.attempts], [[], [], []]);
      },
    );
  });
}

contract('SQLite (the journal folded by the reads only)', async () => {
  const db = new Sqlite(':memory:');
  const store = createSqliteStore(db, { createTables: true, fold: false });
  return {
    store,
    close: async () => {
      await store.close();
      db.close();
    },
  };
});

if (url) {
  contract('PostgreSQL', async () => {
    const schema = await throwawaySchema(url);
    const pool = new pg.Pool({ connectionString: schema.url, max: 2 });
    await ensurePostgresEngineSchema(pool);
    return {
      store: createPostgresStore(pool),
      close: async () => {
        await pool.end();
        await schema.drop();
      },
    };
  });
}
