/**
 * Travel through HTTP on the virtual clock: mismatches within 36 hours for devices east and
 * west of the call's zone, the suggestion (and its date rolling on when the wall time has
 * passed there), the move of a one-off and of a recurring call across the date line
 * (Pacific/Auckland to America/Los_Angeles), amended in place with derivation_source moved,
 * its re-check (400, nothing moved), 409 when not pending or ringing, Idempotency-Key, a move
 * across a clock change, and the traveller's notice (clock_changes, notice).
 */
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { call } from '../helpers/phone.js';
import { settledDb } from '../helpers/server.js';
import {
  assertSchema,
  create,
  setup,
  snapshot,
  NUMBER,
  type Fixture,
} from './schedules-fixture.js';

const DAILY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** Registers a device with the fixture's session (which it binds) and reports `zone`; returns the context. */
async function report(f: Fixture, zone: string): Promise<any> {
  const d = await f.api('POST', '/devices', {
    installation_id: INSTALL.get(f) ?? newInstall(f),
    platform: 'ios',
  });
  assert.ok(d.status === 200 || d.status === 201, JSON.stringify(d.body));
  const r = await f.api('POST', `/devices/${d.body.id}/timezone`, { timezone: zone });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assertSchema('TimezoneContext', r.body);
  return r.body;
}
const INSTALL = new WeakMap<Fixture, string>();
function newInstall(f: Fixture): string {
  const id = randomUUID();
  INSTALL.set(f, id);
  return id;
}
async function context(f: Fixture): Promise<any> {
  const r = await f.api('GET', '/me/timezone-context');
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assertSchema('TimezoneContext', r.body);
  return r.body;
}
const move = (f: Fixture, occurrenceId: string, body: unknown, headers?: Record<string, string>) =>
  f.api('POST', `/occurrences/${occurrenceId}/move`, body, headers);

describe('GET /me/timezone-context and the time-zone report', () => {
  let f: Fixture;
  afterEach(async () => {
    await f.server.close();
  });

  it('lists pending calls within 36 hours whose clock differs, east and west of the call, each with a suggestion', async () => {
    f = await setup(); // now 2027-03-10T12:00Z, home America/New_York
    const none = await context(f);
    assert.deepEqual(none, {
      device_id: null,
      device_timezone: null,
      device_timezone_reported_at: null,
      home_timezone: 'America/New_York',
      mismatches: [],
      clock_changes: [],
    });
    const ny = await create(f, { kind: 'once', local_date: '2027-03-11', local_time: '07:00' }); // 12:00Z
    const soon = await create(f, { kind: 'once', in_minutes: 60 }); // 13:00Z, no wall time
    await create(f, {
      kind: 'once',
      local_date: '2027-03-11',
      local_time: '08:00',
      timezone: 'Europe/Berlin',
    }); // same offset as Paris
    await create(f, { kind: 'once', local_date: '2027-03-12', local_time: '07:00' }); // 48 h ahead: outside the window

    const east = await report(f, 'Europe/Paris');
    assert.deepEqual(
      east.mismatches.map((m: any) => m.occurrence_id),
      [soon.next_occurrence.id, ny.next_occurrence.id],
      'soonest first; Berlin and the call 48 hours ahead are not listed',
    );
    assert.equal(
      east.mismatches[0].suggested,
      null,
      'an in-N-minutes call has no wall time to carry over',
    );
    assert.deepEqual(east.mismatches[1], {
      occurrence_id: ny.next_occurrence.id,
      schedule_id: ny.id,
      scheduled_at: '2027-03-11T12:00:00Z',
      scheduled_local: '07:00',
      scheduled_local_date: '2027-03-11',
      scheduled_zone: 'America/New_York',
      scheduled_utc_offset: '-05:00',
      in_device_zone: '13:00',
      in_device_zone_date: '2027-03-11',
      device_zone: 'Europe/Paris',
      device_utc_offset: '+01:00',
      suggested: {
        local_date: '2027-03-11',
        local_time: '07:00',
        timezone: 'Europe/Paris',
        scheduled_at: '2027-03-11T06:00:00Z',
        utc_offset: '+01:00',
        wall_time_kind: 'normal',
        notice: null,
      },
      notice: null,
    });
    assert.equal(east.device_timezone, 'Europe/Paris');

    const west = await report(f, 'America/Los_Angeles');
    const m = west.mismatches.find((x: any) => x.occurrence_id === ny.next_occurrence.id);
    assert.deepEqual(
      [
        m.in_device_zone,
        m.in_device_zone_date,
        m.device_utc_offset,
        m.suggested.scheduled_at,
        m.suggested.utc_offset,
      ],
      ['04:00', '2027-03-11', '-08:00', '2027-03-11T15:00:00Z', '-08:00'],
    );
    assert.deepEqual(await context(f), west, 'GET answers what the last report answered');

    // Far east: the wall time on the call's date has already passed there, so the next date.
    const evening = await create(f, {
      kind: 'once',
      local_date: '2027-03-10',
      local_time: '20:00',
    }); // 2027-03-11T01:00Z
    const nz = await report(f, 'Pacific/Auckland');
    const e = nz.mismatches.find((x: any) => x.occurrence_id === evening.next_occurrence.id);
    assert.deepEqual(
      [e.in_device_zone_date, e.in_device_zone, e.suggested.local_date, e.suggested.scheduled_at],
      ['2027-03-11', '14:00', '2027-03-11', '2027-03-11T07:00:00Z'],
    );
  });

  it('the context follows the device the app session is bound to, else the newest report', async () => {
    f = await setup();
    await create(f, { kind: 'once', local_date: '2027-03-11', local_time: '07:00' });
    await report(f, 'Europe/Paris'); // the fixture's session is bound to this device
    const other = await f.api('POST', '/devices', {
      installation_id: randomUUID(),
      platform: 'android',
    });
    await f.advance(60);
    const tokyo = await f.api('POST', `/devices/${other.body.id}/timezone`, {
      timezone: 'Asia/Tokyo',
    });
    assert.equal(tokyo.body.device_timezone, 'Asia/Tokyo', 'the report answers its own device');
    assert.equal((await context(f)).device_timezone, 'Europe/Paris', 'the bound device');
    const key = (await f.api('POST', '/api-keys', { name: 'k' })).body.key;
    const byKey = await call(f.server, 'GET', '/me/timezone-context', { token: key });
    assert.equal(byKey.body.device_timezone, 'Asia/Tokyo', 'no bound device: the newest report');
  });
});

describe('POST /occurrences/{id}/move', () => {
  let f: Fixture;
  afterEach(async () => {
    await f.server.close();
  });

  it('moves a recurring call across the date line (Auckland to Los Angeles): same occurrence, still pending, days kept', async () => {
    f = await setup(); // 2027-03-10T12:00Z = 2027-03-11 01:00 in Auckland
    const s = await create(f, {
      kind: 'recurring',
      days_of_week: DAILY,
      local_time: '07:00',
      timezone: 'Pacific/Auckland',
    });
    const occ = s.next_occurrence.id;
    assert.equal(s.next_occurrence.scheduled_at, '2027-03-10T18:00:00Z');
    const ctx = await report(f, 'America/Los_Angeles');
    const m = ctx.mismatches[0];
    assert.deepEqual(
      [m.scheduled_local_date, m.scheduled_local, m.in_device_zone_date, m.in_device_zone],
      ['2027-03-11', '07:00', '2027-03-10', '10:00'],
    );
    assert.deepEqual(
      [m.suggested.local_date, m.suggested.scheduled_at],
      ['2027-03-11', '2027-03-11T15:00:00Z'],
    );

    // The re-check: anything but the current suggestion moves nothing.
    const before = await snapshot(f.server);
    const wrongDate = await move(f, occ, {
      timezone: 'America/Los_Angeles',
      local_date: '2027-03-12',
    });
    assert.deepEqual(
      [wrongDate.status, wrongDate.body.code, wrongDate.body.field],
      [400, 'validation_error', 'local_date'],
    );
    const wrongZone = await move(f, occ, { timezone: 'America/Denver', local_date: '2027-03-11' });
    assert.deepEqual(
      [wrongZone.status, wrongZone.body.code, wrongZone.body.field],
      [400, 'validation_error', 'timezone'],
    );
    const badZone = await move(f, occ, { timezone: 'Nowhere/City', local_date: '2027-03-11' });
    assert.deepEqual([badZone.status, badZone.body.code], [400, 'invalid_timezone']);
    const missing = await move(f, occ, { timezone: 'America/Los_Angeles' });
    assert.deepEqual([missing.status, missing.body.code], [400, 'validation_error']);
    const unknown = await move(f, randomUUID(), {
      timezone: 'America/Los_Angeles',
      local_date: '2027-03-11',
    });
    assert.deepEqual([unknown.status, unknown.body.code], [404, 'not_found']);
    assert.equal(await snapshot(f.server), before, 'nothing moved');

    const body = { timezone: m.suggested.timezone, local_date: m.suggested.local_date };
    const r = await move(f, occ, body, { 'Idempotency-Key': 'move-1' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assertSchema('ScheduleOut', r.body);
    assert.deepEqual(
      [r.body.timezone, r.body.local_time, r.body.days_of_week, r.body.kind, r.body.status],
      ['America/Los_Angeles', '07:00', DAILY, 'recurring', 'active'],
    );
    assert.deepEqual(
      [
        r.body.next_occurrence.id,
        r.body.next_occurrence.status,
        r.body.next_occurrence.scheduled_at,
      ],
      [occ, 'pending', '2027-03-11T15:00:00Z'],
    );
    const o = await f.api('GET', `/occurrences/${occ}`);
    assert.deepEqual(
      [o.body.status, o.body.derivation_source, o.body.scheduled_at],
      ['pending', 'moved', '2027-03-11T15:00:00Z'],
    );
    const rows = await (
      await settledDb(f.server)
    ).all('SELECT id, status FROM occurrences WHERE schedule_id = ?', [s.id]);
    assert.deepEqual(
      rows,
      [{ id: occ, status: 'pending' }],
      'amended in place, nothing cancelled or added',
    );

    const replay = await move(f, occ, body, { 'Idempotency-Key': 'move-1' });
    assert.deepEqual([replay.status, replay.body], [200, r.body], 'the same key replays');
    const again = await move(f, occ, body);
    assert.deepEqual(
      [again.status, again.body.code],
      [400, 'validation_error'],
      'no longer a mismatch',
    );
    assert.deepEqual((await context(f)).mismatches, []);

    // Not at the old instant; at the new one; then the series goes on in Los Angeles.
    await f.clockTo('2027-03-10T18:05:00Z');
    assert.equal((await f.api('GET', `/occurrences/${occ}`)).body.status, 'pending');
    await f.clockTo('2027-03-11T15:05:00Z');
    assert.equal((await f.api('GET', `/occurrences/${occ}`)).body.status, 'confirmed');
    const next = (await f.api('GET', `/schedules/${s.id}`)).body.next_occurrence;
    assert.notEqual(next.id, occ);
    assert.deepEqual(
      [next.scheduled_at, next.local.time, next.local.timezone],
      ['2027-03-12T15:00:00Z', '07:00', 'America/Los_Angeles'],
    );
  });

  it('moves a one-off east (New York to Paris) to the suggested date; it rings there', async () => {
    f = await setup();
    const s = await create(f, { kind: 'once', local_date: '2027-03-11', local_time: '07:00' });
    const ctx = await report(f, 'Europe/Paris');
    const sug = ctx.mismatches[0].suggested;
    const r = await move(f, s.next_occurrence.id, {
      timezone: sug.timezone,
      local_date: sug.local_date,
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(
      [
        r.body.timezone,
        r.body.local_date,
        r.body.local_time,
        r.body.next_occurrence.id,
        r.body.next_occurrence.scheduled_at,
      ],
      ['Europe/Paris', '2027-03-11', '07:00', s.next_occurrence.id, '2027-03-11T06:00:00Z'],
    );
    await f.clockTo('2027-03-11T06:05:00Z');
    assert.equal(
      (await f.api('GET', `/occurrences/${s.next_occurrence.id}`)).body.status,
      'confirmed',
    );
    assert.equal((await f.api('GET', `/schedules/${s.id}`)).body.status, 'completed');
  });

  it('409 occurrence_in_progress while ringing, 409 occurrence_terminal once finished; nothing moved', async () => {
    f = await setup();
    const ringing = await create(f, {
      kind: 'once',
      local_date: '2027-03-10',
      local_time: '08:00',
    }); // 13:00Z
    const cancelled = await create(f, {
      kind: 'once',
      local_date: '2027-03-11',
      local_time: '07:00',
    });
    const ctx = await report(f, 'Europe/Paris');
    const sugOf = (id: string) => ctx.mismatches.find((m: any) => m.occurrence_id === id).suggested;
    assert.equal(
      (await f.api('POST', `/occurrences/${cancelled.next_occurrence.id}/cancel`)).status,
      200,
    );
    const sc = sugOf(cancelled.next_occurrence.id);
    const t = await move(f, cancelled.next_occurrence.id, {
      timezone: sc.timezone,
      local_date: sc.local_date,
    });
    assert.deepEqual([t.status, t.body.code], [409, 'occurrence_terminal']);

    const ph = await call(f.server, 'PUT', `/dev/phones/${encodeURIComponent(NUMBER)}`, {
      body: { answers: ['confirm'], ring_seconds: 40 },
    });
    assert.equal(ph.status, 204);
    const sr = sugOf(ringing.next_occurrence.id);
    await f.clockTo('2027-03-10T13:00:10Z');
    assert.equal(
      (await f.api('GET', `/occurrences/${ringing.next_occurrence.id}`)).body.status,
      'calling',
    );
    const before = await snapshot(f.server);
    const p = await move(f, ringing.next_occurrence.id, {
      timezone: sr.timezone,
      local_date: sr.local_date,
    });
    assert.deepEqual([p.status, p.body.code], [409, 'occurrence_in_progress']);
    assert.equal(await snapshot(f.server), before);
  });

  it('moves across a clock change: 02:30 in London to New York on its spring-forward night rings at 03:00 (nonexistent_shifted)', async () => {
    f = await setup({ env: { WAKEUP_CLOCK_START: '2027-03-13T12:00:00Z' } });
    const s = await create(f, {
      kind: 'once',
      local_date: '2027-03-14',
      local_time: '02:30',
      timezone: 'Europe/London',
    }); // 02:30Z
    const ctx = await report(f, 'America/New_York');
    const m = ctx.mismatches[0];
    assert.deepEqual(
      [m.in_device_zone_date, m.in_device_zone, m.notice],
      ['2027-03-13', '21:30', null],
    );
    assert.deepEqual(
      [
        m.suggested.local_date,
        m.suggested.scheduled_at,
        m.suggested.utc_offset,
        m.suggested.wall_time_kind,
      ],
      ['2027-03-14', '2027-03-14T07:00:00Z', '-04:00', 'nonexistent_shifted'],
    );
    assert.match(m.suggested.notice, /02:30/);
    const r = await move(f, s.next_occurrence.id, {
      timezone: 'America/New_York',
      local_date: '2027-03-14',
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const n = r.body.next_occurrence;
    assert.deepEqual(
      [n.scheduled_at, n.local.time, n.local.utc_offset, n.local.wall_time_kind],
      ['2027-03-14T07:00:00Z', '03:00', '-04:00', 'nonexistent_shifted'],
    );
    assert.ok(n.notice);
    assert.equal((await f.api('GET', `/occurrences/${n.id}`)).body.derivation_source, 'moved');
  });

  it("the traveller's notice: calls whose wall time falls in a clock change within 36 hours are flagged", async () => {
    f = await setup({ env: { WAKEUP_CLOCK_START: '2027-03-13T12:00:00Z' } });
    const gap = await create(f, { kind: 'once', local_date: '2027-03-14', local_time: '02:30' }); // New York springs forward
    await create(f, { kind: 'once', local_date: '2027-03-14', local_time: '09:00' });
    const noDevice = await context(f);
    assert.deepEqual(noDevice.mismatches, []);
    assert.equal(noDevice.clock_changes.length, 1);
    assert.deepEqual(
      [
        noDevice.clock_changes[0].occurrence_id,
        noDevice.clock_changes[0].wall_time_kind,
        noDevice.clock_changes[0].notice,
      ],
      [gap.next_occurrence.id, 'nonexistent_shifted', gap.next_occurrence.notice],
    );
    const ctx = await report(f, 'Europe/London');
    const m = ctx.mismatches.find((x: any) => x.occurrence_id === gap.next_occurrence.id);
    assert.equal(m.notice, gap.next_occurrence.notice);
    assert.ok(m.notice);
    assert.equal(
      ctx.mismatches.filter((x: any) => x.notice !== null).length,
      1,
      'the 09:00 call carries no notice',
    );
  });
});
