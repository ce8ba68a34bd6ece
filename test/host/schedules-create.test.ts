/**
 * Creating, previewing, reading and listing schedules: the three creation modes, defaults
 * from the account, next_occurrence with in_home_timezone and clock-change notices, the
 * preview (same plan, nothing saved), upcoming, paging and the status filter.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { account, create, setup, snapshot, HOME, type Fixture } from './schedules-fixture.js';
import { settledDb } from '../helpers/server.js';
import { call } from '../helpers/phone.js';

describe('POST /schedules: the three creation modes', () => {
  let f: Fixture;
  before(async () => {
    f = await setup();
  });
  after(async () => {
    await f.server.close();
  });

  it('one-off at a wall time: rings at that wall time in the home zone by default', async () => {
    const s = await create(f, { kind: 'once', local_date: '2027-03-11', local_time: '07:00' });
    assert.equal(s.kind, 'once');
    assert.equal(s.timezone, HOME);
    assert.equal(s.timezone_display, 'Eastern Time (New York, United States)');
    assert.equal(s.local_date, '2027-03-11');
    assert.equal(s.local_time, '07:00');
    assert.deepEqual(
      [s.days_of_week, s.skip_dates, s.start_date, s.end_date, s.paused_until],
      [[], [], null, null, null],
    );
    assert.deepEqual(
      [s.enabled, s.status, s.source, s.label, s.message, s.greeting_name],
      [true, 'active', 'app', 'Wake-up call', null, null],
    );
    assert.equal(s.phone_number.id, f.phoneId);
    assert.equal(s.phone_number.e164_masked, '+1 ••••••0123');
    const n = s.next_occurrence;
    assert.equal(n.status, 'pending');
    assert.equal(n.scheduled_at, '2027-03-11T12:00:00Z');
    assert.equal(n.in_seconds, 86_400);
    assert.deepEqual(n.local, {
      date: '2027-03-11',
      time: '07:00',
      timezone: HOME,
      utc_offset: '-05:00',
      abbreviation: 'EST',
      wall_time_kind: 'normal',
    });
    assert.equal('in_home_timezone' in n, false, 'omitted when the call is in the home zone');
    assert.equal(n.notice, null);
    assert.equal(n.backup_alarm_at, null);
    const got = await f.api('GET', `/schedules/${s.id}`);
    assert.deepEqual(got.body, s);
  });

  it('one-off in N minutes: exactly N minutes from now, shown as its wall time', async () => {
    const s = await create(f, { kind: 'once', in_minutes: 90, timezone: 'Europe/Paris' });
    assert.equal(s.next_occurrence.scheduled_at, '2027-03-10T13:30:00Z');
    assert.equal(s.next_occurrence.in_seconds, 5400);
    assert.equal(s.local_date, '2027-03-10');
    assert.equal(s.local_time, '14:30');
    assert.deepEqual(s.next_occurrence.in_home_timezone, {
      date: '2027-03-10',
      time: '08:30',
      timezone: HOME,
      utc_offset: '-05:00',
    });
  });

  it('recurring: the next day of the week at the wall time, start_date today by default', async () => {
    const s = await create(f, {
      kind: 'recurring',
      days_of_week: ['fri', 'mon', 'mon'],
      local_time: '06:30',
      timezone: 'Europe/London',
    });
    assert.deepEqual(s.days_of_week, ['mon', 'fri']);
    assert.equal(s.start_date, '2027-03-10');
    assert.equal(s.local_date, null);
    assert.equal(s.next_occurrence.scheduled_at, '2027-03-12T06:30:00Z');
    assert.equal(s.next_occurrence.local.abbreviation, 'GMT');
    assert.deepEqual(s.next_occurrence.in_home_timezone, {
      date: '2027-03-12',
      time: '01:30',
      timezone: HOME,
      utc_offset: '-05:00',
    });
  });

  it('a wall time in a spring-forward gap rings at the first valid time after it, with a notice', async () => {
    const s = await create(f, { kind: 'once', local_date: '2027-03-14', local_time: '02:30' });
    const n = s.next_occurrence;
    assert.equal(n.scheduled_at, '2027-03-14T07:00:00Z');
    assert.equal(n.local.time, '03:00');
    assert.equal(n.local.wall_time_kind, 'nonexistent_shifted');
    assert.match(n.notice, /02:30 does not exist/);
    assert.equal(s.local_time, '02:30', 'the schedule keeps the asked wall time');
  });

  it('a wall time in a fall-back overlap rings at the first of the two', async () => {
    const s = await create(f, { kind: 'once', local_date: '2027-11-07', local_time: '01:30' });
    assert.equal(s.next_occurrence.scheduled_at, '2027-11-07T05:30:00Z');
    assert.equal(s.next_occurrence.local.wall_time_kind, 'ambiguous_first');
    assert.match(s.next_occurrence.notice, /happens twice/);
  });

  it('recurring over a clock change: upcoming keeps the wall time; the gap day is shifted and says so', async () => {
    const s = await create(f, {
      kind: 'recurring',
      days_of_week: ['sat', 'sun', 'mon'],
      local_time: '02:30',
    });
    const up = await f.api('GET', `/schedules/${s.id}/upcoming?count=3`);
    assert.equal(up.status, 200);
    const items = up.body.items;
    assert.equal(items[0].occurrence_id, s.next_occurrence.id, 'the stored next call first');
    assert.deepEqual(
      items.slice(1).map((i: any) => i.occurrence_id),
      [null, null],
    );
    assert.deepEqual(
      items.map((i: any) => i.scheduled_at),
      ['2027-03-13T07:30:00Z', '2027-03-14T07:00:00Z', '2027-03-15T06:30:00Z'],
    );
    assert.deepEqual(
      items.map((i: any) => i.local.time),
      ['02:30', '03:00', '02:30'],
    );
    assert.deepEqual(
      items.map((i: any) => i.local.wall_time_kind),
      ['normal', 'nonexistent_shifted', 'normal'],
    );
    assert.equal(items[0].notice, null);
    assert.match(items[1].notice, /go forward/);
  });

  it('texts are trimmed; an explicit policy is completed with the built-in defaults', async () => {
    const s = await create(f, {
      kind: 'once',
      in_minutes: 5,
      label: '  Flight day  ',
      message: "Taxi at 7:30, don't forget the passport!",
      greeting_name: 'Ana',
      retry_policy: { max_snoozes: 0 },
      sms_fallback: true,
      created_in_timezone: 'Europe/Paris',
    });
    assert.deepEqual(
      [s.label, s.message, s.greeting_name, s.sms_fallback, s.created_in_timezone],
      ['Flight day', "Taxi at 7:30, don't forget the passport!", 'Ana', true, 'Europe/Paris'],
    );
    assert.deepEqual(s.retry_policy, {
      max_snoozes: 0,
      offsets_minutes: [5, 10],
      ring_timeout_seconds: 45,
      snooze_minutes: 9,
    });
  });
});

describe('defaults from the account', () => {
  let f: Fixture;
  before(async () => {
    f = await setup();
  });
  after(async () => {
    await f.server.close();
  });

  it('retry policy, backup alarm and greeting name come from the account', async () => {
    const policy = {
      max_snoozes: 1,
      offsets_minutes: [3],
      ring_timeout_seconds: 30,
      snooze_minutes: 5,
    };
    const me = await f.api('PATCH', '/me', {
      default_retry_policy: policy,
      default_backup_alarm: true,
      greeting_name: 'Sam',
    });
    assert.equal(me.status, 200);
    const s = await create(f, { kind: 'once', local_date: '2027-03-11', local_time: '07:00' });
    assert.deepEqual(s.retry_policy, policy);
    assert.equal(s.backup_alarm, true);
    assert.equal(s.greeting_name, null, "null: the account's greeting name is used");
    assert.equal(s.next_occurrence.backup_alarm_at, '2027-03-11T12:02:00Z');
    const row = await (
      await settledDb(f.server)
    ).get<Record<string, unknown>>(
      'SELECT greeting_name, max_snoozes, offsets_minutes, ring_timeout_seconds, snooze_minutes, backup_alarm FROM occurrences WHERE id = ?',
      [s.next_occurrence.id],
    );
    // The engine's column is JSON text on SQLite, jsonb (parsed) on PostgreSQL.
    const offsets = row?.offsets_minutes;
    assert.deepEqual(
      { ...row, offsets_minutes: typeof offsets === 'string' ? JSON.parse(offsets) : offsets },
      {
        greeting_name: 'Sam',
        max_snoozes: 1,
        offsets_minutes: [3],
        ring_timeout_seconds: 30,
        snooze_minutes: 5,
        backup_alarm: 1,
      },
    );
    // retry_policy null keeps following the account's default as it changes.
    await f.api('PATCH', '/me', { default_retry_policy: null });
    const again = await f.api('GET', `/schedules/${s.id}`);
    assert.deepEqual(again.body.retry_policy, {
      max_snoozes: 2,
      offsets_minutes: [5, 10],
      ring_timeout_seconds: 45,
      snooze_minutes: 9,
    });
    // Explicit values win over the account's.
    const own = await create(f, {
      kind: 'once',
      in_minutes: 10,
      backup_alarm: false,
      greeting_name: 'Captain',
    });
    assert.equal(own.backup_alarm, false);
    assert.equal(own.next_occurrence.backup_alarm_at, null);
    assert.equal(own.greeting_name, 'Captain');
  });

  it('GET /me onboarding: the first-call step is done once a schedule exists', async () => {
    const g = await account(f.server, { number: '+12015550122' });
    const step = async () =>
      (await g.api('GET', '/me')).body.onboarding.steps.find((x: any) => x.slug === 'first-call');
    assert.equal((await step()).done, false);
    await create(g, { kind: 'once', in_minutes: 20 });
    assert.equal((await step()).done, true);
    assert.equal((await g.api('GET', '/me')).body.onboarding.finished, true);
  });

  it('Idempotency-Key: the same request twice stores one schedule and replays the answer', async () => {
    const headers = { 'Idempotency-Key': 'create-once' };
    const body = {
      kind: 'once',
      local_date: '2027-03-12',
      local_time: '06:00',
      label: 'Once only',
    };
    const a = await f.api('POST', '/schedules', body, headers);
    const b = await f.api('POST', '/schedules', body, headers);
    assert.deepEqual([a.status, b.status], [201, 201]);
    assert.equal(b.body.id, a.body.id);
    const n = (await f.server.running.deps.db.get(
      "SELECT COUNT(*) AS n FROM series WHERE label = 'Once only'",
    )) as { n: number };
    assert.equal(n.n, 1);
    const other = await f.api('POST', '/schedules', { ...body, local_time: '06:30' }, headers);
    assert.deepEqual([other.status, other.body.code], [409, 'idempotency_key_reused']);
  });

  it('a read-only API key may list but not create or preview: 403 insufficient_scope', async () => {
    const key = await f.api('POST', '/api-keys', { name: 'reader', scopes: ['read'] });
    const token = key.body.key;
    assert.equal((await call(f.server, 'GET', '/schedules', { token })).status, 200);
    for (const path of ['/schedules', '/schedules/preview']) {
      const r = await call(f.server, 'POST', path, {
        token,
        body: { kind: 'once', in_minutes: 15 },
      });
      assert.deepEqual([r.status, r.body.code], [403, 'insufficient_scope'], path);
    }
  });

  it('source says which credential created it: an API key gives api', async () => {
    const key = await f.api('POST', '/api-keys', { name: 'script' });
    assert.equal(key.status, 201);
    const r = await call(f.server, 'POST', '/schedules', {
      token: key.body.key,
      body: { kind: 'once', in_minutes: 15 },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.equal(r.body.source, 'api');
  });
});

describe('POST /schedules/preview', () => {
  let f: Fixture;
  before(async () => {
    f = await setup();
  });
  after(async () => {
    await f.server.close();
  });

  it('shows what saving would ring, saves nothing, and matches the saved schedule', async () => {
    const body = {
      kind: 'recurring',
      days_of_week: ['mon', 'tue', 'wed', 'thu', 'fri'],
      local_time: '06:30',
      timezone: 'Europe/Paris',
    };
    const before = await snapshot(f.server);
    const p = await f.api('POST', '/schedules/preview', body);
    assert.equal(p.status, 200);
    assert.equal(await snapshot(f.server), before, 'nothing saved');
    assert.equal(p.body.repeat, 'Weekdays');
    assert.equal(
      p.body.sentence,
      'Rings +1 ••••••0123 on weekdays at 06:30 (Europe/Paris), first on Thu 11 March 2027.',
    );
    assert.equal(p.body.first.occurrence_id, null);
    assert.equal(p.body.notice, null);
    assert.deepEqual(p.body.phone_number, {
      id: f.phoneId,
      e164_masked: '+1 ••••••0123',
      label: 'Phone',
    });
    const s = await create(f, body);
    const { occurrence_id: _id, ...first } = p.body.first;
    const { id: _sid, status: _st, backup_alarm_at: _b, ...next } = s.next_occurrence;
    assert.deepEqual(first, next);
  });

  it('words for the other modes and for a call that would not ring', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [
        { kind: 'once', local_date: '2027-03-12', local_time: '07:15' },
        'Once',
        'Rings +1 ••••••0123 once, on Fri 12 March 2027 at 07:15 (America/New_York).',
      ],
      [
        { kind: 'once', in_minutes: 1 },
        'Once',
        'Rings +1 ••••••0123 once, in 1 minute: at 07:01 (America/New_York) on Wed 10 March 2027.',
      ],
      [
        {
          kind: 'recurring',
          days_of_week: ['sat', 'sun'],
          local_time: '09:00',
          end_date: '2027-04-30',
        },
        'Weekends',
        'Rings +1 ••••••0123 at weekends at 09:00 (America/New_York), first on Sat 13 March 2027, until Fri 30 April 2027.',
      ],
      [
        { kind: 'recurring', days_of_week: ['mon', 'wed', 'fri'], local_time: '05:45' },
        'Mon, Wed and Fri',
        'Rings +1 ••••••0123 on Mon, Wed and Fri at 05:45 (America/New_York), first on Fri 12 March 2027.',
      ],
      [
        {
          kind: 'recurring',
          days_of_week: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
          local_time: '08:00',
        },
        'Every day',
        'Rings +1 ••••••0123 every day at 08:00 (America/New_York), first on Wed 10 March 2027.',
      ],
      [
        { kind: 'once', local_date: '2027-03-12', local_time: '07:15', enabled: false },
        'Once',
        'Turned off: it will not ring until it is enabled again.',
      ],
      [
        { kind: 'recurring', days_of_week: ['tue'], local_time: '07:00', end_date: '2027-03-10' },
        'Tue',
        'It will not ring: no call is left before its end date.',
      ],
    ];
    for (const [body, repeat, sentence] of cases) {
      const p = await f.api('POST', '/schedules/preview', body);
      assert.equal(p.status, 200, JSON.stringify(p.body));
      assert.deepEqual([p.body.repeat, p.body.sentence], [repeat, sentence]);
    }
    const gap = await f.api('POST', '/schedules/preview', {
      kind: 'once',
      local_date: '2027-03-14',
      local_time: '02:15',
    });
    assert.match(gap.body.notice, /02:15 does not exist/);
    assert.equal(gap.body.first.local.wall_time_kind, 'nonexistent_shifted');
  });

  it('a recurring call past its end date is saved as completed, with no next occurrence', async () => {
    const s = await create(f, {
      kind: 'recurring',
      days_of_week: ['tue'],
      local_time: '07:00',
      end_date: '2027-03-10',
    });
    assert.deepEqual([s.status, s.enabled, s.next_occurrence], ['completed', true, null]);
  });
});

describe('GET /schedules and GET /schedules/{id}/upcoming', () => {
  let f: Fixture;
  before(async () => {
    f = await setup();
  });
  after(async () => {
    await f.server.close();
  });

  it("pages newest first, filters by status, and shows only the caller's schedules", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await create(f, { kind: 'once', in_minutes: 10 + i, enabled: i % 2 === 0 })).id);
    const other = await account(f.server, { number: '+12015550199' });
    await create(other, { kind: 'once', in_minutes: 10 });

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r: any = await f.api('GET', `/schedules?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(r.status, 200);
      assert.ok(r.body.items.length <= 2);
      seen.push(...r.body.items.map((s: any) => s.id));
      cursor = r.body.next_cursor;
    } while (cursor);
    assert.deepEqual(seen, [...ids].reverse());

    const active = await f.api('GET', '/schedules?status=active');
    assert.deepEqual(
      active.body.items.map((s: any) => s.id),
      [ids[4], ids[2], ids[0]],
    );
    assert.ok(active.body.items.every((s: any) => s.next_occurrence !== null));
    const disabled = await f.api('GET', '/schedules?status=disabled');
    assert.deepEqual(
      disabled.body.items.map((s: any) => s.id),
      [ids[3], ids[1]],
    );
    assert.ok(disabled.body.items.every((s: any) => s.next_occurrence === null));
    assert.deepEqual((await f.api('GET', '/schedules?status=completed')).body, {
      items: [],
      next_cursor: null,
    });

    for (const q of ['status=done', 'limit=201', 'limit=0', 'cursor=%%%']) {
      const r = await f.api('GET', `/schedules?${q}`);
      assert.deepEqual([r.status, r.body.code], [400, 'validation_error'], q);
    }
  });

  it('upcoming: 7 by default, 1 to 100, none for a disabled schedule; honours skip_dates, pause and end date', async () => {
    const s = await create(f, {
      kind: 'recurring',
      days_of_week: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      local_time: '08:00',
      skip_dates: ['2027-03-12'],
      paused_until: '2027-03-10',
      end_date: '2027-03-20',
    });
    const seven = await f.api('GET', `/schedules/${s.id}/upcoming`);
    assert.deepEqual(
      seven.body.items.map((i: any) => i.local.date),
      [
        '2027-03-11',
        '2027-03-13',
        '2027-03-14',
        '2027-03-15',
        '2027-03-16',
        '2027-03-17',
        '2027-03-18',
      ],
    );
    const all = await f.api('GET', `/schedules/${s.id}/upcoming?count=100`);
    assert.equal(all.body.items.length, 9, 'ends with 2027-03-20');
    assert.equal((await f.api('GET', `/schedules/${s.id}/upcoming?count=1`)).body.items.length, 1);
    for (const q of ['count=0', 'count=101', 'count=two']) {
      const r = await f.api('GET', `/schedules/${s.id}/upcoming?${q}`);
      assert.deepEqual([r.status, r.body.code], [400, 'validation_error'], q);
    }
    const off = await create(f, { kind: 'once', in_minutes: 5, enabled: false });
    assert.deepEqual((await f.api('GET', `/schedules/${off.id}/upcoming`)).body, { items: [] });
  });
});
