/**
 * Issue 14, item 7: time-zone rules change with little notice. Each pending occurrence records
 * the zone rules' version it was resolved under; when the runtime is told the rules changed
 * (and at start) pending occurrences of another version are resolved again from their
 * series' wall time, with a notice, and never one that is ringing.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createRuntime, type RuntimeEventMap, type SeriesInput } from '../../engine/index.js';
import {
  useZoneRulesSource,
  zoneRulesVersion,
  ZoneRules,
  type ZoneRulesSource,
} from '../../engine/internals.js';
import { MemoryStore, MemoryTelephony, VirtualClock } from '../../engine/sim/index.js';

const HOUR = 3_600_000;
const iso = (t: number) => new Date(t).toISOString().replace('.000Z', 'Z');

/** The runtime's own rules, except New York, which (in this fiction) stays on UTC-6 all year. */
function newYorkMovesWest(version: string): ZoneRulesSource {
  const real = new Map<string, ZoneRules>();
  return {
    version,
    offsetAt(zone, at) {
      if (zone === 'America/New_York') return -6 * HOUR;
      let r = real.get(zone);
      if (!r) real.set(zone, (r = new ZoneRules(zone)));
      return r.intlOffset(at);
    },
  };
}

function series(localTime: string, label: string): SeriesInput {
  return {
    accountId: 'a1',
    to: label === 'ringing' ? '+14155550001' : '+14155550002',
    label,
    rule: {
      kind: 'weekly',
      timezone: 'America/New_York',
      localTime,
      daysOfWeek: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      startDate: null,
      endDate: null,
      pausedUntil: null,
      skipDates: [],
    },
    policy: { maxSnoozes: 0, offsetsMinutes: [], ringTimeoutSeconds: 60, snoozeMinutes: 1 },
  };
}

describe('zone rules change (tzdata version per pending occurrence)', () => {
  after(() => useZoneRulesSource(null));

  it('re-resolves a pending occurrence from its wall time with a notice, and leaves a ringing one alone', async () => {
    const clock = new VirtualClock(Date.parse('2027-03-01T11:58:30Z'));
    const store = new MemoryStore();
    const phones = new MemoryTelephony({ clock });
    phones.setPhone('+14155550001', 'confirm', 40); // rings 40 s before answering
    const runtime = createRuntime({
      clock,
      ids: { uuid: () => crypto.randomUUID() },
      store,
      telephony: phones,
    });
    const notices: RuntimeEventMap['occurrence:reresolved'][] = [];
    runtime.on('occurrence:reresolved', (e) => notices.push(e));
    await runtime.start();
    const before = zoneRulesVersion();
    const ringing = await runtime.saveSeries(series('06:59', 'ringing'));
    const pending = await runtime.saveSeries(series('07:00', 'pending'));
    assert.ok(ringing.occurrence && pending.occurrence);
    assert.equal(pending.occurrence.tzdataVersion, before);
    assert.equal(pending.occurrence.localDate, '2027-03-01');
    assert.equal(iso(pending.occurrence.scheduledAt), '2027-03-01T12:00:00Z');
    await clock.advance(Date.parse('2027-03-01T11:59:05Z'));
    await runtime.idle();
    const live = (await store.load({ occurrences: [ringing.occurrence.id] })).occurrences[0]!;
    assert.equal(live.status, 'calling');

    useZoneRulesSource(newYorkMovesWest('2099z'));
    assert.equal(await runtime.rulesChanged(), 1);
    const moved = (await store.load({ occurrences: [pending.occurrence.id] })).occurrences[0]!;
    assert.equal(iso(moved.scheduledAt), '2027-03-01T13:00:00Z', '07:00 at UTC-6');
    assert.equal(moved.tzdataVersion, '2099z');
    assert.equal(moved.id, pending.occurrence.id, 'the same occurrence, amended');
    const still = (await store.load({ occurrences: [ringing.occurrence.id] })).occurrences[0]!;
    assert.equal(still.scheduledAt, live.scheduledAt, 'a ringing call is never moved');
    assert.equal(notices.length, 1);
    assert.equal(notices[0]!.from, Date.parse('2027-03-01T12:00:00Z'));
    assert.equal(notices[0]!.version, '2099z');
    assert.equal(iso(notices[0]!.occurrence.scheduledAt), '2027-03-01T13:00:00Z');
    assert.equal(notices[0]!.occurrence.localDate, '2027-03-01');
    assert.equal(await runtime.rulesChanged(), 0, 'nothing left to move');

    // It rings at the new instant, and the series' next calls follow the new rules.
    await clock.advance(Date.parse('2027-03-02T14:00:00Z'));
    await runtime.idle();
    const placed = phones.calls
      .filter((c) => c.request.to === '+14155550002')
      .map((c) => iso(c.placedAt));
    assert.deepEqual(placed, ['2027-03-01T13:00:00Z', '2027-03-02T13:00:00Z']);
    await runtime.stop();
    useZoneRulesSource(null);
  });

  it('re-resolves at start what was resolved under the rules of a previous run', async () => {
    const clock = new VirtualClock(Date.parse('2027-03-01T00:00:00Z'));
    const store = new MemoryStore();
    const first = createRuntime({
      clock,
      ids: { uuid: () => crypto.randomUUID() },
      store,
      telephony: new MemoryTelephony({ clock }),
    });
    await first.start();
    const s = await first.saveSeries(series('07:00', 'pending'));
    await first.stop();
    useZoneRulesSource(newYorkMovesWest('2099y'));
    const second = createRuntime({
      clock,
      ids: { uuid: () => crypto.randomUUID() },
      store,
      telephony: new MemoryTelephony({ clock }),
    });
    const notices: string[] = [];
    second.on('occurrence:reresolved', (e) => notices.push(e.version));
    await second.start();
    const o = (await store.load({ occurrences: [s.occurrence!.id] })).occurrences[0]!;
    assert.equal(iso(o.scheduledAt), '2027-03-01T13:00:00Z');
    assert.equal(o.tzdataVersion, '2099y');
    assert.equal(notices.length, 1);
    await second.stop();
    useZoneRulesSource(null);
  });
});
