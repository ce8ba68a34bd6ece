/**
 * Every validation error of POST /schedules, answered identically by POST /schedules/preview
 * (one code path), with nothing stored; and the same rules on PATCH and its preview.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { account, create, setup, snapshot, type Fixture } from './schedules-fixture.js';
import { addNumber, call } from '../helpers/phone.js';

type Case = {
  name: string;
  body: Record<string, unknown>;
  status: number;
  code: string;
  field?: string;
};

const once = (o: Record<string, unknown>) => ({
  kind: 'once',
  local_date: '2027-03-11',
  local_time: '07:00',
  ...o,
});
const weekly = (o: Record<string, unknown>) => ({
  kind: 'recurring',
  days_of_week: ['mon', 'wed'],
  local_time: '07:00',
  ...o,
});

// The clock starts at 2027-03-10 12:00 UTC, 07:00 in New York (the account's home zone).
const CASES: Case[] = [
  {
    name: 'a wall time already passed today',
    body: once({ local_date: '2027-03-10', local_time: '06:59' }),
    status: 400,
    code: 'time_in_past',
    field: 'local_time',
  },
  {
    name: 'a date already passed',
    body: once({ local_date: '2027-03-09' }),
    status: 400,
    code: 'time_in_past',
  },
  {
    name: 'the current minute (not strictly after now)',
    body: once({ local_date: '2027-03-10', local_time: '07:00' }),
    status: 400,
    code: 'time_in_past',
  },
  {
    name: 'a date 401 days ahead',
    body: once({ local_date: '2028-04-14' }),
    status: 400,
    code: 'date_too_far',
    field: 'local_date',
  },
  {
    name: 'a start_date 401 days ahead',
    body: weekly({ start_date: '2028-04-14' }),
    status: 400,
    code: 'date_too_far',
    field: 'start_date',
  },
  {
    name: 'a paused_until 401 days ahead',
    body: weekly({ paused_until: '2028-04-14' }),
    status: 400,
    code: 'date_too_far',
    field: 'paused_until',
  },
  {
    name: 'local_time 7:00',
    body: once({ local_time: '7:00' }),
    status: 400,
    code: 'invalid_time',
    field: 'local_time',
  },
  {
    name: 'local_time 24:00',
    body: weekly({ local_time: '24:00' }),
    status: 400,
    code: 'invalid_time',
    field: 'local_time',
  },
  {
    name: 'local_time 07:00:00',
    body: once({ local_time: '07:00:00' }),
    status: 400,
    code: 'invalid_time',
    field: 'local_time',
  },
  {
    name: 'an unknown zone',
    body: once({ timezone: 'Mars/Olympus_Mons' }),
    status: 400,
    code: 'invalid_timezone',
    field: 'timezone',
  },
  {
    name: 'an abbreviation as zone',
    body: once({ timezone: 'EST' }),
    status: 400,
    code: 'invalid_timezone',
    field: 'timezone',
  },
  {
    name: 'an unknown created_in_timezone',
    body: once({ created_in_timezone: 'Nowhere/Land' }),
    status: 400,
    code: 'invalid_timezone',
    field: 'created_in_timezone',
  },
  {
    name: 'a fixed-offset zone',
    body: once({ timezone: 'Etc/GMT+5' }),
    status: 400,
    code: 'timezone_not_allowed',
    field: 'timezone',
  },
  {
    name: 'recurring with no days',
    body: weekly({ days_of_week: [] }),
    status: 400,
    code: 'days_of_week_empty',
    field: 'days_of_week',
  },
  {
    name: 'recurring without days_of_week',
    body: { kind: 'recurring', local_time: '07:00' },
    status: 400,
    code: 'days_of_week_empty',
    field: 'days_of_week',
  },
  {
    name: 'a one-off with local_time only',
    body: { kind: 'once', local_time: '07:00' },
    status: 400,
    code: 'local_date_required',
    field: 'local_date',
  },
  {
    name: 'in_minutes 0',
    body: { kind: 'once', in_minutes: 0 },
    status: 400,
    code: 'in_minutes_out_of_range',
    field: 'in_minutes',
  },
  {
    name: 'in_minutes 1441',
    body: { kind: 'once', in_minutes: 1441 },
    status: 400,
    code: 'in_minutes_out_of_range',
    field: 'in_minutes',
  },
  {
    name: 'max_snoozes 6',
    body: once({ retry_policy: { max_snoozes: 6 } }),
    status: 400,
    code: 'invalid_retry_policy',
  },
  {
    name: 'ring_timeout_seconds 14',
    body: once({ retry_policy: { ring_timeout_seconds: 14 } }),
    status: 400,
    code: 'invalid_retry_policy',
  },
  {
    name: 'snooze_minutes 31',
    body: once({ retry_policy: { snooze_minutes: 31 } }),
    status: 400,
    code: 'invalid_retry_policy',
  },
  {
    name: 'an offset of 121 minutes',
    body: once({ retry_policy: { offsets_minutes: [5, 121] } }),
    status: 400,
    code: 'invalid_retry_policy',
  },
  {
    name: 'six offsets',
    body: once({ retry_policy: { offsets_minutes: [1, 2, 3, 4, 5, 6] } }),
    status: 400,
    code: 'invalid_retry_policy',
  },
  {
    name: 'offsets decreasing',
    body: once({ retry_policy: { offsets_minutes: [10, 5] } }),
    status: 400,
    code: 'invalid_retry_policy',
    field: 'retry_policy.offsets_minutes.1',
  },
  {
    name: 'offsets repeated',
    body: once({ retry_policy: { offsets_minutes: [5, 5] } }),
    status: 400,
    code: 'invalid_retry_policy',
    field: 'retry_policy.offsets_minutes.1',
  },
  {
    name: 'a phone number id of nothing',
    body: once({ phone_number_id: randomUUID() }),
    status: 400,
    code: 'phone_number_not_owned',
    field: 'phone_number_id',
  },
  {
    name: 'a phone number id that is no uuid',
    body: once({ phone_number_id: 'my-phone' }),
    status: 400,
    code: 'phone_number_not_owned',
  },
  {
    name: 'a link in the label',
    body: once({ label: 'See example.com' }),
    status: 400,
    code: 'message_disallowed_content',
  },
  {
    name: 'a phone number in the message',
    body: once({ message: 'Call me at 201 555 0123 please' }),
    status: 400,
    code: 'message_disallowed_content',
  },
  {
    name: 'an e-mail address in the message',
    body: once({ message: 'Write to me@example.org' }),
    status: 400,
    code: 'message_disallowed_content',
  },
  {
    name: 'a label of 61 characters',
    body: once({ label: 'a'.repeat(61) }),
    status: 400,
    code: 'message_disallowed_content',
  },
  {
    name: 'a message of 201 characters',
    body: once({ message: 'a'.repeat(201) }),
    status: 400,
    code: 'message_disallowed_content',
  },
  {
    name: 'a greeting name of 41 characters',
    body: once({ greeting_name: 'a'.repeat(41) }),
    status: 400,
    code: 'message_disallowed_content',
  },
  {
    name: 'a blank label',
    body: once({ label: '   ' }),
    status: 400,
    code: 'message_disallowed_content',
    field: 'label',
  },
  {
    name: 'an emoji in the greeting name',
    body: once({ greeting_name: 'Sam 🌞' }),
    status: 400,
    code: 'message_disallowed_content',
  },
  {
    name: 'no kind',
    body: { local_date: '2027-03-11', local_time: '07:00' },
    status: 400,
    code: 'validation_error',
  },
  { name: 'an unknown kind', body: once({ kind: 'daily' }), status: 400, code: 'validation_error' },
  {
    name: 'enabled as a string',
    body: once({ enabled: 'yes' }),
    status: 400,
    code: 'validation_error',
  },
  {
    name: 'a retry field of the wrong type',
    body: once({ retry_policy: { max_snoozes: 'two' } }),
    status: 400,
    code: 'validation_error',
  },
  {
    name: 'a local date that does not exist',
    body: once({ local_date: '2027-02-30' }),
    status: 400,
    code: 'validation_error',
    field: 'local_date',
  },
  {
    name: 'a one-off with neither time nor minutes',
    body: { kind: 'once' },
    status: 400,
    code: 'validation_error',
    field: 'local_time',
  },
  {
    name: 'in_minutes with a wall time',
    body: { kind: 'once', in_minutes: 10, local_time: '08:00', local_date: '2027-03-10' },
    status: 400,
    code: 'validation_error',
    field: 'in_minutes',
  },
  {
    name: 'end_date before start_date',
    body: weekly({ start_date: '2027-04-01', end_date: '2027-03-20' }),
    status: 400,
    code: 'validation_error',
    field: 'end_date',
  },
  {
    name: 'a malformed skip date',
    body: weekly({ skip_dates: ['2027-13-01'] }),
    status: 400,
    code: 'validation_error',
  },
  {
    name: 'an unknown day',
    body: weekly({ days_of_week: ['mon', 'someday'] }),
    status: 400,
    code: 'validation_error',
  },
];

describe('POST /schedules and POST /schedules/preview: validation', () => {
  let f: Fixture;
  before(async () => {
    f = await setup();
  });
  after(async () => {
    await f.server.close();
  });

  for (const c of CASES) {
    it(`${c.name}: ${c.status} ${c.code}, same answer from the preview, nothing stored`, async () => {
      const before = await snapshot(f.server);
      const saved = await f.api('POST', '/schedules', c.body);
      const previewed = await f.api('POST', '/schedules/preview', c.body);
      assert.equal(saved.status, c.status, JSON.stringify(saved.body));
      assert.equal(saved.body.code, c.code, JSON.stringify(saved.body));
      if (c.field)
        assert.equal(
          saved.body.field ?? saved.body.errors?.[0]?.field,
          c.field,
          JSON.stringify(saved.body),
        );
      assert.deepEqual(
        { status: previewed.status, code: previewed.body.code, field: previewed.body.field },
        { status: saved.status, code: saved.body.code, field: saved.body.field },
      );
      assert.equal(await snapshot(f.server), before);
    });
  }

  it('a number of another account: 400 phone_number_not_owned (as for an id of nothing)', async () => {
    const other = await account(f.server, { number: '+12015550188' });
    const r = await f.api('POST', '/schedules', once({ phone_number_id: other.phoneId }));
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'phone_number_not_owned');
    assert.equal(r.body.field, 'phone_number_id');
  });

  it('an unverified number: 400 phone_number_unverified', async () => {
    const added = await addNumber(f.server, f.token, '+12015550177');
    for (const path of ['/schedules', '/schedules/preview']) {
      const r = await f.api('POST', path, once({ phone_number_id: added.id }));
      assert.deepEqual([r.status, r.body.code], [400, 'phone_number_unverified'], path);
    }
  });

  it('no timezone and no home zone: 400 validation_error (timezone); in_minutes uses UTC', async () => {
    const g = await account(f.server, { home: null, number: '+12015550166' });
    const r = await g.api('POST', '/schedules', {
      kind: 'once',
      local_date: '2027-03-11',
      local_time: '07:00',
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'validation_error');
    assert.equal(r.body.errors[0].field, 'timezone');
    const s = await create(g, { kind: 'once', in_minutes: 30 });
    assert.equal(s.timezone, 'UTC');
    assert.equal(s.next_occurrence.scheduled_at, '2027-03-10T12:30:00Z');
    assert.equal(
      s.next_occurrence.in_home_timezone,
      undefined,
      'no home zone: in_home_timezone omitted',
    );
  });

  it('no number at all: 400 validation_error (phone_number_id)', async () => {
    const { signIn } = await import('../helpers/server.js');
    const { token } = await signIn(f.server);
    const r = await call(f.server, 'POST', '/schedules', {
      token,
      body: once({ timezone: 'Europe/Paris' }),
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'validation_error');
    assert.equal(r.body.errors[0].field, 'phone_number_id');
  });

  it('PATCH and POST /schedules/{id}/preview give the same errors, change nothing', async () => {
    const s = await create(f, once({}));
    const patches: Array<[Record<string, unknown>, string]> = [
      [{ local_time: '25:00' }, 'invalid_time'],
      [{ local_date: '2027-03-01' }, 'time_in_past'],
      [{ local_date: '2029-01-01' }, 'date_too_far'],
      [{ local_date: null }, 'local_date_required'],
      [{ timezone: 'Etc/GMT-3' }, 'timezone_not_allowed'],
      [{ timezone: 'Atlantis/Capital' }, 'invalid_timezone'],
      [{ kind: 'recurring' }, 'days_of_week_empty'],
      [{ retry_policy: { offsets_minutes: [3, 2] } }, 'invalid_retry_policy'],
      [{ message: 'Go to wake.example.net now' }, 'message_disallowed_content'],
      [{ phone_number_id: randomUUID() }, 'phone_number_not_owned'],
      [{ enabled: 1 }, 'validation_error'],
    ];
    for (const [body, code] of patches) {
      const before = await snapshot(f.server);
      const patched = await f.api('PATCH', `/schedules/${s.id}`, body);
      const previewed = await f.api('POST', `/schedules/${s.id}/preview`, body);
      assert.deepEqual([patched.status, patched.body.code], [400, code], JSON.stringify(body));
      assert.deepEqual([previewed.status, previewed.body.code], [400, code], JSON.stringify(body));
      assert.equal(await snapshot(f.server), before, JSON.stringify(body));
    }
  });

  it("unknown schedule ids and other accounts' schedules: 404 not_found", async () => {
    const other = await account(f.server, { number: '+12015550155' });
    const theirs = await create(other, once({}));
    for (const id of [randomUUID(), theirs.id, 'not-a-uuid']) {
      for (const [method, path, body] of [
        ['GET', '', undefined],
        ['PATCH', '', { label: 'Mine now' }],
        ['DELETE', '', undefined],
        ['POST', '/preview', {}],
        ['POST', '/pause', { until: '2027-03-20' }],
        ['POST', '/resume', undefined],
        ['POST', '/skip-next', undefined],
        ['GET', '/upcoming', undefined],
      ] as const) {
        const r = await f.api(method, `/schedules/${id}${path}`, body);
        assert.deepEqual([r.status, r.body?.code], [404, 'not_found'], `${method} ${path} ${id}`);
      }
    }
    assert.equal((await other.api('GET', `/schedules/${theirs.id}`)).status, 200);
  });
});
