import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { ChangeSet, DueCursor, Store, StoreWrite } from '../ports.js';
import type { AttemptRecord, OccurrenceRecord, SeriesRecord } from '../model.js';

/** What {@link runStoreConformance} needs: a fresh, empty store per call, and how to dispose of it. */
export interface StoreHarness {
  /** The store under test, fresh and empty. */
  store: Store;
  /**
   * A second store over the same data, as another process would open it (its own
   * connections). Given only by stores that several processes share: the lease cases run
   * with it, and are skipped (saying so) without it.
   */
  another?(): Store | Promise<Store>;
  /** Disposes of the store (closes its database) before the next test's harness is made. */
  close?(): void | Promise<void>;
  /**
   * Writes of the caller's for {@link Store.commit}'s `writes`, over this store's connection:
   * `write(tag)` records `tag` (say, a row in a table of the caller's), and `written()` answers
   * the tags stored so far, in order. The cases of writes that commit with the unit, or roll it
   * back, run with it, and are skipped (saying so) without it.
   */
  writes?: {
    write(tag: string): StoreWrite;
    written(): Promise<string[]>;
  };
}

const T0 = Date.UTC(2027, 2, 14, 7, 0, 0);
let counter = 0;
/** A well-formed UUID-shaped id that sorts by creation order. */
function id(prefix: string): string {
  counter++;
  return `${prefix}${String(counter).padStart(7, '0')}-0000-4000-8000-000000000000`;
}

/**
 * A complete occurrence record for tests, with every field set; `overrides` wins.
 *
 * @example
 * const o = sampleOccurrence({ status: 'waiting', accountId: 'a1' });
 * await store.commit({ occurrences: [{ record: o, expectedVersion: null }], attempts: [], series: [] });
 */
export function sampleOccurrence(overrides: Partial<OccurrenceRecord> = {}): OccurrenceRecord {
  return {
    id: id('0'),
    scheduleId: id('5'),
    accountId: id('a'),
    phoneNumberId: id('b'),
    to: '+14155550123',
    label: 'Gym',
    message: 'Bring the blue bag',
    greetingName: 'Sam',
    voice: 'female',
    timezone: 'America/Los_Angeles',
    derivationSource: 'one_off',
    scheduledAt: T0,
    policy: { maxSnoozes: 2, offsetsMinutes: [5, 10], ringTimeoutSeconds: 45, snoozeMinutes: 9 },
    smsFallback: true,
    backupAlarm: true,
    status: 'pending',
    outcomeReason: null,
    attemptCount: 0,
    snoozeCount: 0,
    seriesBase: T0,
    retryIndex: 0,
    nextDueAt: T0,
    liveAttemptId: null,
    backupAlarmAt: T0 + 120_000,
    reachedPerson: false,
    reachedVoicemail: false,
    missReason: null,
    fallbackState: 'none',
    dispatchedAt: null,
    confirmedAt: null,
    finishedAt: null,
    createdAt: T0 - 86_400_000,
    updatedAt: T0 - 86_400_000,
    version: 1,
    localDate: '2027-03-14',
    tzdataVersion: '2025b',
    ...overrides,
  };
}

/** A complete attempt record for tests; `overrides` wins. */
export function sampleAttempt(overrides: Partial<AttemptRecord> = {}): AttemptRecord {
  const attemptId = overrides.id ?? id('c');
  return {
    id: attemptId,
    occurrenceId: null,
    accountId: id('a'),
    phoneNumberId: null,
    kind: 'test',
    n: 1,
    status: 'requested',
    to: '+447700900123',
    dueAt: T0,
    createdAt: T0,
    requestedAt: T0,
    ringingAt: null,
    answeredAt: null,
    endedAt: null,
    answeredBy: null,
    digits: null,
    durationSeconds: null,
    errorCode: null,
    providerCallId: null,
    idempotencyKey: attemptId,
    ringTimeoutSeconds: 45,
    deadlineAt: T0 + 60_000,
    script: { kind: 'test', greetingName: 'Sam', voice: 'male' },
    updatedAt: T0,
    version: 1,
    ...overrides,
  };
}

/** A complete series record for tests (weekly, every field set); `overrides` wins. */
export function sampleSeries(overrides: Partial<SeriesRecord> = {}): SeriesRecord {
  return {
    id: id('5'),
    accountId: id('a'),
    phoneNumberId: id('b'),
    to: '+14155550123',
    label: 'Weekdays',
    message: 'Stand-up at nine',
    greetingName: 'Sam',
    voice: 'female',
    rule: {
      kind: 'weekly',
      timezone: 'America/New_York',
      localTime: '07:00',
      daysOfWeek: ['mon', 'tue', 'wed', 'thu', 'fri'],
      startDate: '2027-03-01',
      endDate: null,
      pausedUntil: null,
      skipDates: ['2027-03-17'],
    },
    policy: { maxSnoozes: 2, offsetsMinutes: [5, 10], ringTimeoutSeconds: 45, snoozeMinutes: 9 },
    smsFallback: true,
    backupAlarm: false,
    enabled: true,
    status: 'active',
    nextOccurrenceId: null,
    version: 1,
    createdAt: T0 - 86_400_000,
    updatedAt: T0 - 86_400_000,
    attributes: '{"source":"app","shown":["07:00"]}',
    ...overrides,
  };
}

/** A change set inserting the given rows. */
function inserts(rows: {
  occurrences?: OccurrenceRecord[];
  attempts?: AttemptRecord[];
  series?: SeriesRecord[];
}): ChangeSet {
  return {
    occurrences: (rows.occurrences ?? []).map((record) => ({ record, expectedVersion: null })),
    attempts: (rows.attempts ?? []).map((record) => ({ record, expectedVersion: null })),
    series: (rows.series ?? []).map((record) => ({ record, expectedVersion: null })),
  };
}

/** A change set updating one occurrence read at `from.version` to `to` (version bumped). */
function bump(from: OccurrenceRecord, to: Partial<OccurrenceRecord>): ChangeSet {
  return {
    occurrences: [
      { record: { ...from, ...to, version: from.version + 1 }, expectedVersion: from.version },
    ],
    attempts: [],
    series: [],
  };
}

/**
 * Registers the Store port's conformance tests (node:test) for one implementation. Every
 * Store the host or an embedder writes must pass them, the concurrent units included.
 *
 * @param name - shown in the test names, e.g. `'SqliteStore'`.
 * @param factory - returns a fresh, empty store (called once per test).
 *
 * @example
 * runStoreConformance('MemoryStore', () => ({ store: new MemoryStore() }));
 */
export function runStoreConformance(
  name: string,
  factory: () => StoreHarness | Promise<StoreHarness>,
): void {
  describe(`Store conformance: ${name}`, () => {
    let h: StoreHarness | undefined;
    const fresh = async (): Promise<Store> => {
      await h?.close?.();
      h = await factory();
      return h.store;
    };
    after(async () => {
      await h?.close?.();
    });
    const one = async (store: Store, kind: 'occurrences' | 'attempts' | 'series', id: string) => {
      const snap = await store.load({ [kind]: [id] });
      return (snap[kind] as { id: string }[]).find((r) => r.id === id);
    };

    it('round-trips an occurrence, an attempt and a series with every field', async () => {
      const store = await fresh();
      const o = sampleOccurrence({
        label: null,
        message: null,
        missReason: 'busy',
        derivationSource: 'weekly',
        version: 7,
      });
      const nulls = sampleOccurrence({
        scheduleId: null,
        phoneNumberId: null,
        greetingName: null,
        voice: null,
        timezone: null,
        nextDueAt: null,
        backupAlarmAt: null,
        policy: { maxSnoozes: 0, offsetsMinutes: [], ringTimeoutSeconds: 15, snoozeMinutes: 1 },
        smsFallback: false,
        backupAlarm: false,
      });
      const full = sampleAttempt({
        phoneNumberId: 'p-1',
        status: 'voicemail',
        ringingAt: T0 + 1000,
        answeredAt: T0 + 5000,
        endedAt: T0 + 9000,
        answeredBy: 'machine',
        digits: '12',
        durationSeconds: 4,
        errorCode: 'x',
        providerCallId: 'CA123',
        deadlineAt: null,
        script: {
          kind: 'wake_up',
          greetingName: null,
          message: 'hi',
          snoozeAllowed: true,
          voice: 'female',
        },
      });
      const bare = sampleAttempt({ accountId: null, script: null, kind: 'demo' });
      const weekly = sampleSeries();
      const once = sampleSeries({
        rule: {
          kind: 'one_off',
          timezone: 'Europe/Paris',
          localDate: '2027-04-01',
          localTime: '06:15',
        },
        phoneNumberId: null,
        label: null,
        message: null,
        greetingName: null,
        voice: null,
        status: 'completed',
        enabled: false,
      });
      const soon = sampleSeries({
        rule: { kind: 'in_minutes', timezone: 'UTC', at: T0 + 5 * 60_000 },
        nextOccurrenceId: o.id,
      });
      assert.deepEqual(
        await store.commit(
          inserts({
            occurrences: [o, nulls],
            attempts: [full, bare],
            series: [weekly, once, soon],
          }),
        ),
        {
          ok: true,
        },
      );
      assert.deepEqual(await one(store, 'occurrences', o.id), o);
      assert.deepEqual(await one(store, 'occurrences', nulls.id), nulls);
      assert.deepEqual(await one(store, 'attempts', full.id), full);
      assert.deepEqual(await one(store, 'attempts', bare.id), bare);
      assert.deepEqual(await one(store, 'series', weekly.id), weekly);
      assert.deepEqual(await one(store, 'series', once.id), once);
      assert.deepEqual(await one(store, 'series', soon.id), soon);
    });

    it('leaves unknown ids out of a load', async () => {
      const store = await fresh();
      const none = '00000000-0000-4000-8000-000000000000';
      assert.deepEqual(
        await store.load({ occurrences: [none], attempts: [none], series: [none] }),
        {
          occurrences: [],
          attempts: [],
          series: [],
        },
      );
      assert.deepEqual(await store.load({}), { occurrences: [], attempts: [], series: [] });
    });

    it('loads the rows that come with the named ones in one call', async () => {
      const store = await fresh();
      const s = sampleSeries();
      const o = sampleOccurrence({ scheduleId: s.id, status: 'calling' });
      const live = sampleAttempt({
        occurrenceId: o.id,
        kind: 'first',
        script: null,
        status: 'ringing',
      });
      const old = sampleAttempt({
        occurrenceId: o.id,
        kind: 'first',
        script: null,
        status: 'no_answer',
        n: 1,
      });
      const linked = { ...o, liveAttemptId: live.id };
      await store.commit(
        inserts({
          series: [{ ...s, nextOccurrenceId: o.id }],
          occurrences: [linked],
          attempts: [live, old],
        }),
      );
      const byAttempt = await store.load({ attempts: [live.id] });
      assert.deepEqual(
        byAttempt.attempts.map((a) => a.id),
        [live.id],
      );
      assert.deepEqual(
        byAttempt.occurrences.map((x) => x.id),
        [o.id],
      );
      assert.deepEqual(
        byAttempt.series.map((x) => x.id),
        [s.id],
      );
      const byOccurrence = await store.load({ occurrences: [o.id] });
      assert.deepEqual(
        byOccurrence.attempts.map((a) => a.id),
        [live.id],
      );
      assert.deepEqual(
        byOccurrence.series.map((x) => x.id),
        [s.id],
      );
      const bySeries = await store.load({ series: [s.id] });
      assert.deepEqual(
        bySeries.occurrences.map((x) => x.id),
        [o.id],
      );
      assert.deepEqual(
        bySeries.attempts.map((a) => a.id),
        [live.id],
      );
      // Named twice, directly and through another row: once.
      const both = await store.load({
        occurrences: [o.id, o.id],
        attempts: [live.id],
        series: [s.id],
      });
      assert.equal(both.occurrences.length, 1);
      assert.equal(both.attempts.length, 1);
      assert.equal(both.series.length, 1);
    });

    it('refuses a duplicate insert and an update of a missing row, naming them', async () => {
      const store = await fresh();
      const o = sampleOccurrence();
      const a = sampleAttempt();
      const s = sampleSeries();
      assert.equal(
        (await store.commit(inserts({ occurrences: [o], attempts: [a], series: [s] }))).ok,
        true,
      );
      assert.deepEqual(await store.commit(inserts({ occurrences: [o] })), {
        ok: false,
        conflicts: [{ kind: 'occurrence', id: o.id }],
      });
      assert.deepEqual(await store.commit(inserts({ attempts: [a] })), {
        ok: false,
        conflicts: [{ kind: 'attempt', id: a.id }],
      });
      assert.deepEqual(await store.commit(inserts({ series: [s] })), {
        ok: false,
        conflicts: [{ kind: 'series', id: s.id }],
      });
      const missing = sampleOccurrence();
      assert.deepEqual(await store.commit(bump(missing, {})), {
        ok: false,
        conflicts: [{ kind: 'occurrence', id: missing.id }],
      });
    });

    it('updates replace every field, and a stale version is refused', async () => {
      const store = await fresh();
      const o = sampleOccurrence();
      const a = sampleAttempt({ occurrenceId: o.id, kind: 'first', script: null });
      const s = sampleSeries();
      await store.commit(inserts({ occurrences: [o], attempts: [a], series: [s] }));
      const o2: OccurrenceRecord = {
        ...o,
        status: 'confirmed',
        outcomeReason: 'confirmed',
        attemptCount: 3,
        snoozeCount: 1,
        retryIndex: 1,
        seriesBase: T0 + 1,
        nextDueAt: null,
        liveAttemptId: a.id,
        reachedPerson: true,
        reachedVoicemail: true,
        fallbackState: 'sent',
        dispatchedAt: T0,
        confirmedAt: T0 + 5,
        finishedAt: T0 + 6,
        updatedAt: T0 + 6,
        policy: { ...o.policy, offsetsMinutes: [1, 2, 3] },
        label: 'Changed',
        version: 2,
      };
      const a2: AttemptRecord = {
        ...a,
        status: 'confirmed',
        digits: '1',
        answeredBy: 'person',
        providerCallId: 'C1',
        deadlineAt: null,
        version: 2,
      };
      const s2: SeriesRecord = {
        ...s,
        rule: {
          kind: 'weekly',
          timezone: 'Asia/Tokyo',
          localTime: '05:45',
          daysOfWeek: ['sun'],
          startDate: null,
          endDate: '2027-12-31',
          pausedUntil: '2027-04-01',
          skipDates: [],
        },
        nextOccurrenceId: o.id,
        enabled: false,
        status: 'disabled',
        version: 2,
      };
      const r = await store.commit({
        occurrences: [{ record: o2, expectedVersion: 1 }],
        attempts: [{ record: a2, expectedVersion: 1 }],
        series: [{ record: s2, expectedVersion: 1 }],
      });
      assert.deepEqual(r, { ok: true });
      assert.deepEqual(await one(store, 'occurrences', o.id), o2);
      assert.deepEqual(await one(store, 'attempts', a.id), a2);
      assert.deepEqual(await one(store, 'series', s.id), s2);
      // Written again from the version-1 read: refused, nothing changes.
      assert.deepEqual(await store.commit(bump(o, { label: 'Late' })), {
        ok: false,
        conflicts: [{ kind: 'occurrence', id: o.id }],
      });
      assert.equal(((await one(store, 'occurrences', o.id)) as OccurrenceRecord).label, 'Changed');
    });

    it('a commit with one conflicting row writes none of its rows', async () => {
      const store = await fresh();
      const o = sampleOccurrence();
      const other = sampleOccurrence();
      await store.commit(inserts({ occurrences: [o, other] }));
      const fresh1 = sampleOccurrence();
      const a = sampleAttempt();
      const r = await store.commit({
        occurrences: [
          { record: fresh1, expectedVersion: null },
          { record: { ...o, status: 'cancelled', version: 2 }, expectedVersion: 1 },
          { record: { ...other, status: 'cancelled', version: 6 }, expectedVersion: 5 },
        ],
        attempts: [{ record: a, expectedVersion: null }],
        series: [],
      });
      assert.deepEqual(r, { ok: false, conflicts: [{ kind: 'occurrence', id: other.id }] });
      const snap = await store.load({ occurrences: [fresh1.id, o.id], attempts: [a.id] });
      assert.deepEqual(
        snap.occurrences.map((x) => [x.id, x.status]),
        [[o.id, 'pending']],
      );
      assert.deepEqual(snap.attempts, []);
    });

    it('does not let a caller change stored records through returned or given objects', async () => {
      const store = await fresh();
      const o = sampleOccurrence();
      const s = sampleSeries();
      await store.commit(inserts({ occurrences: [o], series: [s] }));
      o.policy.offsetsMinutes.push(99);
      o.label = 'mutated';
      (s.rule as unknown as { skipDates: string[] }).skipDates.push('2099-01-01');
      const read = (await one(store, 'occurrences', o.id)) as OccurrenceRecord;
      assert.deepEqual(read.policy.offsetsMinutes, [5, 10]);
      assert.equal(read.label, 'Gym');
      read.policy.offsetsMinutes.push(42);
      assert.deepEqual(
        ((await one(store, 'occurrences', o.id)) as OccurrenceRecord).policy.offsetsMinutes,
        [5, 10],
      );
      const sr = (await one(store, 'series', s.id)) as SeriesRecord;
      assert.deepEqual(sr.rule.kind === 'weekly' && sr.rule.skipDates, ['2027-03-17']);
    });

    it('two units racing on one occurrence: exactly one commit wins, the other sees a conflict and wins on retry', async () => {
      const store = await fresh();
      const o = sampleOccurrence();
      await store.commit(inserts({ occurrences: [o] }));
      // Both load before either commits (what two processes, or two interleaved units, do):
      // a barrier, since a networked store's loads need not finish in the order they started.
      let arrived = 0;
      let release: () => void = () => {};
      const barrier = new Promise<void>((r) => (release = r));
      const unit = async (label: string) => {
        const [read] = (await store.load({ occurrences: [o.id] })).occurrences;
        if (++arrived === 2) release();
        await barrier;
        return { label, read: read!, result: await store.commit(bump(read!, { label })) };
      };
      const [x, y] = await Promise.all([unit('x'), unit('y')]);
      const wins = [x, y].filter((u) => u.result.ok);
      assert.equal(wins.length, 1, 'exactly one commit wins');
      const loser = x.result.ok ? y : x;
      assert.deepEqual(loser.result, { ok: false, conflicts: [{ kind: 'occurrence', id: o.id }] });
      assert.equal(
        ((await one(store, 'occurrences', o.id)) as OccurrenceRecord).label,
        wins[0]!.label,
      );
      // The loser reloads and retries: now it wins.
      const [again] = (await store.load({ occurrences: [o.id] })).occurrences;
      assert.equal(again!.version, 2);
      assert.deepEqual(await store.commit(bump(again!, { label: loser.label })), { ok: true });
      assert.equal(
        ((await one(store, 'occurrences', o.id)) as OccurrenceRecord).label,
        loser.label,
      );
    });

    it('many concurrent units on overlapping rows: every row ends at the number of winning commits', async () => {
      const store = await fresh();
      const rows = Array.from({ length: 5 }, () => sampleOccurrence({ attemptCount: 0 }));
      await store.commit(inserts({ occurrences: rows }));
      let wins = 0;
      // Each unit increments attemptCount on two neighbouring rows, retrying on conflict.
      const unit = async (i: number) => {
        const ids = [rows[i % 5]!.id, rows[(i + 1) % 5]!.id];
        for (let tries = 0; tries < 50; tries++) {
          const snap = await store.load({ occurrences: ids });
          await new Promise((r) => setImmediate(r));
          const r = await store.commit({
            occurrences: snap.occurrences.map((x) => ({
              record: { ...x, attemptCount: x.attemptCount + 1, version: x.version + 1 },
              expectedVersion: x.version,
            })),
            attempts: [],
            series: [],
          });
          if (r.ok) {
            wins++;
            return;
          }
        }
        throw new Error('unit never won');
      };
      await Promise.all(Array.from({ length: 20 }, (_, i) => unit(i)));
      assert.equal(wins, 20);
      const snap = await store.load({ occurrences: rows.map((r) => r.id) });
      assert.equal(
        snap.occurrences.reduce((n, x) => n + x.attemptCount, 0),
        40,
        'no lost update',
      );
    });

    it('lists attempts of an occurrence by n', async () => {
      const store = await fresh();
      const o = sampleOccurrence();
      const other = sampleOccurrence();
      const list = [3, 1, 2].map((n) =>
        sampleAttempt({ occurrenceId: o.id, n, kind: n === 1 ? 'first' : 'retry', script: null }),
      );
      await store.commit(
        inserts({
          occurrences: [o, other],
          attempts: [...list, sampleAttempt({ occurrenceId: other.id, n: 1, script: null })],
        }),
      );
      const got = await store.listAttempts(o.id);
      assert.deepEqual(
        got.map((a) => a.n),
        [1, 2, 3],
      );
      assert.deepEqual(await store.listAttempts('00000000-0000-4000-8000-00000000dead'), []);
    });

    it('lists due work in (at, kind, id) order up to `until`, with keyset paging', async () => {
      const store = await fresh();
      const occ = [
        sampleOccurrence({ nextDueAt: T0 + 2000 }),
        sampleOccurrence({ nextDueAt: T0 }),
        sampleOccurrence({ nextDueAt: T0 }),
        sampleOccurrence({ nextDueAt: T0 + 9000 }),
        sampleOccurrence({ nextDueAt: null, status: 'confirmed' }),
      ];
      const standalone = sampleAttempt({ deadlineAt: T0 });
      const finished = sampleAttempt({ deadlineAt: null, status: 'confirmed' });
      const owned = sampleAttempt({
        occurrenceId: occ[0]!.id,
        deadlineAt: T0 - 5,
        kind: 'first',
        script: null,
      });
      await store.commit(inserts({ occurrences: occ, attempts: [standalone, finished, owned] }));
      const all = await store.listDue({ until: T0 + 2000, limit: 100 });
      const sortedIds = [occ[1]!.id, occ[2]!.id].sort();
      assert.deepEqual(all, [
        { kind: 'attempt', id: standalone.id, at: T0 },
        { kind: 'occurrence', id: sortedIds[0], at: T0 },
        { kind: 'occurrence', id: sortedIds[1], at: T0 },
        { kind: 'occurrence', id: occ[0]!.id, at: T0 + 2000 },
      ]);
      const page1 = await store.listDue({ until: T0 + 2000, limit: 2 });
      assert.deepEqual(page1, all.slice(0, 2));
      assert.deepEqual(
        await store.listDue({ until: T0 + 2000, limit: 2, after: page1[1]! }),
        all.slice(2, 4),
      );
      assert.deepEqual(await store.listDue({ until: T0 + 2000, limit: 2, after: all[3]! }), []);
      assert.deepEqual(await store.listDue({ until: T0 - 1, limit: 10 }), []);
      // A store for one process may ignore a lease, but must accept it.
      assert.equal(
        (
          await store.listDue({
            until: T0 + 2000,
            limit: 100,
            lease: { owner: 'p1', until: T0 + 60_000 },
          })
        ).length,
        4,
      );
    });

    it('lists unacknowledged attempts (requested, no provider call id) by id', async () => {
      const store = await fresh();
      const a1 = sampleAttempt({ status: 'requested', providerCallId: null });
      const a2 = sampleAttempt({ status: 'requested', providerCallId: 'CA-1' });
      const a3 = sampleAttempt({ status: 'ringing', providerCallId: null });
      const a4 = sampleAttempt({ status: 'requested', providerCallId: null });
      await store.commit(inserts({ attempts: [a1, a2, a3, a4] }));
      const ids = (await store.listUnacknowledgedAttempts(10)).map((a) => a.id);
      assert.deepEqual(ids, [a1.id, a4.id].sort());
      assert.deepEqual(
        (await store.listUnacknowledgedAttempts(1)).map((a) => a.id),
        [ids[0]],
      );
      assert.deepEqual(
        (await store.listUnacknowledgedAttempts(10, ids[0])).map((a) => a.id),
        [ids[1]],
      );
    });

    it('lists occurrences with a pending fallback text by id', async () => {
      const store = await fresh();
      const rows = [
        sampleOccurrence({ fallbackState: 'pending', status: 'missed', nextDueAt: null }),
        sampleOccurrence({ fallbackState: 'sent', status: 'missed', nextDueAt: null }),
        sampleOccurrence({ fallbackState: 'pending', status: 'unconfirmed', nextDueAt: null }),
      ];
      await store.commit(inserts({ occurrences: rows }));
      const ids = (await store.listPendingFallbacks(10)).map((o) => o.id);
      assert.deepEqual(ids, [rows[0]!.id, rows[2]!.id].sort());
      assert.deepEqual(
        (await store.listPendingFallbacks(10, ids[0])).map((o) => o.id),
        [ids[1]],
      );
    });

    it('lists pending occurrences resolved under other zone rules by id', async () => {
      const store = await fresh();
      const rows = [
        sampleOccurrence({ tzdataVersion: '2025a' }),
        sampleOccurrence({ tzdataVersion: '2025b' }), // current
        sampleOccurrence({ tzdataVersion: null, localDate: null }), // an instant: never re-resolved
        sampleOccurrence({ tzdataVersion: '2024c', status: 'calling' }), // ringing: never moved
        sampleOccurrence({ tzdataVersion: '2024c' }),
      ];
      await store.commit(inserts({ occurrences: rows }));
      const ids = (await store.listStaleZoneOccurrences('2025b', 10)).map((o) => o.id);
      assert.deepEqual(ids, [rows[0]!.id, rows[4]!.id].sort());
      assert.deepEqual(
        (await store.listStaleZoneOccurrences('2025b', 10, ids[0])).map((o) => o.id),
        [ids[1]],
      );
    });

    it('lists active series without an unfinished next occurrence by id', async () => {
      const store = await fresh();
      const pending = sampleOccurrence({ status: 'pending' });
      const waiting = sampleOccurrence({ status: 'waiting' });
      const done = sampleOccurrence({ status: 'confirmed', nextDueAt: null });
      const rows = [
        sampleSeries({ nextOccurrenceId: null }), // needs one
        sampleSeries({ nextOccurrenceId: pending.id }),
        sampleSeries({ nextOccurrenceId: waiting.id }),
        sampleSeries({ nextOccurrenceId: done.id }), // needs one
        sampleSeries({ nextOccurrenceId: '00000000-0000-4000-8000-00000000dead' }), // needs one
        sampleSeries({ nextOccurrenceId: null, status: 'completed' }),
        sampleSeries({ nextOccurrenceId: null, enabled: false, status: 'disabled' }),
      ];
      await store.commit(inserts({ occurrences: [pending, waiting, done], series: rows }));
      const ids = (await store.listSeriesWithoutNext(10)).map((s) => s.id);
      assert.deepEqual(ids, [rows[0]!.id, rows[3]!.id, rows[4]!.id].sort());
      assert.deepEqual(
        (await store.listSeriesWithoutNext(1, ids[0])).map((s) => s.id),
        [ids[1]],
      );
    });

    /** Every due row up to `until`, claimed page by page (small pages: the claimers interleave). */
    const claimAll = async (
      store: Store,
      owner: string,
      now: number,
      until: number,
    ): Promise<string[]> => {
      const got: string[] = [];
      let cursor: DueCursor | undefined;
      for (;;) {
        const page = await store.listDue({
          until,
          limit: 7,
          ...(cursor ? { after: cursor } : {}),
          lease: { owner, until: now + 30_000, now },
        });
        if (page.length === 0) return got;
        got.push(...page.map((r) => `${r.kind}:${r.id}`));
        cursor = page[page.length - 1];
      }
    };

    it('leases: two processes claiming at once never get the same due row while its lease lives', async (t) => {
      const store = await fresh();
      if (!h?.another) {
        t.skip(
          `${name} serves one process (its harness opens no second store): leases are not checked`,
        );
        return;
      }
      const other = await h.another();
      const occ = Array.from({ length: 400 }, (_, i) =>
        sampleOccurrence({ nextDueAt: T0 + (i % 4) }),
      );
      const att = Array.from({ length: 4 }, () => sampleAttempt({ deadlineAt: T0 + 1 }));
      const later = sampleOccurrence({ nextDueAt: T0 + 60_000 });
      await store.commit(inserts({ occurrences: [...occ, later], attempts: att }));
      const now = T0 + 10;
      const [x, y] = await Promise.all([
        claimAll(store, 'host-a', now, now),
        claimAll(other, 'host-b', now, now),
      ]);
      const overlap = x.filter((k) => y.includes(k));
      assert.deepEqual(overlap, [], 'no row claimed by both');
      assert.equal(
        new Set([...x, ...y]).size,
        occ.length + att.length,
        'every due row claimed once, nothing beyond until',
      );
      // While the leases live, each sees only its own rows again (an owner may re-claim its own).
      const yAgain = await claimAll(other, 'host-b', now + 1000, now);
      assert.deepEqual(yAgain.sort(), [...y].sort());
      const zAgain = await claimAll(other, 'host-c', now + 1000, now);
      assert.deepEqual(zAgain, [], 'a third owner gets nothing while the leases live');
      // A listing without a lease (one process) still sees every due row.
      assert.equal(
        (await other.listDue({ until: now, limit: 1000 })).length,
        occ.length + att.length,
      );
    });

    it('leases: an expired lease is claimed by another process, whose claim fences out the old owner’s commit', async (t) => {
      const store = await fresh();
      if (!h?.another) {
        t.skip(
          `${name} serves one process (its harness opens no second store): leases are not checked`,
        );
        return;
      }
      const other = await h.another();
      const o = sampleOccurrence({ nextDueAt: T0 });
      const a = sampleAttempt({ deadlineAt: T0 });
      await store.commit(inserts({ occurrences: [o], attempts: [a] }));
      const lease = (owner: string, now: number) => ({ owner, until: T0 + 1000, now });
      assert.equal(
        (await store.listDue({ until: T0, limit: 10, lease: lease('host-a', T0) })).length,
        2,
      );
      // host-a loads its claimed rows (a unit of work), then pauses.
      const readA = await store.load({ occurrences: [o.id], attempts: [a.id] });
      // Re-claiming its own rows does not change their version: its unit stays valid.
      assert.equal(
        (await store.listDue({ until: T0, limit: 10, lease: lease('host-a', T0 + 500) })).length,
        2,
      );
      assert.deepEqual(
        (await store.load({ occurrences: [o.id] })).occurrences[0]!.version,
        readA.occurrences[0]!.version,
      );
      // host-b finds them leased until T0 + 1000, then free.
      assert.deepEqual(
        await other.listDue({
          until: T0,
          limit: 10,
          lease: { owner: 'host-b', until: T0 + 1999, now: T0 + 999 },
        }),
        [],
      );
      const claimed = await other.listDue({
        until: T0,
        limit: 10,
        lease: { owner: 'host-b', until: T0 + 2000, now: T0 + 1000 },
      });
      assert.deepEqual(
        claimed.map((r) => r.id),
        [a.id, o.id],
      );
      // host-a wakes up and commits from its old read: refused, both rows named.
      const oa = readA.occurrences[0]!;
      const aa = readA.attempts.find((x) => x.id === a.id)!;
      const stale = await store.commit({
        occurrences: [
          {
            record: { ...oa, status: 'dispatching', version: oa.version + 1 },
            expectedVersion: oa.version,
          },
        ],
        attempts: [
          {
            record: { ...aa, status: 'ringing', version: aa.version + 1 },
            expectedVersion: aa.version,
          },
        ],
        series: [],
      });
      assert.equal(stale.ok, false);
      assert.deepEqual(stale.ok ? [] : stale.conflicts.map((c) => c.kind).sort(), [
        'attempt',
        'occurrence',
      ]);
      // host-b's unit, from its own read, commits.
      const readB = await other.load({ occurrences: [o.id] });
      const ob = readB.occurrences[0]!;
      assert.ok(ob.version > oa.version, 'the new owner’s claim moved the version');
      assert.deepEqual(await other.commit(bump(ob, { status: 'dispatching' })), { ok: true });
      assert.equal(
        (await store.load({ occurrences: [o.id] })).occurrences[0]!.status,
        'dispatching',
      );
    });

    it('keeps many rows written in one commit, and pages through them', async () => {
      const store = await fresh();
      const rows = Array.from({ length: 2000 }, (_, i) =>
        sampleOccurrence({ nextDueAt: T0 + (i % 7) }),
      );
      await store.commit(inserts({ occurrences: rows }));
      let cursor: DueCursor | undefined;
      let seen = 0;
      let prev = -Infinity;
      for (;;) {
        const page = await store.listDue({
          until: T0 + 10,
          limit: 333,
          ...(cursor ? { after: cursor } : {}),
        });
        if (page.length === 0) break;
        for (const r of page) {
          assert.ok(r.at >= prev);
          prev = r.at;
        }
        seen += page.length;
        cursor = page[page.length - 1];
      }
      assert.equal(seen, rows.length);
      const snap = await store.load({ occurrences: rows.map((r) => r.id) });
      assert.equal(snap.occurrences.length, rows.length);
    });
    describe("the caller's writes in the commit", () => {
      const NO_WRITES =
        'the harness gives no writes: the cases of writes made in the commit are not run';
      const writesOf = () => {
        if (!h?.writes) throw new Error(NO_WRITES);
        return h.writes;
      };
      const failing: StoreWrite = async () => {
        await Promise.resolve();
        throw new Error('the caller refused');
      };

      it('stores them with the unit, in order, after its rows', async (t) => {
        const store = await fresh();
        if (!h?.writes) return t.skip(NO_WRITES);
        const w = writesOf();
        const o = sampleOccurrence({ nextDueAt: T0 });
        assert.deepEqual(
          await store.commit(inserts({ occurrences: [o] }), {
            writes: [w.write('a'), w.write('b')],
          }),
          { ok: true },
        );
        assert.deepEqual(await w.written(), ['a', 'b']);
        assert.deepEqual(await one(store, 'occurrences', o.id), o);
        assert.deepEqual(
          await store.commit(bump(o, { status: 'dispatching' })),
          { ok: true },
          'no writes: a commit as before',
        );
        assert.deepEqual(await w.written(), ['a', 'b']);
      });

      it('runs none when the commit is refused', async (t) => {
        const store = await fresh();
        if (!h?.writes) return t.skip(NO_WRITES);
        const w = writesOf();
        const o = sampleOccurrence();
        await store.commit(inserts({ occurrences: [o] }));
        const r = await store.commit(inserts({ occurrences: [o] }), { writes: [w.write('never')] });
        assert.equal(r.ok, false);
        assert.deepEqual(await w.written(), []);
      });

      it('rolls the whole unit back when one throws, and the store goes on as the database is', async (t) => {
        const store = await fresh();
        if (!h?.writes) return t.skip(NO_WRITES);
        const w = writesOf();
        const o = sampleOccurrence({ nextDueAt: T0 });
        await store.commit(inserts({ occurrences: [o] }));
        const fresh2 = sampleOccurrence({ nextDueAt: T0 + 1 });
        const change = bump(o, { status: 'dispatching', nextDueAt: T0 + 5 });
        change.occurrences.push({ record: fresh2, expectedVersion: null });
        await assert.rejects(
          store.commit(change, { writes: [w.write('first'), failing, w.write('after')] }),
          /the caller refused/,
        );
        assert.deepEqual(await w.written(), [], 'the write before the failure is rolled back too');
        assert.deepEqual(await one(store, 'occurrences', o.id), o, 'the row is as it was');
        assert.equal(await one(store, 'occurrences', fresh2.id), undefined, 'the insert is gone');
        assert.deepEqual(
          (await store.listDue({ until: T0 + 10, limit: 10 }))
            .filter((r) => r.id === o.id || r.id === fresh2.id)
            .map((r) => [r.id, r.at]),
          [[o.id, T0]],
          'due as before the failed unit',
        );
        // The same unit again, from the rows the caller kept: written now, with its writes.
        assert.deepEqual(await store.commit(change, { writes: [w.write('again')] }), { ok: true });
        assert.deepEqual(await w.written(), ['again']);
        assert.equal(
          ((await one(store, 'occurrences', o.id)) as OccurrenceRecord).status,
          'dispatching',
        );
        assert.deepEqual((await one(store, 'occurrences', fresh2.id))!, fresh2);
      });
    });
  });
}
