/**
 * Property: the SQLite store's journal and its overlay (docs/decisions/0016, 0028) lose
 * nothing. For random units (inserts and updates, of rows loaded first or not), random folds of
 * the oldest rows or of an account, restarts from the journal, and an image cache of 0, 1 or
 * many rows, every load answers the records last committed, and after a settle so do the
 * tables.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import type { AttemptRecord, OccurrenceRecord } from '../../engine/index.js';
import { createSqliteStore, type SqliteStore } from '../../engine/sqlite/index.js';
import { sampleAttempt, sampleOccurrence } from '../../engine/testing/index.js';
import { SCALE } from './time-oracle.js';

const ACCOUNTS = ['acct-a', 'acct-b', 'acct-c'];
const T0 = Date.UTC(2027, 2, 14, 7);

/** A change to some fields of an occurrence or its attempt, as the runtime's units make them. */
const occurrenceChange = fc.record(
  {
    status: fc.constantFrom('pending', 'dispatching', 'calling', 'confirmed', 'cancelled'),
    nextDueAt: fc.option(fc.integer({ min: T0, max: T0 + 3_600_000 }), { nil: null }),
    attemptCount: fc.nat(5),
    label: fc.option(fc.string({ maxLength: 8, unit: 'binary' }), { nil: null }),
    liveAttemptId: fc.option(fc.constantFrom('att-0', 'att-1', 'att-2'), { nil: null }),
    reachedPerson: fc.boolean(),
    updatedAt: fc.integer({ min: T0, max: T0 + 3_600_000 }),
  },
  { requiredKeys: [] },
);
const attemptChange = fc.record(
  {
    status: fc.constantFrom('requested', 'ringing', 'answered', 'confirmed', 'no_answer'),
    providerCallId: fc.option(fc.string({ minLength: 1, maxLength: 12 }), { nil: null }),
    deadlineAt: fc.option(fc.integer({ min: T0, max: T0 + 3_600_000 }), { nil: null }),
    digits: fc.option(fc.constantFrom('1', '2', '9'), { nil: null }),
    updatedAt: fc.integer({ min: T0, max: T0 + 3_600_000 }),
  },
  { requiredKeys: [] },
);

const step = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('insert' as const), account: fc.nat(2) }) },
  {
    weight: 8,
    arbitrary: fc.record({
      op: fc.constant('update' as const),
      pick: fc.nat(),
      loaded: fc.boolean(),
      occurrence: fc.option(occurrenceChange, { nil: undefined }),
      attempt: fc.option(attemptChange, { nil: undefined }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('foldSome' as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('settle' as const), account: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('restart' as const) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('check' as const) }) },
);

interface Model {
  occurrences: Map<string, OccurrenceRecord>;
  attempts: Map<string, AttemptRecord>;
}

async function loadAll(store: SqliteStore, model: Model) {
  const snapshot = await store.load({
    occurrences: [...model.occurrences.keys()],
    attempts: [...model.attempts.keys()],
  });
  const byId = <R extends { id: string }>(rows: R[]) =>
    new Map(rows.map((r) => [r.id, r] as const));
  return { occurrences: byId(snapshot.occurrences), attempts: byId(snapshot.attempts) };
}

async function assertStored(store: SqliteStore, model: Model, when: string) {
  const stored = await loadAll(store, model);
  assert.deepEqual(stored.occurrences, model.occurrences, `occurrences ${when}`);
  assert.deepEqual(stored.attempts, model.attempts, `attempts ${when}`);
}

describe('the SQLite store’s journal', () => {
  it('loads and the folded tables answer what was committed, through folds and restarts', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(0, 1, 1000),
        fc.array(step, { minLength: 1, maxLength: 40 }),
        async (cacheRows, steps) => {
          // A restart opens a new store on the same connection: what it finds is the database's.
          const db = new Database(':memory:');
          const open = () =>
            createSqliteStore(db, { createTables: true, fold: false, imageCacheRows: cacheRows });
          let store = open();
          const model: Model = { occurrences: new Map(), attempts: new Map() };
          const ids: string[] = [];
          try {
            for (const s of steps) {
              if (s.op === 'insert') {
                const n = ids.length;
                const o = sampleOccurrence({
                  id: `occ-${n}`,
                  accountId: ACCOUNTS[s.account]!,
                  liveAttemptId: `att-${n}`,
                });
                const a = sampleAttempt({
                  id: `att-${n}`,
                  occurrenceId: o.id,
                  accountId: o.accountId,
                });
                const result = await store.commit({
                  occurrences: [{ record: o, expectedVersion: null }],
                  attempts: [{ record: a, expectedVersion: null }],
                  series: [],
                });
                assert.deepEqual(result, { ok: true });
                ids.push(String(n));
                model.occurrences.set(o.id, structuredClone(o));
                model.attempts.set(a.id, structuredClone(a));
              } else if (s.op === 'update') {
                if (ids.length === 0 || (!s.occurrence && !s.attempt)) continue;
                const n = ids[s.pick % ids.length]!;
                let o = model.occurrences.get(`occ-${n}`)!;
                let a = model.attempts.get(`att-${n}`)!;
                if (s.loaded) {
                  const snap = await store.load({ occurrences: [o.id], attempts: [a.id] });
                  o = snap.occurrences.find((x) => x.id === o.id)!;
                  a = snap.attempts.find((x) => x.id === a.id)!;
                }
                const occurrences = s.occurrence
                  ? [
                      {
                        record: { ...o, ...s.occurrence, version: o.version + 1 },
                        expectedVersion: o.version,
                      },
                    ]
                  : [];
                const attempts = s.attempt
                  ? [
                      {
                        record: { ...a, ...s.attempt, version: a.version + 1 },
                        expectedVersion: a.version,
                      },
                    ]
                  : [];
                const result = await store.commit({ occurrences, attempts, series: [] });
                assert.deepEqual(result, { ok: true });
                for (const w of occurrences)
                  model.occurrences.set(w.record.id, structuredClone(w.record));
                for (const w of attempts)
                  model.attempts.set(w.record.id, structuredClone(w.record));
              } else if (s.op === 'foldSome') {
                await store.foldSome();
              } else if (s.op === 'settle') {
                await store.settle({ accounts: [ACCOUNTS[s.account]!] });
              } else if (s.op === 'restart') {
                await store.close();
                store = open();
              } else {
                await assertStored(store, model, `after step ${steps.indexOf(s)}`);
              }
            }
            await store.settle();
            assert.equal(store.unfolded, 0);
            await assertStored(store, model, 'in the tables after a settle');
          } finally {
            await store.close();
            db.close();
          }
        },
      ),
      { numRuns: 100 * SCALE },
    );
  });
});
