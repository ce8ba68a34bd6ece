/**
 * The account rules when a schedule starts ringing (created enabled, turned back on, or
 * given a new number): 402 no_entitlement once the trial is over, 403 calls_revoked after
 * key 9 until POST /me/resume-calls, 403 number_blocked for a blocked line. A schedule saved
 * turned off needs none of them. The previews answer the same.
 */
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { create, setup, NUMBER, type Fixture } from './schedules-fixture.js';
import { call, latestCode } from '../helpers/phone.js';

const tomorrow = { kind: 'once', local_date: '2027-03-11', local_time: '07:00' };
const daily = {
  kind: 'recurring',
  days_of_week: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
  local_time: '07:00',
};

async function expectBoth(
  f: Fixture,
  body: Record<string, unknown>,
  status: number,
  code: string,
): Promise<void> {
  for (const path of ['/schedules', '/schedules/preview']) {
    const r = await f.api('POST', path, body);
    assert.deepEqual([r.status, r.body.code], [status, code], `${path}: ${JSON.stringify(r.body)}`);
  }
}

describe('schedules and the account rules', () => {
  let f: Fixture;
  afterEach(async () => {
    await f.server.close();
  });

  it('402 no_entitlement once the trial is over; saving turned off is allowed, turning on is not', async () => {
    f = await setup();
    const off = await create(f, { ...daily, enabled: false });
    await f.advance(8 * 86_400); // the 7-day trial ends
    await expectBoth(f, { ...tomorrow, local_date: '2027-03-19' }, 402, 'no_entitlement');
    const saved = await create(f, { ...tomorrow, local_date: '2027-03-19', enabled: false });
    assert.equal(saved.status, 'disabled');
    assert.equal(saved.next_occurrence, null);
    for (const s of [off, saved]) {
      const on = await f.api('PATCH', `/schedules/${s.id}`, { enabled: true });
      assert.deepEqual([on.status, on.body.code], [402, 'no_entitlement']);
      const preview = await f.api('POST', `/schedules/${s.id}/preview`, { enabled: true });
      assert.deepEqual([preview.status, preview.body.code], [402, 'no_entitlement']);
      // Other changes of a schedule that stays off need no entitlement.
      const label = await f.api('PATCH', `/schedules/${s.id}`, { label: 'Still off' });
      assert.equal(label.status, 200);
    }
    // Clearing the end date would turn it back on: refused too.
    const cleared = await f.api('PATCH', `/schedules/${off.id}`, { end_date: null });
    assert.deepEqual([cleared.status, cleared.body.code], [402, 'no_entitlement']);
  });

  it('403 calls_revoked after key 9 until resume-calls; then 403 number_blocked until the number is verified again', async () => {
    f = await setup();
    assert.equal(
      (
        await call(f.server, 'PUT', `/dev/phones/${encodeURIComponent(NUMBER)}`, {
          body: { answers: ['stop'] },
        })
      ).status,
      204,
    );
    const s = await create(f, daily);
    await f.clockTo('2027-03-11T12:05:00Z'); // 07:00 New York rang; 9 was pressed
    const me = await f.api('GET', '/me');
    assert.notEqual(me.body.calls_revoked_at, null);

    const later = { ...tomorrow, local_date: '2027-03-13' };
    await expectBoth(f, later, 403, 'calls_revoked');
    // Saving turned off is fine; turning it on is not.
    const off = await create(f, { ...tomorrow, local_date: '2027-03-12', enabled: false });
    const on = await f.api('PATCH', `/schedules/${off.id}`, { enabled: true });
    assert.deepEqual([on.status, on.body.code], [403, 'calls_revoked']);

    const resumed = await f.api('POST', '/me/resume-calls', { consent: true });
    assert.equal(resumed.status, 200);
    await expectBoth(f, later, 403, 'number_blocked');

    // Verifying the number again lifts the key-9 block.
    const start = await f.api('POST', `/phone-numbers/${f.phoneId}/verify/start`, {});
    assert.equal(start.status, 200, JSON.stringify(start.body));
    const check = await f.api('POST', `/phone-numbers/${f.phoneId}/verify/check`, {
      code: await latestCode(f.server, NUMBER),
    });
    assert.equal(check.status, 200, JSON.stringify(check.body));
    const created = await f.api('POST', '/schedules', later);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal((await f.api('PATCH', `/schedules/${off.id}`, { enabled: true })).status, 200);
    // The recurring call that was stopped still exists and may be turned on again.
    assert.equal((await f.api('GET', `/schedules/${s.id}`)).status, 200);
  });

  it('403 number_blocked for a number that texted STOP', async () => {
    f = await setup();
    const inbound = await call(f.server, 'POST', '/dev/sms/inbound', {
      body: { from: NUMBER, body: 'STOP' },
    });
    assert.equal(inbound.status, 204);
    await expectBoth(f, tomorrow, 403, 'number_blocked');
    const off = await create(f, { ...tomorrow, enabled: false });
    assert.equal(off.status, 'disabled');
  });
});
