/**
 * Series in the engine, through the runtime's public API with the virtual clock: every rule
 * kind, pause and skip, end dates, rule changes while an occurrence is pending or ringing,
 * a crash between finishing an occurrence and creating the next, and the store round trips
 * a unit of work makes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  OccurrenceRecord,
  SeriesInput,
  SeriesRecord,
  WeeklyRecurrence,
} from '../../engine/index.js';
import { MemoryStore, VirtualClock } from '../../engine/sim/index.js';
import { harness, MIN, PHONE } from './harness.js';

const DAY = 86_400_000;
/** Monday 2027-03-01, 00:00 UTC. */
const MON = Date.UTC(2027, 2, 1);
const NY = 'America/New_York';

function weekly(overrides: Partial<WeeklyRecurrence> = {}): WeeklyRecurrence {
  return {
    kind: 'weekly',
    timezone: NY,
    localTime: '07:00',
    daysOfWeek: ['mon', 'tue', 'wed', 'thu', 'fri'],
    startDate: '2027-03-01',
    endDate: null,
    pausedUntil: null,
    skipDates: [],
    ...overrides,
  };
}

function input(rule: SeriesInput['rule'], overrides: Partial<SeriesInput> = {}): SeriesInput {
  return {
    accountId: 'a1',
    phoneNumberId: 'p1',
    to: PHONE,
    rule,
    label: 'Alarm',
    policy: noRetry,
    ...overrides,
  };
}

const noRetry = { maxSnoozes: 0, offsetsMinutes: [], ringTimeoutSeconds: 15, snoozeMinutes: 1 };
const iso = (t: number) => new Date(t).toISOString();

async function seriesOf(store: MemoryStore, id: string): Promise<SeriesRecord> {
  return (await store.load({ series: [id] })).series[0]!;
}

describe('series: rule kinds', () => {
  it('a weekly series rings on each selected local day at the wall time, one occurrence at a time', async () => {
    const store = new MemoryStore();
    const h = await harness({}, { store, start: MON });
    const r = await h.runtime.saveSeries(input(weekly()));
    assert.equal(iso(r.occurrence!.scheduledAt), '2027-03-01T12:00:00.000Z', '07:00 EST');
    await h.at(Date.UTC(2027, 2, 16));
    const rang = store.occurrencesOf(r.series.id).filter((o) => o.status === 'confirmed');
    // Mar 1-5 (EST, 12:00Z), Mar 8-12 (EDT from Mar 14? no: DST starts 2027-03-14), Mar 15 (EDT, 11:00Z).
    assert.deepEqual(
      rang.map((o) => iso(o.scheduledAt)),
      [1, 2, 3, 4, 5, 8, 9, 10, 11, 12]
        .map((d) => `2027-03-${String(d).padStart(2, '0')}T12:00:00.000Z`)
        .concat(['2027-03-15T11:00:00.000Z']),
    );
    const unfinished = store.occurrencesOf(r.series.id).filter((o) => o.status === 'pending');
    assert.equal(unfinished.length, 1, 'exactly one pending occurrence');
    assert.equal((await seriesOf(store, r.series.id)).nextOccurrenceId, unfinished[0]!.id);
    await h.runtime.stop();
  });

  it('a one-off at a wall time rings once and completes the series', async () => {
    const store = new MemoryStore();
    const h = await harness({}, { store, start: MON });
    const r = await h.runtime.saveSeries(
      input({
        kind: 'one_off',
        timezone: 'Europe/Paris',
        localDate: '2027-03-02',
        localTime: '06:30',
      }),
    );
    assert.equal(iso(r.occurrence!.scheduledAt), '2027-03-02T05:30:00.000Z');
    assert.equal(r.occurrence!.derivationSource, 'one_off');
    await h.at(MON + 3 * DAY);
    assert.deepEqual(
      store.occurrencesOf(r.series.id).map((o) => o.status),
      ['confirmed'],
    );
    const s = await seriesOf(store, r.series.id);
    assert.equal(s.status, 'completed');
    assert.equal(s.nextOccurrenceId, null);
    await h.runtime.stop();
  });

  it('a one-off in N minutes rings at its instant', async () => {
    const store = new MemoryStore();
    const h = await harness({}, { store, start: MON });
    const r = await h.runtime.saveSeries(
      input({ kind: 'in_minutes', timezone: 'UTC', at: MON + 20 * MIN }),
    );
    assert.equal(r.occurrence!.derivationSource, 'in_minutes');
    await h.at(MON + 30 * MIN);
    const [o] = store.occurrencesOf(r.series.id);
    assert.equal(o!.status, 'confirmed');
    assert.equal((await h.attempts(o!.id))[0]!.requestedAt, MON + 20 * MIN);
    assert.equal((await seriesOf(store, r.series.id)).status, 'completed');
    await h.runtime.stop();
  });

  it('a rule with no call left saves a completed series without an occurrence', async () => {
    const store = new MemoryStore();
    const h = await harness({}, { store, start: MON });
    const r = await h.runtime.saveSeries(
      input({ kind: 'one_off', timezone: NY, localDate: '2027-02-01', localTime: '07:00' }),
    );
    assert.equal(r.occurrence, null);
    assert.equal(r.series.status, 'completed');
    assert.equal(store.size.occurrences, 0);
    await h.runtime.stop();
  });
});

describe('series: pause, skip and end dates', () => {
  it('rings nothing up to and including pausedUntil, then resumes', async () => {
    const store = new MemoryStore();
    const h = await harness({}, { store, start: MON });
    const r = await h.runtime.saveSeries(input(weekly({ pausedUntil: '2027-03-03' })));
    assert.equal(iso(r.occurrence!.scheduledAt), '2027-03-04T12:00:00.000Z');
    await h.at(MON + 5 * DAY);
    assert.deepEqual(
      store
        .occurrencesOf(r.series.id)
        .filter((o) => o.status === 'confirmed')
        .map((o) => iso(o.scheduledAt).slice(0, 10)),
      ['2027-03-04', '2027-03-05'],
    );
    await h.runtime.stop();
  });

  it('pausing a series moves its pending call past the pause, in one unit of work', async () => {
    const store = new MemoryStore();
    const h = await harness({}, { store, start: MON });
    const r = await h.runtime.saveSeries(input(weekly()));
    const paused = await h.runtime.saveSeries(
      input(weekly({ pausedUntil: '2027-03-09' }), { id: r.series.id }),
    );
    assert.equal(
      paused.occurrence!.id,
      r.occurrence!.id,
      'the pending occurrence is amended in place',
    );
    assert.equal(iso(paused.occurrence!.scheduledAt), '2027-03-10T12:00:00.000Z');
    await h.runtime.stop();
  });

  it('skips listed dates, and skipNext moves the pending call to the following one', async () => {
    const store = new MemoryStore();
    const h = await harness({}, { store, start: MON });
    const r = await h.runtime.saveSeries(input(weekly({ skipDates: ['2027-03-01'] })));
    assert.equal(iso(r.occurrence!.scheduledAt), '2027-03-02T12:00:00.000Z');
    const skipped = await h.runtime.skipNext(r.series.id);
    assert.equal(iso(skipped.occurrence!.scheduledAt), '2027-03-03T12:00:00.000Z');
    assert.deepEqual(skipped.series.rule.kind === 'weekly' && skipped.series.rule.skipDates, [
      '2027-03-01',
      '2027-03-02',
    ]);
    await h.at(MON + 4 * DAY);
    assert.deepEqual(
      store.occurrencesOf(r.series.id).map((o) => [iso(o.scheduledAt).slice(0, 10), o.status]),
      [
        ['2027-03-03', 'confirmed'],
        ['2027-03-04', 'confirmed'],
        ['2027-03-05', 'pending'],
      ],
    );
    const one = await h.runtime.saveSeries(
      input({ kind: 'one_off', timezone: NY, localDate: '2027-03-20', localTime: '07:00' }),
    );
    await assert.rejects(h.runtime.skipNext(one.series.id), {
      name: 'EngineError',
      code: 'not_recurring',
    });
    await h.runtime.stop();
  });

  it('stops after the end date and completes the series', async () => {
    const store = new MemoryStore();
    const h = await harness({}, { store, start: MON });
    const r = await h.runtime.saveSeries(input(weekly({ endDate: '2027-03-03' })));
    await h.at(MON + 10 * DAY);
    assert.equal(store.occurrencesOf(r.series.id).length, 3);
    const s = await seriesOf(store, r.series.id);
    assert.equal(s.status, 'completed');
    assert.equal(s.nextOccurrenceId, null);
    await h.runtime.stop();
  });

  it('turning a series off cancels its pending call and makes no other', async () => {
    const store = new MemoryStore();
    const h = await harness({}, { store, start: MON });
    const r = await h.runtime.saveSeries(input(weekly()));
    const off = await h.runtime.saveSeries(input(weekly(), { id: r.series.id, enabled: false }));
    assert.equal(off.series.status, 'disabled');
    assert.equal(off.occurrence, null);
    assert.equal((await h.occurrence(r.occurrence!.id)).status, 'cancelled');
    await h.at(MON + 3 * DAY);
    assert.equal(store.occurrencesOf(r.series.id).length, 1);
    await h.runtime.stop();
  });
});

describe('series: rule changes and cancellations', () => {
  it('a rule change while the occurrence is pending amends it; cancelling it makes the next one in the same unit', async () => {
    const store = new MemoryStore();
    const h = await harness({}, { store, start: MON });
    const r = await h.runtime.saveSeries(input(weekly()));
    const moved = await h.runtime.saveSeries(
      input(weekly({ localTime: '06:15' }), { id: r.series.id, label: 'Early' }),
    );
    assert.equal(moved.occurrence!.id, r.occurrence!.id);
    assert.equal(iso(moved.occurrence!.scheduledAt), '2027-03-01T11:15:00.000Z');
    assert.equal(moved.occurrence!.label, 'Early');
    const commits = store.calls.commit;
    await h.runtime.cancel(r.occurrence!.id);
    assert.equal(
      store.calls.commit,
      commits + 1,
      'the cancel and the next occurrence are one commit',
    );
    const s = await seriesOf(store, r.series.id);
    const next = await h.occurrence(s.nextOccurrenceId!);
    assert.equal(next.status, 'pending');
    assert.equal(iso(next.scheduledAt), '2027-03-02T11:15:00.000Z');
    await h.runtime.stop();
  });

  it('a rule change while the call rings leaves that call alone; the next one follows the new rule', async () => {
    const store = new MemoryStore();
    const h = await harness({}, { store, start: MON });
    h.phones.setPhone(PHONE, 'confirm', 10);
    const r = await h.runtime.saveSeries(input(weekly()));
    await h.at(Date.UTC(2027, 2, 1, 12, 0, 5));
    assert.equal((await h.occurrence(r.occurrence!.id)).status, 'calling');
    // An explicit instant for the current call is refused while it rings.
    await assert.rejects(
      h.runtime.saveSeries(input(weekly({ localTime: '08:00' }), { id: r.series.id }), {
        at: MON + DAY,
      }),
      { name: 'EngineError', code: 'occurrence_in_progress' },
    );
    const changed = await h.runtime.saveSeries(
      input(weekly({ localTime: '08:00' }), { id: r.series.id }),
    );
    assert.equal(changed.occurrence!.id, r.occurrence!.id, 'the ringing occurrence is kept');
    assert.equal(changed.occurrence!.scheduledAt, r.occurrence!.scheduledAt);
    await h.at(MON + DAY);
    assert.equal((await h.occurrence(r.occurrence!.id)).status, 'confirmed');
    const s = await seriesOf(store, r.series.id);
    assert.equal(
      iso((await h.occurrence(s.nextOccurrenceId!)).scheduledAt),
      '2027-03-02T13:00:00.000Z',
      'next at 08:00 EST',
    );
    await h.runtime.stop();
  });

  it('a due spike of many series makes a few loads and commits, not one per row, and each gets its next occurrence', async () => {
    const store = new MemoryStore();
    const h = await harness({ batchSize: 512 }, { store, start: MON });
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      const r = await h.runtime.saveSeries(input(weekly(), { to: `+1415555${1000 + i}` }));
      ids.push(r.series.id);
    }
    const before = { ...store.calls };
    await h.at(Date.UTC(2027, 2, 1, 12, 0, 0));
    // 50 rows: two dispatch units (the first unit takes 32 rows, then units grow) and the
    // units recording the provider's acceptances; each is one load and one commit.
    const loads = store.calls.load - before.load;
    assert.ok(loads >= 1 && loads <= 4, `${loads} loads for 50 rows`);
    assert.equal(store.calls.commit - before.commit, loads, 'one commit per load');
    await h.at(Date.UTC(2027, 2, 1, 13));
    for (const id of ids) {
      const list = store.occurrencesOf(id);
      assert.deepEqual(
        list.map((o) => o.status),
        ['confirmed', 'pending'],
      );
    }
    await h.runtime.stop();
  });
});

describe('series: crash recovery', () => {
  it('a series left with a finished occurrence and no next one gets exactly one after a restart (and not a second after another)', async () => {
    const store = new MemoryStore();
    const clock = new VirtualClock(MON);
    const first = await harness({}, { store, clock });
    const r = await first.runtime.saveSeries(input(weekly()));
    await first.at(Date.UTC(2027, 2, 1, 13));
    await first.runtime.stop();
    // The crash: the state an interrupted two-step writer leaves (occurrence finished, series still naming it).
    const s = await seriesOf(store, r.series.id);
    const next = await first.occurrence(s.nextOccurrenceId!);
    const done = await first.occurrence(r.occurrence!.id);
    assert.deepEqual(
      await store.commit({
        series: [
          {
            record: { ...s, nextOccurrenceId: done.id, version: s.version + 1 },
            expectedVersion: s.version,
          },
        ],
        occurrences: [
          {
            record: { ...next, status: 'cancelled', nextDueAt: null, version: next.version + 1 },
            expectedVersion: next.version,
          },
        ],
        attempts: [],
      }),
      { ok: true },
    );
    for (let i = 0; i < 2; i++) {
      const again = await harness({}, { store, clock });
      await again.runtime.idle();
      const pending: OccurrenceRecord[] = store
        .occurrencesOf(r.series.id)
        .filter((o) => o.status === 'pending');
      assert.equal(pending.length, 1, `exactly one next occurrence after restart ${i + 1}`);
      assert.equal(iso(pending[0]!.scheduledAt), '2027-03-02T12:00:00.000Z');
      assert.equal((await seriesOf(store, r.series.id)).nextOccurrenceId, pending[0]!.id);
      await again.runtime.stop();
    }
  });

  it('after downtime, the repaired series does not ring calls more than the late grace in the past', async () => {
    const store = new MemoryStore();
    const clock = new VirtualClock(MON);
    const first = await harness({}, { store, clock });
    const r = await first.runtime.saveSeries(input(weekly()));
    await first.runtime.stop();
    // Down for a week, with the series naming no occurrence.
    const s = await seriesOf(store, r.series.id);
    await store.commit({
      series: [
        {
          record: { ...s, nextOccurrenceId: null, version: s.version + 1 },
          expectedVersion: s.version,
        },
      ],
      occurrences: [],
      attempts: [],
    });
    await clock.advance(Date.UTC(2027, 2, 8, 12, 3)); // 3 minutes after Monday's 07:00 EST call
    const again = await harness({}, { store, clock });
    await again.runtime.idle();
    const rest = store
      .occurrencesOf(r.series.id)
      .filter((o) => o.status !== 'cancelled' && o.id !== r.occurrence!.id);
    assert.equal(rest.length, 1);
    assert.equal(
      iso(rest[0]!.scheduledAt),
      '2027-03-08T12:00:00.000Z',
      'within the grace: still rung',
    );
    await again.runtime.stop();
  });
});
