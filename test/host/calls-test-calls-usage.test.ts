/**
 * Test calls, usage and entitlement, the daily cap, through HTTP:
 * - POST /phone-numbers/{id}/test-call and POST /schedules/{id}/test-call: 201 new, 200 the
 *   live one, 400 phone_number_unverified, 404 across accounts, replay by Idempotency-Key;
 * - the trial (5 calls, 7 days; test calls count, retries do not, refused calls do not):
 *   GET /me/usage, Plan.entitled, 402 no_entitlement, a due call cancelled no_entitlement,
 *   two calls due together never both taking the last trial call;
 * - the daily cap (WAKEUP_DAILY_CAP): 429 daily_cap_reached with Retry-After to midnight UTC,
 *   retries count, a due call past the cap is cancelled daily_cap_reached.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../helpers/server.js';
import { addNumber, call } from '../helpers/phone.js';
import {
  advance,
  assertEnded,
  assertSchema,
  createCall,
  freshNumber,
  newAccount,
  nowMs,
  occurrence,
  phone,
  startCallsServer,
  type CallsAccount,
} from './calls-fixture.js';

/** Places a test call and lets it play (confirmed); returns the attempt. */
async function testCall(server: TestServer, f: CallsAccount): Promise<any> {
  const r = await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await advance(server, 60);
  return r.body;
}

describe('test calls', () => {
  let server: TestServer;
  before(async () => {
    server = await startCallsServer();
  });
  after(async () => {
    await server.close();
  });

  it('201 a new test call; 200 with the same one while it is live; 201 again once it ended', async () => {
    const f = await newAccount(server);
    await phone(server, f.number, ['confirm'], 20);
    const r = await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`);
    assert.equal(r.status, 201);
    assertSchema('AttemptOut', r.body);
    assert.deepEqual(
      [r.body.kind, r.body.n, r.body.occurrence_id, r.body.status, r.body.live],
      ['test', 1, null, 'requested', true],
    );
    await advance(server, 5);
    const again = await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`);
    assert.equal(again.status, 200);
    assert.equal(again.body.id, r.body.id);
    assert.equal(again.body.status, 'ringing');

    await advance(server, 60);
    const done = await f.api('GET', `/calls/${r.body.id}`);
    assertEnded(done.body, { status: 'confirmed', answered_by: 'person', digits: '1' });
    // Written in the confirming unit's transaction: the read right after the call ended sees it.
    const numbers = await f.api('GET', '/phone-numbers');
    assert.equal(numbers.body.items[0].last_test_call_at, r.body.created_at);
    assert.equal(numbers.body.items[0].last_confirmed_at, done.body.answered_at);

    const next = await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`);
    assert.equal(next.status, 201);
    assert.notEqual(next.body.id, r.body.id);
    const calls = await f.api('GET', '/calls');
    assert.deepEqual(
      calls.body.items.map((a: any) => a.id),
      [next.body.id, r.body.id],
      'newest first',
    );
    const usage = await f.api('GET', '/me/usage');
    assert.equal(usage.body.trial_calls_used, 2, 'each test call counts');
    await advance(server, 60);
  });

  it('the same Idempotency-Key replays the first answer and places nothing more', async () => {
    const f = await newAccount(server);
    const headers = { 'Idempotency-Key': 'test-call-1' };
    const first = await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`, undefined, headers);
    assert.equal(first.status, 201);
    await advance(server, 60);
    const replay = await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`, undefined, headers);
    assert.deepEqual([replay.status, replay.body], [201, first.body]);
    assert.equal((await f.api('GET', '/calls')).body.items.length, 1);
  });

  it('400 phone_number_unverified; 404 for a number or schedule of another account; nothing stored', async () => {
    const f = await newAccount(server);
    const other = await newAccount(server);
    const unverified = await addNumber(server, f.token, freshNumber());
    const r = await f.api('POST', `/phone-numbers/${unverified.id}/test-call`);
    assert.deepEqual([r.status, r.body.code], [400, 'phone_number_unverified']);
    const { schedule } = await createCall(f, {}, 60);
    for (const path of [
      `/phone-numbers/${f.phoneId}/test-call`,
      `/schedules/${schedule.id}/test-call`,
    ]) {
      const x = await other.api('POST', path);
      assert.deepEqual([x.status, x.body.code], [404, 'not_found'], path);
    }
    assert.deepEqual((await f.api('GET', '/calls')).body.items, []);
    assert.deepEqual((await other.api('GET', '/calls')).body.items, []);
    assert.equal(
      (await f.api('POST', `/occurrences/${schedule.next_occurrence.id}/cancel`)).status,
      200,
    );
  });

  it("POST /schedules/{id}/test-call calls the schedule's number with its ring timeout; 400 once its number is gone", async () => {
    const f = await newAccount(server);
    await phone(server, f.number, ['no_answer']);
    const s = await f.api('POST', '/schedules', {
      kind: 'once',
      in_minutes: 600,
      enabled: false,
      retry_policy: { ring_timeout_seconds: 20 },
      message: 'Time for the train',
    });
    assert.equal(s.status, 201);
    const r = await f.api('POST', `/schedules/${s.body.id}/test-call`);
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.deepEqual([r.body.kind, r.body.occurrence_id], ['test', null]);
    await advance(server, 60);
    const a = (await f.api('GET', `/calls/${r.body.id}`)).body;
    assertEnded(a, { status: 'no_answer', answered_by: null });
    assert.equal(Date.parse(a.ended_at) - Date.parse(a.ringing_at), 20_000);

    assert.equal((await f.api('DELETE', `/phone-numbers/${f.phoneId}`)).status, 204);
    const gone = await f.api('POST', `/schedules/${s.body.id}/test-call`);
    assert.deepEqual([gone.status, gone.body.code], [400, 'validation_error']);
  });

  it('GET /calls/{id}: 401 without credentials (existing or not), 404 for another account', async () => {
    const f = await newAccount(server);
    const other = await newAccount(server);
    const placed = await testCall(server, f);
    for (const id of [placed.id, '00000000-0000-4000-8000-000000000000']) {
      const anon = await call(server, 'GET', `/calls/${id}`);
      assert.deepEqual([anon.status, anon.body.code], [401, 'unauthenticated']);
    }
    const x = await other.api('GET', `/calls/${placed.id}`);
    assert.deepEqual([x.status, x.body.code], [404, 'not_found']);
  });
});

describe('usage, trial and entitlement', () => {
  let server: TestServer;
  before(async () => {
    server = await startCallsServer();
  });
  after(async () => {
    await server.close();
  });

  it('GET /me/usage on a new account: the 7-day, 5-call trial, nothing used', async () => {
    const f = await newAccount(server);
    const r = await f.api('GET', '/me/usage');
    assert.equal(r.status, 200);
    assertSchema('UsageOut', r.body);
    const u = r.body;
    assert.deepEqual(
      [u.calls_included, u.calls_used, u.credits_remaining, u.near_limit],
      [5, 0, 0, false],
    );
    assert.deepEqual([u.trial_calls_included, u.trial_calls_used, u.trial.calls_left], [5, 0, 5]);
    assert.equal(Date.parse(u.trial_ends_at) - Date.parse(u.trial_started_at), 7 * 86_400_000);
    assert.deepEqual(
      [u.period_start, u.period_end, u.trial.ends_at],
      [u.trial_started_at, u.trial_ends_at, u.trial_ends_at],
    );
    assert.deepEqual(u.plan, {
      code: 'trial',
      entitled: true,
      name: 'Free trial',
      source: null,
      status: 'trialing',
    });
  });

  it('a wake-up call counts once (retries free), a refused call not at all; after 5 calls 402 no_entitlement', async () => {
    const f = await newAccount(server);
    await phone(server, f.number, ['no_answer', 'confirm', 'fail', 'confirm']);
    const { occurrenceId } = await createCall(f, { retry_policy: { offsets_minutes: [2] } });
    await advance(server, 5 * 60);
    assert.equal((await occurrence(f, occurrenceId)).attempt_count, 2);
    assert.equal(
      (await f.api('GET', '/me/usage')).body.trial_calls_used,
      1,
      'two attempts, one call',
    );

    const refused = await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`);
    assert.equal(refused.status, 201);
    await advance(server, 60);
    assert.equal((await f.api('GET', `/calls/${refused.body.id}`)).body.status, 'failed');
    assert.equal(
      (await f.api('GET', '/me/usage')).body.trial_calls_used,
      1,
      'the provider refused it: not counted',
    );

    for (let i = 0; i < 3; i++) await testCall(server, f);
    const near = (await f.api('GET', '/me/usage')).body;
    assert.deepEqual(
      [near.trial_calls_used, near.trial.calls_left, near.near_limit, near.plan.entitled],
      [4, 1, true, true],
    );
    // The last trial call goes to a stored call; its retry is free even though no call is
    // left by then; the test call after it is refused.
    await phone(server, f.number, ['no_answer', 'confirm']);
    const last = await createCall(f, { retry_policy: { offsets_minutes: [2] } });
    await advance(server, 5 * 60);
    const lastOcc = await occurrence(f, last.occurrenceId);
    assert.deepEqual(
      [lastOcc.status, lastOcc.attempts.map((a: any) => a.kind)],
      ['confirmed', ['first', 'retry']],
    );
    const none = await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`);
    assert.deepEqual([none.status, none.body.code], [402, 'no_entitlement']);
    const me = await f.api('GET', '/me');
    assert.deepEqual(me.body.plan, {
      code: null,
      entitled: false,
      name: null,
      source: null,
      status: 'none',
    });
    const u = (await f.api('GET', '/me/usage')).body;
    assert.deepEqual(
      [u.calls_used, u.trial.calls_left, u.near_limit, u.plan.status],
      [5, 0, true, 'none'],
    );
    assert.equal(
      (await f.api('GET', '/calls')).body.items.length,
      8,
      'two attempts, the refused test call, 3 test calls, the last call and its retry; nothing for the 402',
    );
  });

  it('a stored call due when no trial call is left is cancelled (no_entitlement); two due together never share the last one', async () => {
    const f = await newAccount(server);
    for (let i = 0; i < 3; i++) await testCall(server, f);
    const a = await createCall(f, {}, 3);
    const b = await createCall(f, {}, 3);
    const c = await createCall(f, {}, 10);
    await testCall(server, f); // 4 used: one left for a and b, due at the same instant
    await advance(server, 3 * 60);
    const results = [await occurrence(f, a.occurrenceId), await occurrence(f, b.occurrenceId)].map(
      (o) => `${o.status}:${o.outcome_reason}`,
    );
    assert.deepEqual(results.sort(), ['cancelled:no_entitlement', 'confirmed:confirmed']);
    await advance(server, 10 * 60);
    const late = await occurrence(f, c.occurrenceId);
    assert.deepEqual(
      [late.status, late.outcome_reason, late.attempts],
      ['cancelled', 'no_entitlement', []],
    );
    assert.equal((await f.api('GET', '/me/usage')).body.trial_calls_used, 5);
  });

  it('the trial ends after 7 days whatever calls are left', async () => {
    const f = await newAccount(server);
    const { occurrenceId } = await createCall(f, {}, 1440);
    await advance(server, 7 * 86_400);
    const o = await occurrence(f, occurrenceId);
    assert.equal(o.status, 'confirmed', 'a call inside the trial rang');
    const r = await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`);
    assert.deepEqual([r.status, r.body.code], [402, 'no_entitlement']);
    const u = (await f.api('GET', '/me/usage')).body;
    assert.deepEqual(
      [u.trial_calls_used, u.trial.calls_left, u.plan.entitled, u.plan.status],
      [1, 0, false, 'none'],
    );
  });
});

describe('the daily cap', () => {
  let server: TestServer;
  before(async () => {
    server = await startCallsServer({ WAKEUP_DAILY_CAP: '3' });
  });
  after(async () => {
    await server.close();
  });

  it('429 daily_cap_reached with Retry-After to midnight UTC; calls work again the next UTC day', async () => {
    const f = await newAccount(server);
    for (let i = 0; i < 3; i++) await testCall(server, f);
    const r = await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`);
    assert.deepEqual([r.status, r.body.code], [429, 'daily_cap_reached']);
    const now = nowMs(server);
    const midnight = Math.floor(now / 86_400_000) * 86_400_000 + 86_400_000;
    assert.equal(r.headers.get('retry-after'), String(Math.ceil((midnight - now) / 1000)));
    await advance(server, Math.ceil((midnight - now) / 1000));
    const next = await f.api('POST', `/phone-numbers/${f.phoneId}/test-call`);
    assert.equal(next.status, 201, JSON.stringify(next.body));
    await advance(server, 60);
  });

  it('every attempt counts: a call whose retry would pass the cap is cancelled (daily_cap_reached)', async () => {
    const f = await newAccount(server);
    await phone(server, f.number, ['no_answer']);
    const { occurrenceId } = await createCall(f, {
      sms_fallback: true,
      retry_policy: { offsets_minutes: [2, 4, 6] },
    });
    await advance(server, 10 * 60);
    const o = await occurrence(f, occurrenceId);
    assert.deepEqual(
      [o.status, o.outcome_reason, o.attempt_count],
      ['cancelled', 'daily_cap_reached', 3],
    );
  });

  it('two calls due together with one call left today: one rings, the other is cancelled', async () => {
    const f = await newAccount(server);
    await testCall(server, f);
    await testCall(server, f);
    const a = await createCall(f, {}, 2);
    const b = await createCall(f, {}, 2);
    await advance(server, 3 * 60);
    const results = [await occurrence(f, a.occurrenceId), await occurrence(f, b.occurrenceId)].map(
      (o) => `${o.status}:${o.outcome_reason}`,
    );
    assert.deepEqual(results.sort(), ['cancelled:daily_cap_reached', 'confirmed:confirmed']);
  });
});
