import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AttemptRecord, DueCursor, OccurrenceRecord, Store } from '../ports.js';

/** What {@link runStoreConformance} needs: a fresh, empty store per call, and how to dispose of it. */
export interface StoreHarness {
  store: Store;
  close?(): void | Promise<void>;
}

const T0 = Date.UTC(2027, 2, 14, 7, 0, 0);
let counter = 0;
/** A well-formed UUID-shaped id that sorts by creation order. */
function id(prefix: string): string {
  counter++;
  return `${prefix}${String(counter).padStart(7, '0')}-0000-4000-8000-000000000000`;
}

/** A complete occurrence record for tests, with every field set; `overrides` wins. */
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
    ...overrides,
  };
}

/**
 * Registers the Store port's conformance tests (node:test) for one implementation. Every
 * Store the host or an embedder writes must pass them.
 *
 * @param name - shown in the test names, e.g. `'SqliteStore'`.
 * @param factory - returns a fresh, empty store (called once per test).
 *
 * @example
 * runStoreConformance('MemoryStore', () => ({ store: new MemoryStore() }));
 */
export function runStoreConformance(name: string, factory: () => StoreHarness | Promise<StoreHarness>): void {
  describe(`Store conformance: ${name}`, () => {
    let h: StoreHarness;
    const fresh = async (): Promise<Store> => {
      await h?.close?.();
      h = await factory();
      return h.store;
    };
    before(async () => {
      h = await factory();
    });
    after(async () => {
      await h?.close?.();
    });

    it('round-trips an occurrence with every field', async () => {
      const store = await fresh();
      const o = sampleOccurrence({ label: null, message: null, missReason: 'busy', derivationSource: 'weekly' });
      store.transact((tx) => tx.insertOccurrence(o));
      assert.deepEqual(
        store.transact((tx) => tx.getOccurrence(o.id)),
        o,
      );
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
      store.transact((tx) => tx.insertOccurrence(nulls));
      assert.deepEqual(
        store.transact((tx) => tx.getOccurrence(nulls.id)),
        nulls,
      );
    });

    it('round-trips an attempt with every field', async () => {
      const store = await fresh();
      const full = sampleAttempt({
        occurrenceId: null,
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
        script: { kind: 'wake_up', greetingName: null, message: 'hi', snoozeAllowed: true, voice: 'female' },
      });
      const bare = sampleAttempt({ accountId: null, script: null, kind: 'demo' });
      store.transact((tx) => {
        tx.insertAttempt(full);
        tx.insertAttempt(bare);
      });
      assert.deepEqual(
        store.transact((tx) => tx.getAttempt(full.id)),
        full,
      );
      assert.deepEqual(
        store.transact((tx) => tx.getAttempt(bare.id)),
        bare,
      );
    });

    it('returns undefined for unknown ids', async () => {
      const store = await fresh();
      store.transact((tx) => {
        assert.equal(tx.getOccurrence('00000000-0000-4000-8000-000000000000'), undefined);
        assert.equal(tx.getAttempt('00000000-0000-4000-8000-000000000000'), undefined);
      });
    });

    it('refuses a duplicate insert and an update of a missing row', async () => {
      const store = await fresh();
      const o = sampleOccurrence();
      const a = sampleAttempt();
      store.transact((tx) => {
        tx.insertOccurrence(o);
        tx.insertAttempt(a);
      });
      assert.throws(() => store.transact((tx) => tx.insertOccurrence(o)));
      assert.throws(() => store.transact((tx) => tx.insertAttempt(a)));
      assert.throws(() => store.transact((tx) => tx.updateOccurrence(sampleOccurrence())));
      assert.throws(() => store.transact((tx) => tx.updateAttempt(sampleAttempt())));
    });

    it('updates replace every field', async () => {
      const store = await fresh();
      const o = sampleOccurrence();
      const a = sampleAttempt({ occurrenceId: o.id, kind: 'first', script: null });
      store.transact((tx) => {
        tx.insertOccurrence(o);
        tx.insertAttempt(a);
      });
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
      };
      const a2: AttemptRecord = { ...a, status: 'confirmed', digits: '1', answeredBy: 'person', providerCallId: 'C1', deadlineAt: null };
      store.transact((tx) => {
        tx.updateOccurrence(o2);
        tx.updateAttempt(a2);
      });
      assert.deepEqual(
        store.transact((tx) => tx.getOccurrence(o.id)),
        o2,
      );
      assert.deepEqual(
        store.transact((tx) => tx.getAttempt(a.id)),
        a2,
      );
    });

    it('does not let a caller mutate stored records through returned or given objects', async () => {
      const store = await fresh();
      const o = sampleOccurrence();
      store.transact((tx) => tx.insertOccurrence(o));
      o.policy.offsetsMinutes.push(99);
      o.label = 'mutated';
      const read = store.transact((tx) => tx.getOccurrence(o.id))!;
      assert.deepEqual(read.policy.offsetsMinutes, [5, 10]);
      assert.equal(read.label, 'Gym');
      read.policy.offsetsMinutes.push(42);
      assert.deepEqual(store.transact((tx) => tx.getOccurrence(o.id))!.policy.offsetsMinutes, [5, 10]);
    });

    it('transact returns the value of fn and rolls everything back when fn throws', async () => {
      const store = await fresh();
      const o = sampleOccurrence();
      assert.equal(
        store.transact(() => 42),
        42,
      );
      store.transact((tx) => tx.insertOccurrence(o));
      const a = sampleAttempt();
      assert.throws(
        () =>
          store.transact((tx) => {
            tx.insertAttempt(a);
            tx.updateOccurrence({ ...o, status: 'cancelled' });
            throw new Error('boom');
          }),
        /boom/,
      );
      store.transact((tx) => {
        assert.equal(tx.getAttempt(a.id), undefined);
        assert.equal(tx.getOccurrence(o.id)!.status, 'pending');
      });
    });

    it('sees its own writes inside a unit of work', async () => {
      const store = await fresh();
      const o = sampleOccurrence();
      store.transact((tx) => {
        tx.insertOccurrence(o);
        assert.equal(tx.getOccurrence(o.id)!.id, o.id);
        tx.updateOccurrence({ ...o, status: 'waiting' });
        assert.equal(tx.getOccurrence(o.id)!.status, 'waiting');
        assert.equal(tx.listDue(o.nextDueAt!, 10).length, 1);
      });
    });

    it('a nested transact is a savepoint: an inner throw caught by the outer undoes only the inner changes', async () => {
      const store = await fresh();
      const kept = sampleOccurrence();
      const dropped = sampleOccurrence();
      store.transact((tx) => {
        tx.insertOccurrence(kept);
        try {
          store.transact((inner) => {
            inner.insertOccurrence(dropped);
            throw new Error('inner');
          });
        } catch {
          /* expected */
        }
      });
      store.transact((tx) => {
        assert.ok(tx.getOccurrence(kept.id));
        assert.equal(tx.getOccurrence(dropped.id), undefined);
      });
      // An outer throw undoes a completed inner unit too.
      const both = sampleOccurrence();
      assert.throws(() =>
        store.transact((tx) => {
          store.transact((inner) => inner.insertOccurrence(both));
          assert.ok(tx.getOccurrence(both.id));
          throw new Error('outer');
        }),
      );
      assert.equal(
        store.transact((tx) => tx.getOccurrence(both.id)),
        undefined,
      );
    });

    it('after an inner unit of work is rolled back, the outer one writes what it asks for', async () => {
      const store = await fresh();
      const o = sampleOccurrence();
      store.transact((tx) => tx.insertOccurrence(o));
      store.transact((tx) => {
        const read = tx.getOccurrence(o.id)!;
        try {
          store.transact((inner) => {
            inner.updateOccurrence({ ...read, status: 'waiting', attemptCount: 1 });
            throw new Error('inner');
          });
        } catch {
          /* expected */
        }
        tx.updateOccurrence({ ...read, status: 'waiting', attemptCount: 1 });
      });
      const after = store.transact((tx) => tx.getOccurrence(o.id))!;
      assert.equal(after.status, 'waiting');
      assert.equal(after.attemptCount, 1);
    });

    it('lists attempts of an occurrence by n', async () => {
      const store = await fresh();
      const o = sampleOccurrence();
      const other = sampleOccurrence();
      store.transact((tx) => {
        tx.insertOccurrence(o);
        tx.insertOccurrence(other);
        for (const n of [3, 1, 2])
          tx.insertAttempt(sampleAttempt({ occurrenceId: o.id, n, kind: n === 1 ? 'first' : 'retry', script: null }));
        tx.insertAttempt(sampleAttempt({ occurrenceId: other.id, n: 1, script: null }));
      });
      const list = store.transact((tx) => tx.listAttempts(o.id));
      assert.deepEqual(
        list.map((a) => a.n),
        [1, 2, 3],
      );
      assert.ok(list.every((a) => a.occurrenceId === o.id));
      assert.deepEqual(
        store.transact((tx) => tx.listAttempts('00000000-0000-4000-8000-00000000dead')),
        [],
      );
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
      const owned = sampleAttempt({ occurrenceId: occ[0]!.id, deadlineAt: T0 - 5, kind: 'first', script: null });
      store.transact((tx) => {
        for (const o of occ) tx.insertOccurrence(o);
        tx.insertAttempt(standalone);
        tx.insertAttempt(finished);
        tx.insertAttempt(owned);
      });
      const all = store.transact((tx) => tx.listDue(T0 + 2000, 100));
      const sortedIds = [occ[1]!.id, occ[2]!.id].sort();
      assert.deepEqual(all, [
        { kind: 'attempt', id: standalone.id, at: T0 },
        { kind: 'occurrence', id: sortedIds[0], at: T0 },
        { kind: 'occurrence', id: sortedIds[1], at: T0 },
        { kind: 'occurrence', id: occ[0]!.id, at: T0 + 2000 },
      ]);
      const page1 = store.transact((tx) => tx.listDue(T0 + 2000, 2));
      assert.deepEqual(page1, all.slice(0, 2));
      const last = page1[1]!;
      const page2 = store.transact((tx) => tx.listDue(T0 + 2000, 2, last));
      assert.deepEqual(page2, all.slice(2, 4));
      assert.deepEqual(
        store.transact((tx) => tx.listDue(T0 + 2000, 2, all[3])),
        [],
      );
      assert.deepEqual(
        store.transact((tx) => tx.listDue(T0 - 1, 10)),
        [],
      );
    });

    it('lists unacknowledged attempts (requested, no provider call id) by id', async () => {
      const store = await fresh();
      const a1 = sampleAttempt({ status: 'requested', providerCallId: null });
      const a2 = sampleAttempt({ status: 'requested', providerCallId: 'CA-1' });
      const a3 = sampleAttempt({ status: 'ringing', providerCallId: null });
      const a4 = sampleAttempt({ status: 'requested', providerCallId: null });
      store.transact((tx) => [a1, a2, a3, a4].forEach((a) => tx.insertAttempt(a)));
      const ids = store.transact((tx) => tx.listUnacknowledgedAttempts(10)).map((a) => a.id);
      assert.deepEqual(ids, [a1.id, a4.id].sort());
      assert.deepEqual(
        store.transact((tx) => tx.listUnacknowledgedAttempts(1)).map((a) => a.id),
        [ids[0]],
      );
      assert.deepEqual(
        store.transact((tx) => tx.listUnacknowledgedAttempts(10, ids[0])).map((a) => a.id),
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
      store.transact((tx) => rows.forEach((o) => tx.insertOccurrence(o)));
      const ids = store.transact((tx) => tx.listPendingFallbacks(10)).map((o) => o.id);
      assert.deepEqual(ids, [rows[0]!.id, rows[2]!.id].sort());
      assert.deepEqual(
        store.transact((tx) => tx.listPendingFallbacks(10, ids[0])).map((o) => o.id),
        [ids[1]],
      );
    });

    it('keeps many rows written in one unit of work', async () => {
      const store = await fresh();
      const rows = Array.from({ length: 2000 }, (_, i) => sampleOccurrence({ nextDueAt: T0 + (i % 7) }));
      store.transact((tx) => rows.forEach((o) => tx.insertOccurrence(o)));
      let cursor: DueCursor | undefined;
      let seen = 0;
      let prev = -Infinity;
      for (;;) {
        const page = store.transact((tx) => tx.listDue(T0 + 10, 333, cursor));
        if (page.length === 0) break;
        for (const r of page) {
          assert.ok(r.at >= prev);
          prev = r.at;
        }
        seen += page.length;
        cursor = page[page.length - 1];
      }
      assert.equal(seen, rows.length);
    });
  });
}
