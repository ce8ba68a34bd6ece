import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signIn, startTestServer, withTestDb } from '../helpers/server.js';
import {
  addNumber,
  addVerifiedNumber,
  call,
  latestCode,
  textsTo,
  PHONE_TEST_ENV,
} from '../helpers/phone.js';

type Server = Awaited<ReturnType<typeof startTestServer>>;

describe('phone numbers: POST, GET, PATCH, DELETE /phone-numbers', () => {
  let server: Server;
  let token: string;
  before(async () => {
    server = await startTestServer({ env: PHONE_TEST_ENV });
    token = (await signIn(server, 'numbers@example.com')).token;
  });
  after(() => server.close());

  it('POST adds a number, texts a code at once and answers 201 PhoneNumberCreated', async () => {
    const r = await call(server, 'POST', '/phone-numbers', {
      token,
      body: { e164: '+12015550101', label: 'Bedside' },
    });
    assert.equal(r.status, 201);
    assert.equal(r.body.e164, '+12015550101');
    assert.equal(r.body.e164_masked, '+1 ••••••0101');
    assert.equal(r.body.label, 'Bedside');
    assert.equal(r.body.country_code, 'US');
    assert.equal(r.body.type, 'fixed_line_or_mobile');
    assert.equal(r.body.is_primary, true, 'the first number is primary');
    assert.equal(r.body.verified, false);
    assert.equal(r.body.verified_at, null);
    assert.equal(r.body.verification_expires_at, null);
    assert.equal(r.body.blocked, false);
    assert.equal(r.body.blocked_reason, null);
    assert.equal(r.body.last_test_call_at, null);
    assert.equal(r.body.last_confirmed_at, null);
    assert.match(r.body.created_at, /Z$/);
    assert.deepEqual(r.body.verification, { channel: 'sms', sent: true });
    const texts = await textsTo(server, '+12015550101');
    assert.equal(texts.length, 1);
    assert.match(texts[0]!.code ?? '', /^\d{6}$/);
  });

  it('refuses malformed, impossible and premium numbers with 400 invalid_phone_number', async () => {
    for (const e164 of [
      '12015550102',
      '+1 201 555 0102',
      '+15555555555',
      '+19005551234',
      '+18005551234',
      '+0123456',
    ]) {
      const r = await call(server, 'POST', '/phone-numbers', { token, body: { e164 } });
      assert.equal(r.status, 400, e164);
      assert.equal(r.body.code, 'invalid_phone_number', e164);
    }
  });

  it('refuses a number outside the destination list with 400 country_not_supported', async () => {
    const r = await call(server, 'POST', '/phone-numbers', {
      token,
      body: { e164: '+861012345678' },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'country_not_supported');
  });

  it('labels: null gives the default by type; links, phone numbers and long labels are message_disallowed_content', async () => {
    assert.equal((await addNumber(server, token, '+447400123401', null)).label, 'Mobile');
    const landline = await addNumber(server, token, '+442079460101');
    assert.equal(landline.label, 'Landline');
    assert.deepEqual(
      landline.verification,
      { channel: 'call', sent: true },
      'a pure landline gets its code by a call',
    );
    for (const label of [
      'see example.com',
      'call 555 123 4567',
      'x'.repeat(61),
      'me@example.com',
      '   ',
    ]) {
      const r = await call(server, 'POST', '/phone-numbers', {
        token,
        body: { e164: '+12015550103', label },
      });
      assert.equal(r.status, 400, label);
      assert.equal(r.body.code, 'message_disallowed_content', label);
    }
  });

  it('rejects unknown fields (PhoneNumberIn is closed)', async () => {
    const r = await call(server, 'POST', '/phone-numbers', {
      token,
      body: { e164: '+12015550104', nickname: 'x' },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'validation_error');
  });

  it('adding a number the account already has answers it again with a new code', async () => {
    const first = await addNumber(server, token, '+12015550105');
    const again = await addNumber(server, token, '+12015550105', 'Kitchen');
    assert.equal(again.id, first.id);
    assert.equal(again.label, 'Kitchen');
    assert.equal((await textsTo(server, '+12015550105')).length, 2);
  });

  it('an Idempotency-Key replays the first answer without sending a second code', async () => {
    const headers = { 'Idempotency-Key': 'add-0106' };
    const a = await call(server, 'POST', '/phone-numbers', {
      token,
      body: { e164: '+12015550106' },
      headers,
    });
    const b = await call(server, 'POST', '/phone-numbers', {
      token,
      body: { e164: '+12015550106' },
      headers,
    });
    assert.equal(a.status, 201);
    assert.deepEqual(b.body, a.body);
    assert.equal((await textsTo(server, '+12015550106')).length, 1);
  });

  it('PATCH: one primary per account, only a verified number can become it; labels change; null and false change nothing', async () => {
    const { token: t } = await signIn(server, 'primary@example.com');
    const a = await addVerifiedNumber(server, t, '+12015550111');
    const b = await addNumber(server, t, '+12015550112');
    assert.equal(a.is_primary, true);
    assert.equal(b.is_primary, false);
    const refused = await call(server, 'PATCH', `/phone-numbers/${b.id}`, {
      token: t,
      body: { is_primary: true },
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'phone_number_unverified');

    const code = await latestCode(server, '+12015550112');
    assert.equal(
      (
        await call(server, 'POST', `/phone-numbers/${b.id}/verify/check`, {
          token: t,
          body: { code },
        })
      ).status,
      200,
    );
    const moved = await call(server, 'PATCH', `/phone-numbers/${b.id}`, {
      token: t,
      body: { is_primary: true, label: 'Office' },
    });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.is_primary, true);
    assert.equal(moved.body.label, 'Office');
    const list = await call(server, 'GET', '/phone-numbers', { token: t });
    assert.deepEqual(
      list.body.items.map((n: any) => [n.id, n.is_primary]),
      [
        [a.id, false],
        [b.id, true],
      ],
    );

    const unchanged = await call(server, 'PATCH', `/phone-numbers/${b.id}`, {
      token: t,
      body: { is_primary: false, label: null },
    });
    assert.equal(unchanged.body.is_primary, true);
    assert.equal(unchanged.body.label, 'Office');
    const bad = await call(server, 'PATCH', `/phone-numbers/${b.id}`, {
      token: t,
      body: { label: 'www.example.com' },
    });
    assert.equal(bad.body.code, 'message_disallowed_content');
  });

  it('GET pages oldest first with an opaque cursor; limit above 200 and a forged cursor are validation_error', async () => {
    const { token: t } = await signIn(server, 'paging@example.com');
    for (const n of ['+12015550121', '+12015550122', '+12015550123']) await addNumber(server, t, n);
    const p1 = await call(server, 'GET', '/phone-numbers?limit=2', { token: t });
    assert.equal(p1.status, 200);
    assert.deepEqual(
      p1.body.items.map((n: any) => n.e164),
      ['+12015550121', '+12015550122'],
    );
    assert.equal(typeof p1.body.next_cursor, 'string');
    const p2 = await call(server, 'GET', `/phone-numbers?limit=2&cursor=${p1.body.next_cursor}`, {
      token: t,
    });
    assert.deepEqual(
      p2.body.items.map((n: any) => n.e164),
      ['+12015550123'],
    );
    assert.equal(p2.body.next_cursor, null);
    assert.equal(
      (await call(server, 'GET', '/phone-numbers?limit=201', { token: t })).body.code,
      'validation_error',
    );
    assert.equal(
      (await call(server, 'GET', '/phone-numbers?cursor=bm90LWEta2V5', { token: t })).body.code,
      'validation_error',
    );
  });

  it("another account's number answers 404 not_found to GET-by-action, PATCH, DELETE and verify", async () => {
    const mine = await addNumber(server, token, '+12015550131');
    const { token: other } = await signIn(server, 'other@example.com');
    for (const [method, path, body] of [
      ['PATCH', `/phone-numbers/${mine.id}`, { label: 'Mine now' }],
      ['DELETE', `/phone-numbers/${mine.id}`, undefined],
      ['POST', `/phone-numbers/${mine.id}/verify/start`, {}],
      ['POST', `/phone-numbers/${mine.id}/verify/check`, { code: '123456' }],
    ] as const) {
      const r = await call(server, method, path, { token: other, body });
      assert.equal(r.status, 404, `${method} ${path}`);
      assert.equal(r.body.code, 'not_found');
    }
    assert.deepEqual(
      (await call(server, 'GET', '/phone-numbers', { token: other })).body.items,
      [],
    );
  });

  it('DELETE removes the number (204); removing the primary promotes the oldest remaining one', async () => {
    const { token: t } = await signIn(server, 'delete@example.com');
    const a = await addNumber(server, t, '+12015550141');
    const b = await addNumber(server, t, '+12015550142');
    const c = await addNumber(server, t, '+12015550143');
    assert.equal(
      (await call(server, 'DELETE', `/phone-numbers/${a.id}`, { token: t })).status,
      204,
    );
    const list = await call(server, 'GET', '/phone-numbers', { token: t });
    assert.deepEqual(
      list.body.items.map((n: any) => [n.id, n.is_primary]),
      [
        [b.id, true],
        [c.id, false],
      ],
    );
    assert.equal(
      (await call(server, 'DELETE', `/phone-numbers/${a.id}`, { token: t })).status,
      404,
    );
    // The number can be added again afterwards.
    assert.equal((await addNumber(server, t, '+12015550141')).is_primary, false);
  });

  it('DELETE answers 409 number_in_use while an enabled wake-up call rings the number', async () => {
    const { token: t, account } = await signIn(server, 'inuse@example.com');
    const n = await addVerifiedNumber(server, t, '+12015550151');
    // Schedules arrive later; a pending occurrence on the number is what "rings it" today.
    await withTestDb(server, async (db) => {
      const now = Date.now();
      await db.run(
        `INSERT INTO occurrences (id, schedule_id, account_id, phone_number_id, to_e164, derivation_source, scheduled_at,
           max_snoozes, offsets_minutes, ring_timeout_seconds, snooze_minutes, sms_fallback, backup_alarm, status,
           attempt_count, snooze_count, series_base, retry_index, next_due_at, reached_person, reached_voicemail,
           fallback_state, created_at, updated_at)
         VALUES ('00000000-0000-4000-8000-000000000151', NULL, ?, ?, '+12015550151', 'in_minutes', ?, 2, '[5,10]', 45, 9, FALSE, FALSE,
           'pending', 0, 0, ?, 0, ?, FALSE, FALSE, 'none', ?, ?)`,
        [account.id, n.id, now + 3_600_000, now + 3_600_000, now + 3_600_000, now, now],
      );
      const r = await call(server, 'DELETE', `/phone-numbers/${n.id}`, { token: t });
      assert.equal(r.status, 409);
      assert.equal(r.body.code, 'number_in_use');
      await db.run(
        `UPDATE occurrences SET status = 'cancelled', outcome_reason = 'cancelled', next_due_at = NULL WHERE phone_number_id = ?`,
        [n.id],
      );
      assert.equal(
        (await call(server, 'DELETE', `/phone-numbers/${n.id}`, { token: t })).status,
        204,
      );
    });
  });

  it('DELETE answers 409 number_in_use while an enabled schedule rings the number, 204 once it is disabled', async () => {
    const { token: t } = await signIn(server, 'inuse-schedule@example.com');
    const n = await addVerifiedNumber(server, t, '+12015550152');
    const created = await call(server, 'POST', '/schedules', {
      token: t,
      body: {
        kind: 'recurring',
        days_of_week: ['mon'],
        local_time: '07:00',
        timezone: 'Europe/London',
        phone_number_id: n.id,
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const refused = await call(server, 'DELETE', `/phone-numbers/${n.id}`, { token: t });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'number_in_use');
    const off = await call(server, 'PATCH', `/schedules/${created.body.id}`, {
      token: t,
      body: { enabled: false },
    });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.equal(
      (await call(server, 'DELETE', `/phone-numbers/${n.id}`, { token: t })).status,
      204,
    );
    const kept = await call(server, 'GET', `/schedules/${created.body.id}`, { token: t });
    assert.equal(
      kept.body.phone_number,
      null,
      'the disabled schedule keeps its history without the number',
    );
  });

  it('needs credentials: 401 unauthenticated without them', async () => {
    const r = await call(server, 'GET', '/phone-numbers');
    assert.equal(r.status, 401);
    assert.equal(r.body.code, 'unauthenticated');
  });
});
