/**
 * Property: the PostgreSQL store's commits lose nothing when an update sends only the columns
 * that changed since its load (engine/postgres/commit-sql.ts). For random units (inserts, and
 * updates of rows loaded first or not, of texts an array literal must quote, `jsonb` values and
 * nulls), and writes by another store between a load and its commit (which must conflict), every
 * load answers the records last committed. Needs WAKEUP_TEST_PG_URL; says so when absent.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import pg from 'pg';
import type { AttemptRecord, OccurrenceRecord, Store } from '../../engine/index.js';
import { createPostgresStore, ensurePostgresEngineSchema } from '../../engine/postgres/index.js';
import { sampleAttempt, sampleOccurrence } from '../../engine/testing/index.js';
import { throwawaySchema } from '../helpers/pg-schema.js';
import { SCALE } from '../engine/time-oracle.js';

const url = process.env.WAKEUP_TEST_PG_URL;
const T0 = Date.UTC(2027, 2, 14, 7);

/** Texts an array literal must quote or escape, and other scripts (PostgreSQL's text holds no NUL). */
const text = fc.string({
  maxLength: 8,
  unit: fc.oneof(
    fc.constantFrom('"', '\\', '{', '}', ',', ' ', "'", 'NULL', 'é', '😀', '\n'),
    fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' }).filter((c) => !c.includes('\0')),
  ),
});
const instant = fc.integer({ min: T0, max: T0 + 3_600_000 });

const occurrenceChange = fc.record(
  {
    status: fc.constantFrom('pending', 'dispatching', 'calling', 'confirmed', 'cancelled'),
    nextDueAt: fc.option(instant, { nil: null }),
    attemptCount: fc.nat(5),
    label: fc.option(text, { nil: null }),
    message: fc.option(text, { nil: null }),
    liveAttemptId: fc.option(fc.constantFrom('att-0', 'att-1', 'att-2'), { nil: null }),
    reachedPerson: fc.boolean(),
    offsetsMinutes: fc.array(fc.nat(120), { maxLength: 3 }),
    updatedAt: instant,
  },
  { requiredKeys: [] },
);
/** What {@link occurrenceChange} draws. */
type OccurrenceChange = typeof occurrenceChange extends fc.Arbitrary<infer C> ? C : never;

const attemptChange = fc.record(
  {
    status: fc.constantFrom('requested', 'ringing', 'answered', 'confirmed', 'no_answer'),
    providerCallId: fc.option(text, { nil: null }),
    deadlineAt: fc.option(instant, { nil: null }),
    digits: fc.option(fc.constantFrom('1', '2', '9', ''), { nil: null }),
    updatedAt: instant,
  },
  { requiredKeys: [] },
);

const step = fc.oneof(
  { weight: 2, arbitrary: fc.record({ op: fc.constant('insert' as const) }) },
  {
    weight: 8,
    arbitrary: fc.record({
      op: fc.constant('update' as const),
      pick: fc.nat(),
      loaded: fc.boolean(),
      /** Another store writes the occurrence between this load and this commit. */
      raced: fc.boolean(),
      occurrence: fc.option(occurrenceChange, { nil: undefined }),
      attempt: fc.option(attemptChange, { nil: undefined }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('check' as const) }) },
);

interface Model {
  occurrences: Map<string, OccurrenceRecord>;
  attempts: Map<string, AttemptRecord>;
}

/** An occurrence with a change applied (the policy's offsets are a `jsonb` column). */
function changed(o: OccurrenceRecord, change: OccurrenceChange): OccurrenceRecord {
  const { offsetsMinutes, ...rest } = change;
  const policy = offsetsMinutes ? { ...o.policy, offsetsMinutes } : o.policy;
  return { ...o, ...rest, policy, version: o.version + 1 };
}

async function assertStored(store: Store, model: Model, when: string) {
  const snapshot = await store.load({
    occurrences: [...model.occurrences.keys()],
    attempts: [...model.attempts.keys()],
  });
  const byId = <R extends { id: string }>(rows: R[]) =>
    new Map(rows.map((r) => [r.id, r] as const));
  assert.deepEqual(byId(snapshot.occurrences), model.occurrences, `occurrences ${when}`);
  assert.deepEqual(byId(snapshot.attempts), model.attempts, `attempts ${when}`);
}

if (!url) {
  describe('the PostgreSQL store’s narrow updates', () => {
    it('runs on PostgreSQL', (t) => {
      t.skip('WAKEUP_TEST_PG_URL is not set: no PostgreSQL server (run `scripts/with-pg.sh …`)');
    });
  });
} else {
  describe('the PostgreSQL store’s narrow updates', () => {
    it('loads answer what was committed; a write between a load and its commit conflicts', async () => {
      const schema = await throwawaySchema(url);
      const pool = new pg.Pool({ connectionString: schema.url, max: 2 });
      try {
        await ensurePostgresEngineSchema(pool);
        let run = 0;
        await fc.assert(
          fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 24 }), async (steps) => {
            const prefix = `r${run++}-`;
            const store = createPostgresStore(pool);
            const other = createPostgresStore(pool);
            const model: Model = { occurrences: new Map(), attempts: new Map() };
            let n = 0;
            for (const [i, s] of steps.entries()) {
              if (s.op === 'insert') {
                const o = sampleOccurrence({ id: `${prefix}occ-${n}`, liveAttemptId: null });
                const a = sampleAttempt({ id: `${prefix}att-${n}`, occurrenceId: o.id });
                n++;
                const result = await store.commit({
                  occurrences: [{ record: o, expectedVersion: null }],
                  attempts: [{ record: a, expectedVersion: null }],
                  series: [],
                });
                assert.deepEqual(result, { ok: true });
                model.occurrences.set(o.id, structuredClone(o));
                model.attempts.set(a.id, structuredClone(a));
              } else if (s.op === 'update') {
                if (n === 0 || (!s.occurrence && !s.attempt)) continue;
                const k = s.pick % n;
                let o = model.occurrences.get(`${prefix}occ-${k}`)!;
                let a = model.attempts.get(`${prefix}att-${k}`)!;
                if (s.loaded) {
                  const snap = await store.load({ occurrences: [o.id], attempts: [a.id] });
                  o = snap.occurrences.find((x) => x.id === o.id)!;
                  a = snap.attempts.find((x) => x.id === a.id)!;
                }
                if (s.raced) {
                  const theirs = { ...o, label: 'theirs', version: o.version + 1 };
                  const result = await other.commit({
                    occurrences: [{ record: theirs, expectedVersion: o.version }],
                    attempts: [],
                    series: [],
                  });
                  assert.deepEqual(result, { ok: true });
                  model.occurrences.set(o.id, structuredClone(theirs));
                }
                const occurrences = s.occurrence
                  ? [{ record: changed(o, s.occurrence), expectedVersion: o.version }]
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
                if (s.raced && s.occurrence) {
                  assert.deepEqual(result, {
                    ok: false,
                    conflicts: [{ kind: 'occurrence', id: o.id }],
                  });
                  continue;
                }
                assert.deepEqual(result, { ok: true });
                for (const w of occurrences)
                  model.occurrences.set(w.record.id, structuredClone(w.record));
                for (const w of attempts)
                  model.attempts.set(w.record.id, structuredClone(w.record));
              } else {
                await assertStored(store, model, `after step ${i}`);
              }
            }
            await assertStored(store, model, 'at the end');
            await assertStored(other, model, 'read by another store');
          }),
          { numRuns: 40 * SCALE },
        );
      } finally {
        await pool.end();
        await schema.drop();
      }
    });

    it('past its bound of statement shapes, updates go whole and still land', async () => {
      const schema = await throwawaySchema(url);
      const pool = new pg.Pool({ connectionString: schema.url, max: 2 });
      try {
        await ensurePostgresEngineSchema(pool);
        const store = createPostgresStore(pool);
        const o = sampleOccurrence({ id: 'shapes', liveAttemptId: null });
        assert.deepEqual(
          await store.commit({
            occurrences: [{ record: o, expectedVersion: null }],
            attempts: [],
            series: [],
          }),
          { ok: true },
        );
        // Each subset of these fields is its own shape of narrow update: 2^8 of them, past the
        // store's 128.
        const fields = [
          'label',
          'message',
          'greetingName',
          'voice',
          'timezone',
          'to',
          'phoneNumberId',
          'localDate',
        ] as const;
        let last = o;
        for (let mask = 1; mask < 2 ** fields.length; mask++) {
          const [loaded] = (await store.load({ occurrences: [o.id] })).occurrences;
          const next: OccurrenceRecord = { ...loaded!, version: loaded!.version + 1 };
          fields.forEach((f, i) => {
            if (mask & (1 << i)) Object.assign(next, { [f]: `${f}-${mask}` });
          });
          const result = await store.commit({
            occurrences: [{ record: next, expectedVersion: loaded!.version }],
            attempts: [],
            series: [],
          });
          assert.deepEqual(result, { ok: true }, `update ${mask}`);
          last = next;
        }
        const [stored] = (await store.load({ occurrences: [o.id] })).occurrences;
        assert.deepEqual(stored, last);
      } finally {
        await pool.end();
        await schema.drop();
      }
    });
  });
}
