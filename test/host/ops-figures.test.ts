/**
 * The operator's figures against the calls the test made (issue 43): GET /ops/forecast counts
 * the pending calls per minute and the next call of a series whose call is in flight, and
 * projects the lateness the provider's rate implies; GET /ops/lateness and /ops/outcomes
 * agree with what the test computes from the attempts it reads through the owners' API; GET
 * /ops/health counts the calls in flight. Through HTTP on the real server, SQLite or
 * PostgreSQL (WAKEUP_TEST_DB=postgres).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signIn, type TestServer } from '../helpers/server.js';
import { call } from '../helpers/phone.js';
import { assertSchema } from './schedules-fixture.js';
import {
  advance,
  createCall,
  newAccount,
  occurrence,
  phone,
  startCallsServer,
  type CallsAccount,
} from './calls-fixture.js';

const OPERATOR = 'ops-figures@example.com';
const RATE = 1;
const OBJECTIVE_S = 2;
/** CALLS_START is 12:00:00Z; the one-off calls are due at 12:02, the daily series at 12:03. */
const DUE = '2027-05-04T12:02:00Z';
const BEHAVIOURS = ['confirm', 'confirm', 'no_answer', 'no_answer', 'fail', 'busy'] as const;

/** Nearest-rank percentile of sorted values. */
function rank(sorted: number[], p: number): number {
  return sorted[Math.ceil((p / 100) * sorted.length) - 1]!;
}

describe('ops figures', () => {
  let server: TestServer;
  let token: string;
  const calls: { f: CallsAccount; occurrenceId: string }[] = [];
  let series: CallsAccount;
  let seriesOccurrence: string;
  before(async () => {
    server = await startCallsServer({
      WAKEUP_OPERATOR_EMAILS: OPERATOR,
      WAKEUP_CALLS_PER_SECOND: String(RATE),
      WAKEUP_LATENESS_OBJECTIVE_SECONDS: String(OBJECTIVE_S),
    });
    token = (await signIn(server, OPERATOR)).token;
    for (const b of BEHAVIOURS) {
      const f = await newAccount(server);
      await phone(server, f.number, [b], 5);
      calls.push({ f, occurrenceId: (await createCall(f, {}, 2)).occurrenceId });
    }
    series = await newAccount(server);
    await phone(server, series.number, ['no_answer'], 90);
    const s = await series.api('POST', '/schedules', {
      kind: 'recurring',
      days_of_week: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      local_time: '12:03',
      timezone: 'UTC',
      retry_policy: { offsets_minutes: [] },
    });
    assert.equal(s.status, 201, JSON.stringify(s.body));
    seriesOccurrence = s.body.next_occurrence.id;
  });
  after(() => server.close());

  const ops = async (path: string) => {
    const r = await call(server, 'GET', path, { token });
    assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
    return r.body;
  };

  it('forecasts the pending calls per minute and the lateness of each minute at the rate', async () => {
    const body = await ops('/ops/forecast');
    assertSchema('OpsForecastOut', body);
    // What the owners see pending, per minute.
    const expected = new Map<string, number>();
    for (const f of [...calls.map((c) => c.f), series]) {
      const r = await f.api('GET', '/occurrences?status=pending');
      for (const o of r.body.items) {
        const minute = new Date(Math.floor(Date.parse(o.scheduled_at) / 60_000) * 60_000)
          .toISOString()
          .replace('.000', '');
        expected.set(minute, (expected.get(minute) ?? 0) + 1);
      }
    }
    assert.deepEqual(new Map(body.minutes.map((m: any) => [m.minute, m.calls])), expected);
    const spike = body.minutes.find((m: any) => m.minute === DUE);
    assert.equal(spike.calls, BEHAVIOURS.length);
    // Six calls due in one second at 1 per second: the last is placed 5 s late, past the 2 s warning.
    assert.equal(spike.last_late_seconds, (BEHAVIOURS.length - 1) / RATE);
    assert.equal(spike.warning, true);
    assert.equal(body.calls_per_second, RATE);
    assert.equal(body.warn_seconds, OBJECTIVE_S);
    assert.equal(body.total_calls, BEHAVIOURS.length + 1);
    assert.equal(body.projected_calls, 0);
    // Another rate, another projection.
    const fast = await ops('/ops/forecast?rate=10&warn_seconds=1');
    assert.equal(fast.minutes.find((m: any) => m.minute === DUE).last_late_seconds, 0.5);
    assert.equal(fast.warnings, 0);
  });

  it('counts the next call of a series whose call is in flight, which is not stored yet', async () => {
    await advance(server, 210); // 12:03:30: the series' call has rung for 30 of its 90 seconds
    const o = await occurrence(series, seriesOccurrence);
    assert.ok(['dispatching', 'calling', 'waiting'].includes(o.status), o.status);
    const health = await ops('/ops/health');
    assertSchema('OpsHealthOut', health);
    const inFlight = health.engine.in_flight;
    assert.equal(inFlight.dispatching + inFlight.calling + inFlight.waiting, 1);
    const pending = await series.api('GET', '/occurrences?status=pending');
    assert.equal(pending.body.items.length, 0, 'the next call is not stored while this one rings');
    const body = await ops('/ops/forecast');
    assert.equal(body.projected_calls, 1);
    assert.deepEqual(
      body.minutes.map((m: any) => [m.minute, m.calls, m.projected]),
      [['2027-05-05T12:03:00Z', 1, 1]],
    );
  });

  it('measures lateness and outcomes as the attempts show them', async () => {
    await advance(server, 600); // every call has finished
    const attempts: any[] = [];
    const statuses: string[] = [];
    for (const { f, occurrenceId } of [...calls, { f: series, occurrenceId: seriesOccurrence }]) {
      const o = await occurrence(f, occurrenceId);
      statuses.push(o.status);
      attempts.push(...o.attempts);
    }
    const from = '2027-05-04T12:00:00Z';
    const to = '2027-05-04T13:00:00Z';

    // Lateness per minute of the request, first attempts only.
    const firsts = attempts.filter((a) => a.kind === 'first' && a.requested_at !== null);
    const minuteOf = (iso: string) =>
      new Date(Math.floor(Date.parse(iso) / 60_000) * 60_000).toISOString().replace('.000', '');
    const late = (a: any, field: string) =>
      Math.max(0, Date.parse(a[field]) - Date.parse(a.due_at));
    const expected = new Map<string, any>();
    for (const minute of new Set(firsts.map((a) => minuteOf(a.requested_at)))) {
      const here = firsts.filter((a) => minuteOf(a.requested_at) === minute);
      const req = here.map((a) => late(a, 'requested_at')).sort((x, y) => x - y);
      const rang = here
        .filter((a) => a.ringing_at !== null)
        .map((a) => late(a, 'ringing_at'))
        .sort((x, y) => x - y);
      const measure = (v: number[]) =>
        v.length === 0
          ? null
          : { count: v.length, p50_ms: rank(v, 50), p95_ms: rank(v, 95), max_ms: v[v.length - 1] };
      const onTime = req.filter((v) => v <= OBJECTIVE_S * 1000).length;
      expected.set(minute, {
        minute,
        count: req.length,
        on_time: onTime,
        requested: measure(req),
        ringing: measure(rang),
      });
    }
    const lateness = await ops(`/ops/lateness?from=${from}&to=${to}`);
    assertSchema('OpsLatenessOut', lateness);
    assert.deepEqual(
      lateness.minutes.map(({ on_time_share: _, ...m }: any) => m),
      [...expected.values()],
    );
    assert.equal(lateness.count, firsts.length);
    // The rate placed the spike's last call about 5 s late (the dispatcher starts each call up to 50 ms ahead).
    assert.ok(lateness.max_ms >= (BEHAVIOURS.length - 1) * 1000 - 100, String(lateness.max_ms));
    assert.equal(lateness.objective_met, lateness.on_time / lateness.count >= 0.95);

    // Outcomes of the hour, and its attempts.
    const outcomes = await ops(`/ops/outcomes?from=${from}&to=${to}`);
    assertSchema('OpsOutcomesOut', outcomes);
    assert.equal(outcomes.hours.length, 1);
    const hour = outcomes.hours[0];
    assert.equal(hour.hour, from);
    const count = (s: string) => statuses.filter((x) => x === s).length;
    assert.deepEqual(hour.outcomes, {
      confirmed: count('confirmed'),
      unconfirmed: count('unconfirmed'),
      missed: count('missed'),
      failed: count('failed'),
      cancelled: count('cancelled'),
    });
    assert.ok(hour.outcomes.confirmed === 2 && hour.outcomes.failed === 1);
    const placed = attempts.filter((a) => a.requested_at !== null);
    const answered = placed.filter((a) => a.answered_at !== null);
    const short = answered.filter((a) => a.duration_seconds <= 6);
    const errors: Record<string, number> = {};
    for (const a of placed.filter((x) => x.status === 'failed'))
      errors[a.error_code ?? 'unknown'] = (errors[a.error_code ?? 'unknown'] ?? 0) + 1;
    assert.equal(hour.placed, placed.length);
    assert.equal(hour.answered, answered.length);
    assert.equal(hour.short, short.length);
    assert.deepEqual(hour.provider_errors, errors);
    assert.ok(Object.keys(errors).length > 0, 'the failing phone gave a provider error');
    assert.equal(hour.answer_rate, Math.round((answered.length / placed.length) * 10_000) / 10_000);

    // Nothing in another window.
    const empty = await ops('/ops/lateness?from=2027-05-03T12:00:00Z&to=2027-05-04T11:00:00Z');
    assert.deepEqual(
      [empty.count, empty.on_time_share, empty.objective_met, empty.minutes],
      [0, null, null, []],
    );
  });
});
