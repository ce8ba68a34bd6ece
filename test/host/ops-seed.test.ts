/**
 * POST /dev/seed-morning (issue 43, item 8): the sleepers it makes show in the operator's
 * forecast, and once the virtual clock has moved through their morning, in the outcomes and
 * the lateness, with some calls missed and some failed. Through HTTP on the real server.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signIn, startTestServer, type TestServer } from '../helpers/server.js';
import { call, PHONE_TEST_ENV } from '../helpers/phone.js';
import { assertSchema } from './schedules-fixture.js';

const OPERATOR = 'seed-ops@example.com';
const N = 150;

describe('dev: seed a morning', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer({
      env: {
        ...PHONE_TEST_ENV,
        WAKEUP_CLOCK_START: '2027-05-04T04:00:00Z',
        WAKEUP_OPERATOR_EMAILS: OPERATOR,
        WAKEUP_CALLS_PER_SECOND: '2',
      },
    });
    token = (await signIn(server, OPERATOR)).token;
  });
  after(() => server.close());

  it('makes sleepers whose calls the forecast counts, then plays their morning', async () => {
    const seeded = await call(server, 'POST', '/dev/seed-morning', { body: { accounts: N } });
    assert.equal(seeded.status, 200, JSON.stringify(seeded.body));
    assertSchema('DevSeedMorningOut', seeded.body);
    assert.equal(seeded.body.schedules, N);
    const forecast = await call(server, 'GET', '/ops/forecast', { token });
    // Every zone's next morning falls within 24 hours of 04:00 UTC.
    assert.equal(forecast.body.total_calls, N);
    assert.ok(forecast.body.minutes.length > 5, 'spread over zones and times');

    const moved = await call(server, 'POST', '/dev/seed-morning', {
      body: { accounts: 1, advance_hours: 24 },
    });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.now, '2027-05-05T04:00:00Z');
    const outcomes = await call(server, 'GET', '/ops/outcomes', { token });
    assert.equal(outcomes.status, 200);
    const sum = (k: string) =>
      outcomes.body.hours.reduce((n: number, h: any) => n + h.outcomes[k], 0);
    const finished = ['confirmed', 'unconfirmed', 'missed', 'failed', 'cancelled'].reduce(
      (n, k) => n + sum(k),
      0,
    );
    assert.ok(finished >= N, `every first morning call finished (${finished})`);
    assert.ok(sum('confirmed') > N / 2, 'most confirm');
    assert.ok(sum('missed') + sum('unconfirmed') > 0, 'some are missed');
    assert.ok(sum('failed') > 0, 'some fail');
    const lateness = await call(server, 'GET', '/ops/lateness', { token });
    assert.ok(lateness.body.count >= N);

    const bad = await call(server, 'POST', '/dev/seed-morning', { body: { accounts: 0 } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'validation_error');
  });
});
