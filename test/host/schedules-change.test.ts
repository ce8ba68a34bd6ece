/**
 * Changing schedules: PATCH (amending the pending call in place, turning off and on, the
 * end_date rule, kind changes), DELETE (removed, or kept as history once a call rang),
 * pause / resume / skip-next, and 409 occurrence_in_progress while a call rings.
 */
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { create, setup, snapshot, NUMBER, type Fixture } from './schedules-fixture.js';
import { addVerifiedNumber, call } from '../helpers/phone.js';
import { settledDb } from '../helpers/server.js';

const DAILY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

async function occurrence(f: Fixture, id: string): Promise<any> {
  return await (
    await settledDb(f.server)
  ).get(
    'SELECT id, status, scheduled_at, label, message, to_e164, outcome_reason FROM occurrences WHERE id = ?',
    [id],
  );
}
async function occurrencesOf(f: Fixture, scheduleId: string): Promise<any[]> {
  return await (
    await settledDb(f.server)
  ).all('SELECT id, status FROM occurrences WHERE schedule_id = ? ORDER BY scheduled_at', [
    scheduleId,
  ]);
}
async function phone(f: Fixture, answers: string[], ringSeconds = 5): Promise<void> {
  const r = await call(f.server, 'PUT', `/dev/phones/${encodeURIComponent(NUMBER)}`, {
    body: { answers, ring_seconds: ringSeconds },
  });
  assert.equal(r.status, 204);
}

describe('PATCH /schedules/{id}', () => {
  let f: Fixture;
  afterEach(async () => {
    await f.server.close();
  });

  it('a new wall time amends the pending call in place (same id) and it rings then', async () => {
    f = await setup();
    const s = await create(f, { kind: 'once', local_date: '2027-03-11', local_time: '07:00' });
    const r = await f.api('PATCH', `/schedules/${s.id}`, {
      local_time: '08:15',
      label: 'Later',
      message: 'Big day',
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.next_occurrence.id, s.next_occurrence.id);
    assert.equal(r.body.next_occurrence.scheduled_at, '2027-03-11T13:15:00Z');
    assert.deepEqual(
      await occurrencesOf(f, s.id),
      [{ id: s.next_occurrence.id, status: 'pending' }],
      'no cancelled leftovers',
    );
    assert.deepEqual(await occurrence(f, s.next_occurrence.id), {
      id: s.next_occurrence.id,
      status: 'pending',
      scheduled_at: Date.parse('2027-03-11T13:15:00Z'),
      label: 'Later',
      message: 'Big day',
      to_e164: NUMBER,
      outcome_reason: null,
    });
    await f.clockTo('2027-03-11T12:30:00Z');
    assert.equal(
      (await occurrence(f, s.next_occurrence.id)).status,
      'pending',
      'not at the old time',
    );
    await f.clockTo('2027-03-11T13:20:00Z');
    assert.equal((await occurrence(f, s.next_occurrence.id)).status, 'confirmed');
    const done = await f.api('GET', `/schedules/${s.id}`);
    assert.deepEqual([done.body.status, done.body.next_occurrence], ['completed', null]);
    // A label change of the completed one-off is allowed (its time is not checked again).
    assert.equal((await f.api('PATCH', `/schedules/${s.id}`, { label: 'Done' })).status, 200);
    // Turning it on again needs a time in the future.
    const again = await f.api('PATCH', `/schedules/${s.id}`, { enabled: true });
    assert.deepEqual([again.status, again.body.code], [400, 'time_in_past']);
    const moved = await f.api('PATCH', `/schedules/${s.id}`, {
      enabled: true,
      local_date: '2027-03-12',
    });
    assert.deepEqual(
      [moved.status, moved.body.status, moved.body.next_occurrence.scheduled_at],
      [200, 'active', '2027-03-12T13:15:00Z'],
    );
  });

  it('turning off cancels the pending call; turning on stores a new one', async () => {
    f = await setup();
    const s = await create(f, { kind: 'recurring', days_of_week: DAILY, local_time: '07:00' });
    const off = await f.api('PATCH', `/schedules/${s.id}`, { enabled: false });
    assert.deepEqual(
      [off.body.status, off.body.enabled, off.body.next_occurrence],
      ['disabled', false, null],
    );
    assert.equal((await occurrence(f, s.next_occurrence.id)).status, 'cancelled');
    const on = await f.api('PATCH', `/schedules/${s.id}`, { enabled: true });
    assert.equal(on.body.status, 'active');
    assert.notEqual(on.body.next_occurrence.id, s.next_occurrence.id);
    assert.equal(on.body.next_occurrence.scheduled_at, '2027-03-11T12:00:00Z');
    // null leaves non-nullable fields unchanged and clears nullable ones.
    const nulls = await f.api('PATCH', `/schedules/${s.id}`, {
      enabled: null,
      label: null,
      days_of_week: null,
      message: null,
      timezone: null,
    });
    assert.deepEqual(
      [nulls.body.enabled, nulls.body.label, nulls.body.days_of_week.length, nulls.body.timezone],
      [true, 'Wake-up call', 7, 'America/New_York'],
    );
  });

  it('end_date null or "" clears it and turns an Off or Done recurring call back on', async () => {
    f = await setup();
    const done = await create(f, {
      kind: 'recurring',
      days_of_week: ['tue'],
      local_time: '07:00',
      end_date: '2027-03-10',
    });
    assert.equal(done.status, 'completed');
    const r1 = await f.api('PATCH', `/schedules/${done.id}`, { end_date: '' });
    assert.deepEqual(
      [r1.status, r1.body.status, r1.body.end_date, r1.body.next_occurrence?.scheduled_at],
      [200, 'active', null, '2027-03-16T11:00:00Z'],
    );
    const off = await create(f, {
      kind: 'recurring',
      days_of_week: ['fri'],
      local_time: '07:00',
      end_date: '2027-06-01',
      enabled: false,
    });
    const r2 = await f.api('PATCH', `/schedules/${off.id}`, { end_date: null });
    assert.deepEqual([r2.body.status, r2.body.enabled, r2.body.end_date], ['active', true, null]);
    // A later end_date also brings a Done schedule back (it has calls again), without re-enabling an Off one.
    const later = await f.api('PATCH', `/schedules/${done.id}`, { end_date: '2027-03-12' });
    assert.equal(later.body.status, 'completed', 'no Tuesday left before the 12th');
    const off2 = await create(f, {
      kind: 'recurring',
      days_of_week: ['fri'],
      local_time: '07:00',
      enabled: false,
    });
    const r3 = await f.api('PATCH', `/schedules/${off2.id}`, { end_date: '2027-06-01' });
    assert.deepEqual([r3.body.status, r3.body.enabled], ['disabled', false]);
  });

  it('changing kind: one-off to recurring needs days; recurring to one-off needs a date', async () => {
    f = await setup();
    const s = await create(f, { kind: 'once', local_date: '2027-03-11', local_time: '07:00' });
    const r = await f.api('PATCH', `/schedules/${s.id}`, {
      kind: 'recurring',
      days_of_week: ['sat'],
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(
      [r.body.kind, r.body.local_date, r.body.days_of_week, r.body.next_occurrence.scheduled_at],
      ['recurring', null, ['sat'], '2027-03-13T12:00:00Z'],
    );
    assert.equal(r.body.next_occurrence.id, s.next_occurrence.id);
    const back = await f.api('PATCH', `/schedules/${s.id}`, { kind: 'once' });
    assert.deepEqual([back.status, back.body.code], [400, 'local_date_required']);
    const once = await f.api('PATCH', `/schedules/${s.id}`, {
      kind: 'once',
      local_date: '2027-03-20',
    });
    assert.deepEqual(
      [once.body.kind, once.body.days_of_week, once.body.start_date],
      ['once', [], null],
    );
  });

  it('an in-N-minutes call keeps its instant until its wall time is changed', async () => {
    f = await setup();
    const s = await create(f, { kind: 'once', in_minutes: 45 });
    const label = await f.api('PATCH', `/schedules/${s.id}`, { label: 'Nap' });
    assert.equal(label.body.next_occurrence.scheduled_at, s.next_occurrence.scheduled_at);
    // Fields a one-off ignores, and the wall time already shown, change nothing.
    const same = await f.api('PATCH', `/schedules/${s.id}`, {
      skip_dates: [],
      days_of_week: ['mon'],
      kind: 'once',
      local_date: s.local_date,
      local_time: s.local_time,
      timezone: s.timezone,
    });
    assert.equal(same.status, 200);
    assert.equal(same.body.next_occurrence.scheduled_at, s.next_occurrence.scheduled_at);
    assert.equal(same.body.next_occurrence.id, s.next_occurrence.id);
    const occurrence = await f.api('GET', `/occurrences/${s.next_occurrence.id}`);
    assert.equal(occurrence.body.derivation_source, 'in_minutes');
    const moved = await f.api('PATCH', `/schedules/${s.id}`, { local_time: '09:00' });
    assert.equal(moved.body.next_occurrence.scheduled_at, '2027-03-10T14:00:00Z');
  });

  it('an in-N-minutes call turned on after its instant passed: 400 time_in_past', async () => {
    f = await setup();
    const s = await create(f, { kind: 'once', in_minutes: 5, enabled: false });
    const early = await f.api('POST', `/schedules/${s.id}/preview`, { enabled: true });
    assert.equal(early.body.first.scheduled_at, '2027-03-10T12:05:00Z');
    await f.advance(600);
    const late = await f.api('PATCH', `/schedules/${s.id}`, { enabled: true });
    assert.deepEqual(
      [late.status, late.body.code, late.body.field],
      [400, 'time_in_past', 'enabled'],
    );
  });

  it('a schedule whose number was removed shows phone_number null and needs a number to ring again', async () => {
    f = await setup();
    const s = await create(f, {
      kind: 'recurring',
      days_of_week: DAILY,
      local_time: '07:00',
      enabled: false,
    });
    assert.equal((await f.api('DELETE', `/phone-numbers/${f.phoneId}`)).status, 204);
    const got = await f.api('GET', `/schedules/${s.id}`);
    assert.equal(got.body.phone_number, null);
    const on = await f.api('PATCH', `/schedules/${s.id}`, { enabled: true });
    assert.deepEqual(
      [on.status, on.body.code, on.body.errors?.[0]?.field],
      [400, 'validation_error', 'phone_number_id'],
    );
    const second = await addVerifiedNumber(f.server, f.token, '+12015550133');
    const again = await f.api('PATCH', `/schedules/${s.id}`, { enabled: true });
    assert.deepEqual(
      [again.status, again.body.phone_number?.id, again.body.status],
      [200, second.id, 'active'],
      'the primary number is used',
    );
  });

  it('a schedule whose number was removed can still be renamed and deleted', async () => {
    f = await setup();
    const s = await create(f, {
      kind: 'recurring',
      days_of_week: DAILY,
      local_time: '07:00',
      enabled: false,
    });
    assert.equal((await f.api('DELETE', `/phone-numbers/${f.phoneId}`)).status, 204);
    const renamed = await f.api('PATCH', `/schedules/${s.id}`, { label: 'No number' });
    assert.deepEqual(
      [renamed.status, renamed.body.label, renamed.body.phone_number],
      [200, 'No number', null],
    );
    // A one-off that already rang (completed, still enabled) loses its number too: renaming works.
    const second = await addVerifiedNumber(f.server, f.token, '+12015550155');
    const once = await create(f, { kind: 'once', in_minutes: 5 });
    await f.advance(600);
    assert.equal((await f.api('GET', `/schedules/${once.id}`)).body.status, 'completed');
    assert.equal((await f.api('DELETE', `/phone-numbers/${second.id}`)).status, 204);
    const done = await f.api('PATCH', `/schedules/${once.id}`, { label: 'Rang once' });
    assert.deepEqual(
      [done.status, done.body.status, done.body.phone_number],
      [200, 'completed', null],
    );
    assert.equal((await f.api('DELETE', `/schedules/${s.id}`)).status, 204);
    assert.equal((await f.api('GET', `/schedules/${s.id}`)).status, 404);
  });

  it('a new number moves the pending call to it', async () => {
    f = await setup();
    const second = await addVerifiedNumber(f.server, f.token, '+12015550144');
    const s = await create(f, { kind: 'once', in_minutes: 30 });
    const r = await f.api('PATCH', `/schedules/${s.id}`, { phone_number_id: second.id });
    assert.equal(r.body.phone_number.id, second.id);
    assert.equal((await occurrence(f, s.next_occurrence.id)).to_e164, '+12015550144');
  });
});

describe('409 occurrence_in_progress while the call rings', () => {
  let f: Fixture;
  afterEach(async () => {
    await f.server.close();
  });

  it('PATCH, DELETE, the schedule preview, pause and skip-next answer 409 and change nothing; resume does not', async () => {
    f = await setup();
    await phone(f, ['confirm'], 30);
    const s = await create(f, { kind: 'recurring', days_of_week: DAILY, local_time: '07:00' });
    await f.clockTo('2027-03-11T12:00:00Z');
    const ringing = await f.api('GET', `/schedules/${s.id}`);
    assert.ok(
      ['dispatching', 'calling'].includes(ringing.body.next_occurrence.status),
      ringing.body.next_occurrence.status,
    );
    const before = await snapshot(f.server);
    for (const [method, path, body] of [
      ['PATCH', '', { label: 'x' }],
      ['DELETE', '', undefined],
      ['POST', '/preview', { label: 'x' }],
      ['POST', '/pause', { until: '2027-03-15' }],
      ['POST', '/skip-next', undefined],
    ] as const) {
      const r = await f.api(method, `/schedules/${s.id}${path}`, body);
      assert.deepEqual(
        [r.status, r.body?.code],
        [409, 'occurrence_in_progress'],
        `${method} ${path}`,
      );
    }
    assert.equal(await snapshot(f.server), before);
    const resumed = await f.api('POST', `/schedules/${s.id}/resume`);
    assert.equal(resumed.status, 200);
    await f.advance(120);
    assert.equal((await occurrence(f, s.next_occurrence.id)).status, 'confirmed');
    const after = await f.api('GET', `/schedules/${s.id}`);
    assert.equal(after.body.next_occurrence.scheduled_at, '2027-03-12T12:00:00Z');
    assert.equal((await f.api('PATCH', `/schedules/${s.id}`, { label: 'x' })).status, 200);
  });

  it('between attempts (waiting) an edit applies from the next call on', async () => {
    f = await setup();
    await phone(f, ['no_answer', 'no_answer', 'no_answer', 'confirm']);
    const s = await create(f, { kind: 'recurring', days_of_week: DAILY, local_time: '07:00' });
    await f.clockTo('2027-03-11T12:02:00Z');
    const waiting = await f.api('GET', `/schedules/${s.id}`);
    assert.equal(waiting.body.next_occurrence.status, 'waiting');
    const patched = await f.api('PATCH', `/schedules/${s.id}`, { local_time: '08:00' });
    assert.equal(patched.status, 200);
    assert.equal(
      patched.body.next_occurrence.id,
      s.next_occurrence.id,
      'the call in progress stays the next occurrence',
    );
    const preview = await f.api('POST', `/schedules/${s.id}/preview`, { local_time: '08:30' });
    assert.equal(
      preview.body.first.scheduled_at,
      '2027-03-12T13:30:00Z',
      'the preview shows the first call under the new rule',
    );
    await f.clockTo('2027-03-11T12:30:00Z'); // the retries at +5 and +10 ring out
    assert.equal((await occurrence(f, s.next_occurrence.id)).status, 'missed');
    const next = await f.api('GET', `/schedules/${s.id}`);
    assert.equal(next.body.next_occurrence.scheduled_at, '2027-03-12T13:00:00Z');
  });
});

describe('DELETE /schedules/{id}', () => {
  let f: Fixture;
  afterEach(async () => {
    await f.server.close();
  });

  it('a schedule none of whose calls rang is removed with its pending call', async () => {
    f = await setup();
    const s = await create(f, { kind: 'recurring', days_of_week: DAILY, local_time: '07:00' });
    const r = await f.api('DELETE', `/schedules/${s.id}`);
    assert.equal(r.status, 204);
    assert.equal((await f.api('GET', `/schedules/${s.id}`)).status, 404);
    assert.deepEqual(await occurrencesOf(f, s.id), []);
    await f.clockTo('2027-03-11T12:10:00Z');
    assert.equal(
      ((await (await settledDb(f.server)).get('SELECT COUNT(*) AS n FROM attempts')) as any).n,
      0,
      'nothing rang',
    );
  });

  it('once a call rang, the schedule is kept, disabled, as history; its pending call is cancelled', async () => {
    f = await setup();
    const s = await create(f, { kind: 'recurring', days_of_week: DAILY, local_time: '07:00' });
    await f.clockTo('2027-03-11T12:10:00Z');
    const next = (await f.api('GET', `/schedules/${s.id}`)).body.next_occurrence;
    assert.equal(next.scheduled_at, '2027-03-12T12:00:00Z');
    assert.equal((await f.api('DELETE', `/schedules/${s.id}`)).status, 204);
    const kept = await f.api('GET', `/schedules/${s.id}`);
    assert.deepEqual(
      [kept.status, kept.body.status, kept.body.enabled, kept.body.next_occurrence],
      [200, 'disabled', false, null],
    );
    assert.deepEqual(
      (await occurrencesOf(f, s.id)).map((o) => o.status),
      ['confirmed', 'cancelled'],
    );
    assert.equal(
      (await f.api('DELETE', `/schedules/${s.id}`)).status,
      204,
      'deleting history again changes nothing',
    );
    assert.equal((await f.api('GET', `/schedules/${s.id}`)).status, 200);
  });

  it('between attempts, the remaining retries are cancelled too', async () => {
    f = await setup();
    await phone(f, ['no_answer']);
    const s = await create(f, { kind: 'once', local_date: '2027-03-11', local_time: '07:00' });
    await f.clockTo('2027-03-11T12:02:00Z');
    assert.equal((await occurrence(f, s.next_occurrence.id)).status, 'waiting');
    assert.equal((await f.api('DELETE', `/schedules/${s.id}`)).status, 204);
    assert.equal((await occurrence(f, s.next_occurrence.id)).status, 'cancelled');
    await f.clockTo('2027-03-11T12:30:00Z');
    const attempts = (await (
      await settledDb(f.server)
    ).get('SELECT COUNT(*) AS n FROM attempts WHERE occurrence_id = ?', [
      s.next_occurrence.id,
    ])) as any;
    assert.equal(attempts.n, 1, 'no retry rang after the delete');
    assert.equal((await f.api('GET', `/schedules/${s.id}`)).body.status, 'disabled');
  });
});

describe('pause, resume and skip-next', () => {
  let f: Fixture;
  afterEach(async () => {
    await f.server.close();
  });

  it('apply to recurring calls only: 400 not_recurring for a one-off', async () => {
    f = await setup();
    const s = await create(f, { kind: 'once', in_minutes: 10 });
    for (const [path, body] of [
      ['/pause', { until: '2027-03-12' }],
      ['/resume', undefined],
      ['/skip-next', undefined],
    ] as const) {
      const r = await f.api('POST', `/schedules/${s.id}${path}`, body);
      assert.deepEqual([r.status, r.body.code], [400, 'not_recurring'], path);
    }
  });

  it('pause moves the pending call past the pause, resume brings it back (same occurrence)', async () => {
    f = await setup();
    const s = await create(f, { kind: 'recurring', days_of_week: DAILY, local_time: '07:00' });
    const paused = await f.api('POST', `/schedules/${s.id}/pause`, { until: '2027-03-13' });
    assert.equal(paused.status, 200, JSON.stringify(paused.body));
    assert.equal(paused.body.paused_until, '2027-03-13');
    assert.equal(paused.body.next_occurrence.id, s.next_occurrence.id);
    assert.equal(paused.body.next_occurrence.local.date, '2027-03-14');
    const up = await f.api('GET', `/schedules/${s.id}/upcoming?count=2`);
    assert.deepEqual(
      up.body.items.map((i: any) => i.local.date),
      ['2027-03-14', '2027-03-15'],
    );
    const resumed = await f.api('POST', `/schedules/${s.id}/resume`);
    assert.deepEqual(
      [
        resumed.body.paused_until,
        resumed.body.next_occurrence.local.date,
        resumed.body.next_occurrence.id,
      ],
      [null, '2027-03-11', s.next_occurrence.id],
    );
    const past = await f.api('POST', `/schedules/${s.id}/pause`, { until: '2027-03-09' });
    assert.deepEqual(
      [past.status, past.body.code, past.body.errors?.[0]?.field],
      [400, 'validation_error', 'until'],
    );
    const far = await f.api('POST', `/schedules/${s.id}/pause`, { until: '2028-04-14' });
    assert.deepEqual([far.status, far.body.code, far.body.field], [400, 'date_too_far', 'until']);
    const missing = await f.api('POST', `/schedules/${s.id}/pause`, {});
    assert.deepEqual([missing.status, missing.body.code], [400, 'validation_error']);
    // Pausing today is allowed: today's call moves to tomorrow.
    const today = await f.api('POST', `/schedules/${s.id}/pause`, { until: '2027-03-10' });
    assert.equal(today.body.next_occurrence.local.date, '2027-03-11');
  });

  it('skip-next records the skipped date, moves the call to the following day, and past dates are pruned', async () => {
    f = await setup();
    const s = await create(f, { kind: 'recurring', days_of_week: DAILY, local_time: '07:00' });
    const one = await f.api('POST', `/schedules/${s.id}/skip-next`);
    assert.deepEqual(
      [one.body.skip_dates, one.body.next_occurrence.local.date, one.body.next_occurrence.id],
      [['2027-03-11'], '2027-03-12', s.next_occurrence.id],
    );
    const two = await f.api('POST', `/schedules/${s.id}/skip-next`);
    assert.deepEqual(two.body.skip_dates, ['2027-03-11', '2027-03-12']);
    assert.equal(two.body.next_occurrence.local.date, '2027-03-13');
    await f.clockTo('2027-03-13T12:10:00Z'); // the 13th rang
    const later = await f.api('POST', `/schedules/${s.id}/skip-next`);
    assert.deepEqual(
      later.body.skip_dates,
      ['2027-03-14'],
      'dates already past are pruned on save',
    );
    assert.equal(later.body.next_occurrence.local.date, '2027-03-15');
    const attempts = (await (
      await settledDb(f.server)
    ).get(
      'SELECT COUNT(*) AS n FROM attempts a JOIN occurrences o ON o.id = a.occurrence_id WHERE o.schedule_id = ?',
      [s.id],
    )) as any;
    assert.equal(attempts.n, 1, 'only the 13th rang');
  });

  it('skip-next between attempts skips the call after the one in progress', async () => {
    f = await setup();
    await phone(f, ['no_answer']);
    const s = await create(f, { kind: 'recurring', days_of_week: DAILY, local_time: '07:00' });
    await f.clockTo('2027-03-11T12:02:00Z');
    const r = await f.api('POST', `/schedules/${s.id}/skip-next`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.skip_dates, ['2027-03-12']);
    assert.equal(r.body.next_occurrence.status, 'waiting');
    await f.clockTo('2027-03-11T12:30:00Z');
    const next = await f.api('GET', `/schedules/${s.id}`);
    assert.equal(next.body.next_occurrence.local.date, '2027-03-13');
  });
});
