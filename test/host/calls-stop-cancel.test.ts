/**
 * Key 9 and cancellation through HTTP: pressing 9 ends the call, sets calls_revoked_at and
 * blocks the number; later calls are refused (403 calls_revoked, and cancelled at dispatch)
 * until POST /me/resume-calls with consent; a blocked line is refused with number_blocked.
 * POST /occurrences/{id}/cancel on a pending, a ringing and a waiting call, and 409
 * occurrence_terminal once finished.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../helpers/server.js';
import { call, latestCode } from '../helpers/phone.js';
import {
  advance,
  assertEnded,
  assertSchema,
  createCall,
  fallbackTexts,
  newAccount,
  occurrence,
  phone,
  startCallsServer,
} from './calls-fixture.js';

describe('key 9 and POST /me/resume-calls', () => {
  let server: TestServer;
  before(async () => {
    server = await startCallsServer();
  });
  after(async () => {
    await server.close();
  });

  it('9 stops the call, turns calls off and blocks the number; later calls are refused until resume with consent', async () => {
    const f = await newAccount(server);
    await phone(server, f.number, ['stop', 'confirm']);
    const first = await createCall(f, {
      sms_fallback: true,
      retry_policy: { offsets_minutes: [5, 10] },
    });
    const later = await createCall(f, {}, 30);

    await advance(server, 5 * 60);
    const o = await occurrence(f, first.occurrenceId);
    assert.deepEqual([o.status, o.outcome_reason, o.attempt_count], ['cancelled', 'stopped', 1]);
    assertEnded(o.attempts[0], { status: 'stopped', answered_by: 'person', digits: '9' });
    assert.deepEqual(await fallbackTexts(server, f.number), [], 'no fallback text after 9');

    const me = await f.api('GET', '/me');
    assert.equal(me.body.calls_revoked_at, o.finished_at);
    const numbers = await f.api('GET', '/phone-numbers');
    assert.deepEqual(
      [numbers.body.items[0].blocked, numbers.body.items[0].blocked_reason],
      [true, 'key_9'],
    );

    // Every later call is refused: a test call at once, a stored call when it comes due.
    const test = await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`);
    assert.deepEqual([test.status, test.body.code], [403, 'calls_revoked']);
    await advance(server, 30 * 60);
    const refused = await occurrence(f, later.occurrenceId);
    assert.deepEqual(
      [refused.status, refused.outcome_reason, refused.attempts],
      ['cancelled', 'calls_revoked', []],
    );

    // Resuming needs explicit consent, from the holder (not an API key).
    for (const body of [{}, { consent: null }, { consent: false }]) {
      const r = await f.api('POST', '/me/resume-calls', body);
      assert.deepEqual(
        [r.status, r.body.code],
        [400, 'confirmation_required'],
        JSON.stringify(body),
      );
    }
    const key = await f.api('POST', '/api-keys', { name: 'script', scopes: ['read', 'write'] });
    assert.equal(key.status, 201);
    const byKey = await call(server, 'POST', '/me/resume-calls', {
      token: key.body.key,
      body: { consent: true },
    });
    assert.deepEqual([byKey.status, byKey.body.code], [403, 'insufficient_scope']);
    assert.notEqual((await f.api('GET', '/me')).body.calls_revoked_at, null, 'nothing changed');

    const resumed = await f.api('POST', '/me/resume-calls', { consent: true });
    assert.equal(resumed.status, 200);
    assertSchema('MeOut', resumed.body);
    assert.equal(resumed.body.calls_revoked_at, null);

    // The line stays blocked (its holder pressed 9) until the number is verified again.
    const blocked = await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`);
    assert.deepEqual([blocked.status, blocked.body.code], [403, 'number_blocked']);
    assert.equal((await f.api('POST', `/phone-numbers/${f.phoneId}/verify/start`, {})).status, 200);
    const check = await f.api('POST', `/phone-numbers/${f.phoneId}/verify/check`, {
      code: await latestCode(server, f.number),
    });
    assert.equal(check.status, 200);
    const ok = await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`);
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    await advance(server, 60);
    const played = await f.api('GET', `/calls/${ok.body.id}`);
    assert.equal(played.body.status, 'confirmed');
  });

  it('9 on a test call turns calls off too', async () => {
    const f = await newAccount(server);
    await phone(server, f.number, ['stop']);
    const r = await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`);
    assert.equal(r.status, 201);
    await advance(server, 60);
    const a = await f.api('GET', `/calls/${r.body.id}`);
    assertEnded(a.body, { status: 'stopped', digits: '9' });
    assert.notEqual((await f.api('GET', '/me')).body.calls_revoked_at, null);
  });

  it('a number that texted STOP: test calls 403 number_blocked, a stored call is cancelled (number_blocked) at dispatch', async () => {
    const f = await newAccount(server);
    const { occurrenceId } = await createCall(f, { sms_fallback: true });
    const stop = await call(server, 'POST', '/dev/sms/inbound', {
      body: { from: f.number, body: 'STOP' },
    });
    assert.equal(stop.status, 204);
    const test = await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`);
    assert.deepEqual([test.status, test.body.code], [403, 'number_blocked']);
    await advance(server, 120);
    const o = await occurrence(f, occurrenceId);
    assert.deepEqual([o.status, o.outcome_reason, o.attempts], ['cancelled', 'number_blocked', []]);
    assert.equal(
      (await f.api('GET', '/me')).body.calls_revoked_at,
      null,
      'STOP blocks the line, it does not turn the account off',
    );
  });
});

describe('POST /occurrences/{id}/cancel', () => {
  let server: TestServer;
  before(async () => {
    server = await startCallsServer();
  });
  after(async () => {
    await server.close();
  });

  it('cancels a pending call: nothing rings; a second cancel is 409 occurrence_terminal', async () => {
    const f = await newAccount(server);
    const { occurrenceId } = await createCall(f, { sms_fallback: true });
    const r = await f.api('POST', `/occurrences/${occurrenceId}/cancel`);
    assert.equal(r.status, 200);
    assertSchema('OccurrenceDetailOut', r.body);
    assert.deepEqual(
      [r.body.status, r.body.outcome_reason, r.body.attempts],
      ['cancelled', 'cancelled', []],
    );
    assert.notEqual(r.body.finished_at, null);
    await advance(server, 5 * 60);
    const o = await occurrence(f, occurrenceId);
    assert.deepEqual([o.status, o.attempts], ['cancelled', []]);
    assert.deepEqual(await fallbackTexts(server, f.number), []);
    const again = await f.api('POST', `/occurrences/${occurrenceId}/cancel`);
    assert.deepEqual([again.status, again.body.code], [409, 'occurrence_terminal']);
  });

  it('cancels a ringing call: the call is hung up, no retry follows', async () => {
    const f = await newAccount(server);
    await phone(server, f.number, ['confirm'], 30);
    const { occurrenceId } = await createCall(f, {
      sms_fallback: true,
      retry_policy: { offsets_minutes: [5] },
    });
    await advance(server, 70);
    const ringing = await occurrence(f, occurrenceId);
    assert.equal(ringing.status, 'calling');
    assert.equal(ringing.attempts[0].status, 'ringing');
    assert.equal(ringing.attempts[0].live, true);

    const r = await f.api('POST', `/occurrences/${occurrenceId}/cancel`);
    assert.equal(r.status, 200);
    assert.deepEqual([r.body.status, r.body.outcome_reason], ['cancelled', 'cancelled']);
    assert.equal(r.body.attempts[0].status, 'cancelled');
    await advance(server, 15 * 60);
    const o = await occurrence(f, occurrenceId);
    assert.deepEqual([o.status, o.attempt_count], ['cancelled', 1]);
    assertEnded(o.attempts[0], { status: 'cancelled', answered_by: null, digits: null });
    assert.equal(o.attempts[0].answered_at, null, 'hung up before the phone answered');
    assert.deepEqual(await fallbackTexts(server, f.number), []);
    const again = await f.api('POST', `/occurrences/${occurrenceId}/cancel`);
    assert.deepEqual([again.status, again.body.code], [409, 'occurrence_terminal']);
  });

  it('cancels a call waiting for its retry; a finished (confirmed) call answers 409', async () => {
    const f = await newAccount(server);
    await phone(server, f.number, ['no_answer', 'confirm']);
    const { occurrenceId } = await createCall(f, { retry_policy: { offsets_minutes: [5] } });
    await advance(server, 3 * 60);
    assert.equal((await occurrence(f, occurrenceId)).status, 'waiting');
    const r = await f.api('POST', `/occurrences/${occurrenceId}/cancel`);
    assert.deepEqual([r.status, r.body.status], [200, 'cancelled']);
    await advance(server, 10 * 60);
    assert.equal((await occurrence(f, occurrenceId)).attempt_count, 1);

    const done = await createCall(f);
    await advance(server, 3 * 60);
    assert.equal((await occurrence(f, done.occurrenceId)).status, 'confirmed');
    const late = await f.api('POST', `/occurrences/${done.occurrenceId}/cancel`);
    assert.deepEqual([late.status, late.body.code], [409, 'occurrence_terminal']);
  });

  it("another account's occurrence is 404 for GET and cancel; a read-only key cannot cancel", async () => {
    const f = await newAccount(server);
    const other = await newAccount(server);
    const { occurrenceId } = await createCall(f, {}, 60);
    for (const [method, path] of [
      ['GET', `/occurrences/${occurrenceId}`],
      ['POST', `/occurrences/${occurrenceId}/cancel`],
      ['GET', '/occurrences/not-a-uuid'],
    ]) {
      const r = await other.api(method!, path!);
      assert.deepEqual([r.status, r.body.code], [404, 'not_found'], `${method} ${path}`);
    }
    const key = await f.api('POST', '/api-keys', { name: 'reader', scopes: ['read'] });
    const r = await call(server, 'POST', `/occurrences/${occurrenceId}/cancel`, {
      token: key.body.key,
    });
    assert.deepEqual([r.status, r.body.code], [403, 'insufficient_scope']);
    assert.equal((await occurrence(f, occurrenceId)).status, 'pending');
    const cancel = await f.api('POST', `/occurrences/${occurrenceId}/cancel`);
    assert.equal(cancel.status, 200);
  });
});
