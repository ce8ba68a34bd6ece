/**
 * Properties of the schedule endpoints over generated bodies (near-valid values, clock-change
 * days, edge dates, junk): never a 500; a preview answers exactly what its save answers;
 * every 2xx body matches the schema; and the stored state keeps the invariant "an active
 * schedule has exactly one unfinished occurrence, any other none pending".
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { assertSchema, setup, START_MS, type Fixture } from './schedules-fixture.js';
import { settledDb } from '../helpers/server.js';

const SCALE = Number(process.env.WAKEUP_PROPERTY_SCALE ?? 1);
const RUNS = Math.max(1, Math.round(30 * SCALE));
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Mostly a good value, sometimes null, now and then junk: enough bodies pass to reach the save. */
const mix = <T, J>(good: fc.Arbitrary<T>, junk: fc.Arbitrary<J>) =>
  fc.oneof(
    { arbitrary: good, weight: 6 },
    { arbitrary: fc.constant(null), weight: 3 },
    { arbitrary: junk, weight: 1 },
  );
const date = fc
  .oneof(
    { arbitrary: fc.integer({ min: -2, max: 60 }), weight: 5 },
    { arbitrary: fc.integer({ min: 61, max: 420 }), weight: 1 },
  )
  .map((d) => isoDate(START_MS + d * 86_400_000));
const badDate = fc.constantFrom('2027-02-30', '2027-3-1', '', 'soon', '2028-12-31');
const time = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
  fc.constantFrom('02:30', '01:30', '03:00'),
);
const zone = fc.constantFrom(
  'America/New_York',
  'Europe/Paris',
  'UTC',
  'Pacific/Apia',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
);
const badZone = fc.constantFrom('Etc/GMT+5', 'EST', 'Nowhere/Land', '');
const text = fc.constantFrom('Gym', 'Flight at 9!', "Rise and shine, it's Monday", 'Ana');
const badText = fc.oneof(
  fc.string({ maxLength: 70 }),
  fc.constantFrom('see example.com', '555 123 4567', '  '),
);
const policy = fc.record(
  {
    max_snoozes: fc.integer({ min: 0, max: 5 }),
    offsets_minutes: fc
      .uniqueArray(fc.integer({ min: 1, max: 120 }), { maxLength: 5 })
      .map((a) => a.sort((x, y) => x - y)),
    ring_timeout_seconds: fc.integer({ min: 15, max: 120 }),
    snooze_minutes: fc.integer({ min: 1, max: 30 }),
  },
  { requiredKeys: [] },
);
const badPolicy = fc.record({
  max_snoozes: fc.integer({ min: -1, max: 7 }),
  offsets_minutes: fc.array(fc.integer({ min: -1, max: 130 }), { maxLength: 7 }),
});
const fields = {
  backup_alarm: mix(fc.boolean(), fc.constant('yes')),
  days_of_week: mix(
    fc.subarray(DAYS, { minLength: 1 }),
    fc.array(fc.constantFrom(...DAYS, 'someday'), { maxLength: 9 }),
  ),
  enabled: mix(fc.boolean(), fc.constant(1)),
  end_date: mix(date, fc.oneof(badDate, fc.constant(''))),
  greeting_name: mix(text, badText),
  label: mix(text, badText),
  local_date: mix(date, badDate),
  local_time: mix(time, fc.constantFrom('24:00', '7:00', '')),
  message: mix(text, badText),
  paused_until: mix(date, badDate),
  retry_policy: mix(policy, badPolicy),
  skip_dates: mix(fc.array(date, { maxLength: 4 }), fc.array(badDate, { maxLength: 2 })),
  sms_fallback: mix(fc.boolean(), fc.constant('no')),
  start_date: mix(date, badDate),
  timezone: mix(zone, badZone),
};
const common = {
  backup_alarm: fields.backup_alarm,
  enabled: fields.enabled,
  greeting_name: fields.greeting_name,
  label: fields.label,
  message: fields.message,
  retry_policy: fields.retry_policy,
  sms_fallback: fields.sms_fallback,
  timezone: fields.timezone,
  created_in_timezone: mix(zone, badZone),
};
/** Bodies that are always valid (whatever the seed, some saves happen and later steps have schedules to work on). */
const safeScheduleIn = fc.oneof(
  fc.record({
    kind: fc.constant('once'),
    in_minutes: fc.integer({ min: 1, max: 1440 }),
    label: text,
  }),
  fc.record({
    kind: fc.constant('recurring'),
    days_of_week: fc.subarray(DAYS, { minLength: 1 }),
    local_time: time,
    timezone: zone,
  }),
);
/** The three creation modes with their own fields, and now and then anything at all. */
const scheduleIn = fc.oneof(
  { arbitrary: safeScheduleIn, weight: 2 },
  fc.record(
    {
      kind: fc.constant('once'),
      local_date: fields.local_date,
      local_time: fields.local_time,
      ...common,
    },
    { requiredKeys: ['kind', 'local_date', 'local_time'] },
  ),
  fc.record(
    {
      kind: fc.constant('once'),
      in_minutes: mix(fc.integer({ min: 1, max: 1440 }), fc.integer({ min: -5, max: 1500 })),
      ...common,
    },
    { requiredKeys: ['kind', 'in_minutes'] },
  ),
  fc.record(
    {
      kind: fc.constant('recurring'),
      days_of_week: fields.days_of_week,
      local_time: fields.local_time,
      start_date: fields.start_date,
      end_date: fields.end_date,
      paused_until: fields.paused_until,
      skip_dates: fields.skip_dates,
      ...common,
    },
    { requiredKeys: ['kind', 'days_of_week', 'local_time'] },
  ),
  fc.record(
    {
      kind: fc.constantFrom('once', 'recurring', 'weekly'),
      in_minutes: fc.integer({ min: -5, max: 1500 }),
      ...fields,
    },
    { requiredKeys: ['kind'] },
  ),
);
/** Half the patches change only fields that cannot make a schedule invalid, so enough of them are saved whatever the seed. */
const safePatch = fc.record(
  {
    label: text,
    message: text,
    greeting_name: text,
    sms_fallback: fc.boolean(),
    backup_alarm: fc.boolean(),
    retry_policy: policy,
  },
  { requiredKeys: [] },
);
const patchIn = fc.oneof(
  safePatch,
  fc.record(
    { kind: mix(fc.constantFrom('once', 'recurring'), fc.constant('weekly')), ...fields },
    { requiredKeys: [] },
  ),
);

describe('schedule endpoints over generated bodies', () => {
  let f: Fixture;
  const ids: string[] = [];
  const statuses: number[] = [];
  const patched: number[] = [];
  before(async () => {
    f = await setup();
  });
  after(async () => {
    await f.server.close();
  });

  async function checkInvariant(): Promise<void> {
    const bad = await (
      await settledDb(f.server)
    ).all(
      // A schedule is the engine's series (same id), whose status GET /schedules shows.
      `SELECT s.id, status, unfinished FROM (
           SELECT se.id, se.status, (SELECT COUNT(*) FROM occurrences o WHERE o.schedule_id = se.id
             AND o.status IN ('pending', 'dispatching', 'calling', 'waiting')) AS unfinished
           FROM series se) s
         WHERE (status = 'active' AND unfinished <> 1)
           OR (status <> 'active' AND EXISTS (SELECT 1 FROM occurrences o WHERE o.schedule_id = s.id AND o.status = 'pending'))`,
    );
    assert.deepEqual(bad, []);
  }

  it('POST /schedules/preview answers what POST /schedules answers; never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(scheduleIn, fc.nat({ max: 4 * 3600 }), async (body, advance) => {
        const preview = await f.api('POST', '/schedules/preview', body);
        const saved = await f.api('POST', '/schedules', body);
        statuses.push(saved.status);
        assert.ok(
          saved.status < 500 && preview.status < 500,
          `${saved.status}/${preview.status} for ${JSON.stringify(body)}`,
        );
        if (saved.status === 201) {
          assert.equal(preview.status, 200, JSON.stringify(preview.body));
          assertSchema('ScheduleOut', saved.body);
          assertSchema('SchedulePreview', preview.body);
          assert.equal(
            preview.body.first?.scheduled_at ?? null,
            saved.body.next_occurrence?.scheduled_at ?? null,
          );
          ids.push(saved.body.id);
        } else {
          assert.deepEqual(
            [preview.status, preview.body.code, preview.body.field],
            [saved.status, saved.body.code, saved.body.field],
          );
        }
        await checkInvariant();
        if (advance % 3 === 0) await f.advance(advance);
        await checkInvariant();
      }),
      { numRuns: RUNS },
    );
    // The generator must get past validation (saved, or refused only for the trial's end).
    assert.ok(
      statuses.filter((s) => s === 201 || s === 402).length >= Math.ceil(RUNS / 10),
      `too few saves: ${statuses.join(' ')}`,
    );
  });

  it('PATCH and its preview agree on any body; never a 500', async () => {
    if (ids.length === 0)
      ids.push((await f.api('POST', '/schedules', { kind: 'once', in_minutes: 30 })).body.id);
    await fc.assert(
      fc.asyncProperty(patchIn, fc.nat({ max: ids.length - 1 }), async (body, i) => {
        const id = ids[i]!;
        const preview = await f.api('POST', `/schedules/${id}/preview`, body);
        const saved = await f.api('PATCH', `/schedules/${id}`, body);
        patched.push(saved.status);
        assert.ok(
          saved.status < 500 && preview.status < 500,
          `${saved.status}/${preview.status} for ${JSON.stringify(body)}`,
        );
        if (saved.status === 200) {
          assert.equal(preview.status, 200, JSON.stringify(preview.body));
          assertSchema('ScheduleOut', saved.body);
          assertSchema('SchedulePreview', preview.body);
        } else {
          assert.deepEqual([preview.status, preview.body.code], [saved.status, saved.body.code]);
        }
        await checkInvariant();
        for (const action of ['skip-next', 'resume']) {
          const r = await f.api('POST', `/schedules/${id}/${action}`);
          assert.ok(r.status < 500, `${action}: ${r.status} ${JSON.stringify(r.body)}`);
          if (r.status === 200) assertSchema('ScheduleOut', r.body);
        }
        const up = await f.api('GET', `/schedules/${id}/upcoming?count=10`);
        assert.equal(up.status, 200);
        assertSchema('UpcomingList', up.body);
        await checkInvariant();
      }),
      { numRuns: RUNS },
    );
    assert.ok(
      patched.filter((s) => s === 200 || s === 402).length >= Math.ceil(RUNS / 10),
      `too few changes saved: ${patched.join(' ')}`,
    );
  });
});
