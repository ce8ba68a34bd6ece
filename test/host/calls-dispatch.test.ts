/**
 * Dispatch through HTTP on the virtual clock: every path of the occurrence and attempt
 * machines as the API shows them (GET /occurrences/{id} with its attempts), played by the
 * simulated phone (PUT /dev/phones) when POST /dev/clock passes the call's instant.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../helpers/server.js';
import {
  advance,
  assertEnded,
  assertSchema,
  createCall,
  fallbackTexts,
  newAccount,
  nowMs,
  occurrence,
  phone,
  startCallsServer,
} from './calls-fixture.js';

const MIN = 60_000;
const t = (iso: string) => Date.parse(iso);

describe('dispatch: the occurrence and attempt machines through the API', () => {
  let server: TestServer;
  before(async () => {
    server = await startCallsServer();
  });
  after(async () => {
    await server.close();
  });

  it('README walk-through: a call for tomorrow 07:00 on the home clock rings then and is confirmed', async () => {
    const f = await newAccount(server, { home: 'Europe/Paris' });
    const tomorrow = new Date(nowMs(server) + 86_400_000).toLocaleDateString('en-CA', {
      timeZone: 'Europe/Paris',
    });
    const s = await f.api('POST', '/schedules', {
      kind: 'once',
      local_date: tomorrow,
      local_time: '07:00',
    });
    assert.equal(s.status, 201, JSON.stringify(s.body));
    const next = s.body.next_occurrence;
    assert.deepEqual(
      [next.local.date, next.local.time, next.local.timezone],
      [tomorrow, '07:00', 'Europe/Paris'],
    );
    const clock = await f.api('POST', '/dev/clock', { to: next.scheduled_at });
    assert.equal(clock.status, 200);
    await advance(server, 120);
    const o = await occurrence(f, next.id);
    assert.deepEqual(
      [o.status, o.attempts.length, o.attempts[0].status],
      ['confirmed', 1, 'confirmed'],
    );
    assert.equal(o.attempts[0].requested_at, next.scheduled_at, 'rang at 07:00 Paris time');
  });

  it('confirm (key 1): confirmed with one attempt recording every step; last_confirmed_at on the number', async () => {
    const f = await newAccount(server);
    const { occurrenceId, schedule } = await createCall(f, { sms_fallback: true });
    const pending = await occurrence(f, occurrenceId);
    assert.deepEqual(
      [pending.status, pending.outcome_reason, pending.attempts],
      ['pending', null, []],
    );
    assert.equal(pending.schedule_id, schedule.id);
    assert.equal(pending.derivation_source, 'in_minutes');
    assert.equal(pending.phone_number.id, f.phoneId);

    await advance(server, 120);
    const o = await occurrence(f, occurrenceId);
    assert.deepEqual(
      [o.status, o.outcome_reason, o.attempt_count, o.snooze_count],
      ['confirmed', 'confirmed', 1, 0],
    );
    assert.equal(o.dispatched_at, o.scheduled_at);
    assert.notEqual(o.confirmed_at, null);
    assert.equal(o.finished_at, o.confirmed_at);
    const [a] = o.attempts;
    assertEnded(a, { status: 'confirmed', answered_by: 'person', digits: '1' });
    assert.deepEqual(
      [a.kind, a.n, a.occurrence_id, a.error_code, a.due_at],
      ['first', 1, occurrenceId, '', o.scheduled_at],
    );
    assert.equal(a.requested_at, o.scheduled_at);
    assert.ok(a.answered_at < a.ended_at);
    assert.equal(a.duration_seconds, Math.round((t(a.ended_at) - t(a.answered_at)) / 1000));
    assert.deepEqual(
      await fallbackTexts(server, f.number),
      [],
      'no fallback text after a confirmation',
    );
    const n = await f.api('GET', '/phone-numbers');
    assert.equal(n.body.items[0].last_confirmed_at, a.answered_at);
  });

  it('snooze (key 2) while snoozes remain, then the snooze attempt; backup_alarm_at moves on snooze', async () => {
    const f = await newAccount(server);
    await phone(server, f.number, ['snooze', 'confirm']);
    const { occurrenceId } = await createCall(f, {
      backup_alarm: true,
      retry_policy: { offsets_minutes: [], snooze_minutes: 9, max_snoozes: 2 },
    });
    const before = await occurrence(f, occurrenceId);
    assert.equal(
      t(before.backup_alarm_at),
      t(before.scheduled_at) + 2 * MIN,
      'the backup alarm rings 2 minutes after the call',
    );

    await advance(server, 120);
    const waiting = await occurrence(f, occurrenceId);
    assert.deepEqual(
      [waiting.status, waiting.snooze_count, waiting.outcome_reason, waiting.attempt_count],
      ['waiting', 1, null, 1],
    );
    assertEnded(waiting.attempts[0], { status: 'snoozed', answered_by: 'person', digits: '2' });
    const movedAlarm = t(waiting.backup_alarm_at);
    assert.ok(movedAlarm > t(before.backup_alarm_at), 'backup alarm moved later');

    await advance(server, 10 * 60);
    const o = await occurrence(f, occurrenceId);
    assert.deepEqual(
      [o.status, o.outcome_reason, o.snooze_count, o.attempt_count],
      ['confirmed', 'confirmed', 1, 2],
    );
    const [first, snooze] = o.attempts;
    assert.deepEqual([snooze.kind, snooze.n], ['snooze', 2]);
    assertEnded(snooze, { status: 'confirmed', answered_by: 'person', digits: '1' });
    // Key 2 was pressed after the answer; the snooze attempt rings snooze_minutes later.
    const gap = t(snooze.due_at) - t(first.answered_at);
    assert.ok(gap >= 9 * MIN && gap < 10 * MIN, `snooze rang ${gap} ms after the answer`);
    assert.equal(
      t(o.backup_alarm_at),
      t(snooze.due_at) + 2 * MIN,
      'backup alarm follows the snooze',
    );
    assert.equal(movedAlarm, t(o.backup_alarm_at));
  });

  it('snoozes exhausted: key 2 with none left ends unconfirmed (snoozes_exhausted) and sends the fallback text', async () => {
    const f = await newAccount(server);
    await phone(server, f.number, ['snooze']);
    const { occurrenceId } = await createCall(f, {
      sms_fallback: true,
      retry_policy: { offsets_minutes: [], max_snoozes: 1, snooze_minutes: 1 },
    });
    await advance(server, 10 * 60);
    const o = await occurrence(f, occurrenceId);
    assert.deepEqual(
      [o.status, o.outcome_reason, o.snooze_count, o.attempt_count],
      ['unconfirmed', 'snoozes_exhausted', 1, 2],
    );
    assertEnded(o.attempts[0], { status: 'snoozed', digits: '2' });
    assertEnded(o.attempts[1], { status: 'no_input', answered_by: 'person', digits: '2' });
    assert.equal(o.attempts[1].kind, 'snooze');
    const sms = await fallbackTexts(server, f.number);
    assert.equal(sms.length, 1);
    assert.match(
      sms[0]!,
      /^Wake-Up Call: your wake-up call at \d\d:\d\d was not confirmed\. Time to get up! Reply STOP to opt out\.$/,
    );
  });

  it('silent: answered without a key ends unconfirmed (no_input), fallback text on', async () => {
    const f = await newAccount(server);
    await phone(server, f.number, ['silent']);
    const { occurrenceId } = await createCall(f, { sms_fallback: true });
    await advance(server, 5 * 60);
    const o = await occurrence(f, occurrenceId);
    assert.deepEqual(
      [o.status, o.outcome_reason, o.reached_voicemail],
      ['unconfirmed', 'no_input', false],
    );
    assertEnded(o.attempts[0], { status: 'no_input', answered_by: 'person', digits: null });
    assert.equal((await fallbackTexts(server, f.number)).length, 1);
  });

  it('voicemail: a machine answers; unconfirmed (voicemail), reached_voicemail true', async () => {
    const f = await newAccount(server);
    await phone(server, f.number, ['voicemail']);
    const { occurrenceId } = await createCall(f, { sms_fallback: true });
    await advance(server, 5 * 60);
    const o = await occurrence(f, occurrenceId);
    assert.deepEqual(
      [o.status, o.outcome_reason, o.reached_voicemail],
      ['unconfirmed', 'voicemail', true],
    );
    assertEnded(o.attempts[0], { status: 'voicemail', answered_by: 'machine', digits: null });
    assert.equal((await fallbackTexts(server, f.number)).length, 1);
  });

  it('no_answer: retries ring at the offsets after the instant, then missed (no_answer) with the fallback text', async () => {
    const f = await newAccount(server);
    await phone(server, f.number, ['no_answer']);
    const { occurrenceId } = await createCall(f, {
      sms_fallback: true,
      retry_policy: { offsets_minutes: [5, 10], ring_timeout_seconds: 30 },
    });
    await advance(server, 6 * 60);
    const mid = await occurrence(f, occurrenceId);
    assert.equal(mid.attempt_count, 2);
    assert.ok(['waiting', 'calling', 'dispatching'].includes(mid.status), mid.status);
    await advance(server, 10 * 60);
    const o = await occurrence(f, occurrenceId);
    assert.deepEqual([o.status, o.outcome_reason, o.attempt_count], ['missed', 'no_answer', 3]);
    assert.deepEqual(
      o.attempts.map((a: any) => a.kind),
      ['first', 'retry', 'retry'],
    );
    const base = t(o.scheduled_at);
    assert.deepEqual(
      o.attempts.map((a: any) => t(a.due_at) - base),
      [0, 5 * MIN, 10 * MIN],
    );
    for (const a of o.attempts) {
      assertEnded(a, { status: 'no_answer', answered_by: null });
      assert.equal(a.answered_at, null);
      assert.equal(t(a.ended_at) - t(a.ringing_at), 30_000, 'rang for ring_timeout_seconds');
    }
    assert.equal((await fallbackTexts(server, f.number)).length, 1, 'one text, at the end');
  });

  it('no answer, then the retry confirms: confirmed after two attempts', async () => {
    const f = await newAccount(server);
    await phone(server, f.number, ['no_answer', 'confirm']);
    const { occurrenceId } = await createCall(f, {
      sms_fallback: true,
      retry_policy: { offsets_minutes: [3] },
    });
    await advance(server, 10 * 60);
    const o = await occurrence(f, occurrenceId);
    assert.deepEqual(
      [o.status, o.attempts.map((a: any) => `${a.kind}:${a.status}`)],
      ['confirmed', ['first:no_answer', 'retry:confirmed']],
    );
    assert.equal(t(o.attempts[1].due_at) - t(o.scheduled_at), 3 * MIN);
    assert.deepEqual(await fallbackTexts(server, f.number), []);
  });

  it('busy: missed (busy) after the retries', async () => {
    const f = await newAccount(server);
    await phone(server, f.number, ['busy']);
    const { occurrenceId } = await createCall(f, { retry_policy: { offsets_minutes: [1] } });
    await advance(server, 5 * 60);
    const o = await occurrence(f, occurrenceId);
    assert.deepEqual([o.status, o.outcome_reason, o.attempt_count], ['missed', 'busy', 2]);
    for (const a of o.attempts) assertEnded(a, { status: 'busy', answered_by: null });
    assert.deepEqual(await fallbackTexts(server, f.number), [], 'sms_fallback is off by default');
  });

  it('fail: the provider refuses every attempt; failed (provider_error) with error_code, fallback text on', async () => {
    const f = await newAccount(server);
    await phone(server, f.number, ['fail']);
    const { occurrenceId } = await createCall(f, {
      sms_fallback: true,
      retry_policy: { offsets_minutes: [1] },
    });
    await advance(server, 5 * 60);
    const o = await occurrence(f, occurrenceId);
    assert.deepEqual(
      [o.status, o.outcome_reason, o.attempt_count],
      ['failed', 'provider_error', 2],
    );
    for (const a of o.attempts) {
      assertEnded(a, { status: 'failed', answered_by: null });
      assert.equal(a.error_code, 'provider_refused');
      assert.equal(a.ringing_at, null);
    }
    assert.equal((await fallbackTexts(server, f.number)).length, 1);
    // A refused call is not a call placed: the trial did not spend it.
    const usage = await f.api('GET', '/me/usage');
    assert.equal(usage.body.trial_calls_used, 0);
  });

  it('GET /calls lists every attempt, newest first, and GET /calls/{id} returns one', async () => {
    const f = await newAccount(server);
    await phone(server, f.number, ['no_answer', 'confirm']);
    const { occurrenceId } = await createCall(f, { retry_policy: { offsets_minutes: [2] } });
    await advance(server, 5 * 60);
    const list = await f.api('GET', '/calls');
    assert.equal(list.status, 200);
    assertSchema('AttemptPage', list.body);
    assert.deepEqual(
      list.body.items.map((a: any) => `${a.kind}:${a.status}`),
      ['retry:confirmed', 'first:no_answer'],
    );
    assert.ok(list.body.items.every((a: any) => a.occurrence_id === occurrenceId));
    const one = await f.api('GET', `/calls/${list.body.items[1].id}`);
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, list.body.items[1]);
  });

  it('a call stays pending until its instant, whatever happens before (no early dispatch)', async () => {
    const f = await newAccount(server);
    const { occurrenceId } = await createCall(f, {}, 30);
    const o0 = await occurrence(f, occurrenceId);
    await advance(server, 29 * 60 + 59);
    const o = await occurrence(f, occurrenceId);
    assert.deepEqual([o.status, o.attempts.length], ['pending', 0]);
    assert.equal(o.in_seconds, Math.trunc((t(o0.scheduled_at) - nowMs(server)) / 1000));
    await advance(server, 60);
    assert.equal((await occurrence(f, occurrenceId)).status, 'confirmed');
  });
});
