import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  OccurrenceStatus,
  PlaceCallRequest,
  Telephony,
  TelephonyEventHandler,
} from '../../engine/index.js';
import { callState } from '../../engine/internals.js';
import { harness, MIN, PHONE, T0 } from './harness.js';

const SMS = { smsFallback: true };

describe('runtime: dispatch and keypad', () => {
  it('dispatches at the instant, never before, and confirms on key 1', async () => {
    const h = await harness();
    const statuses: [OccurrenceStatus | null, OccurrenceStatus][] = [];
    h.runtime.on('occurrence:status', ({ occurrence, from }) =>
      statuses.push([from, occurrence.status]),
    );
    const o = await h.schedule({ backupAlarm: true });
    assert.equal(o.status, 'pending');
    assert.equal(o.backupAlarmAt, T0 + 120_000);
    await h.at(T0 - 1);
    assert.equal(h.phones.calls.length, 0);
    assert.equal((await h.occurrence(o.id)).status, 'pending');
    await h.at(T0 + MIN);
    const done = await h.occurrence(o.id);
    assert.equal(done.status, 'confirmed');
    assert.equal(done.outcomeReason, 'confirmed');
    assert.equal(done.dispatchedAt, T0);
    assert.equal(done.confirmedAt, T0 + 9000);
    assert.equal(done.finishedAt, T0 + 9000);
    assert.equal(done.attemptCount, 1);
    assert.equal(done.nextDueAt, null);
    const [a] = await h.attempts(o.id);
    assert.equal(a!.kind, 'first');
    assert.equal(a!.n, 1);
    assert.equal(a!.status, 'confirmed');
    assert.equal(a!.dueAt, T0);
    assert.equal(a!.requestedAt, T0);
    assert.equal(a!.ringingAt, T0 + 1000);
    assert.equal(a!.answeredAt, T0 + 6000);
    assert.equal(a!.answeredBy, 'person');
    assert.equal(a!.digits, '1');
    assert.equal(a!.endedAt, T0 + 11_000, 'ended after the closing sentence');
    assert.equal(a!.durationSeconds, 5);
    assert.equal(a!.providerCallId, h.phones.calls[0]!.callId);
    assert.equal(a!.idempotencyKey, a!.id);
    assert.equal(a!.deadlineAt, null);
    assert.deepEqual(h.phones.calls[0]!.hungUpWith, { say: h.runtime.options.phrases.confirmed });
    assert.deepEqual(statuses, [
      [null, 'pending'],
      ['pending', 'dispatching'],
      ['dispatching', 'calling'],
      ['calling', 'confirmed'],
    ]);
    assert.equal(h.messaging.texts.length, 0);
  });

  it('places the wake-up script with the greeting, note, voice and the snooze offer', async () => {
    const h = await harness();
    await h.schedule({ greetingName: 'Sam', message: 'Gym day', voice: 'male' });
    await h.at(T0 + MIN);
    assert.deepEqual(h.phones.calls[0]!.request.script, {
      kind: 'wake_up',
      greetingName: 'Sam',
      message: 'Gym day',
      snoozeAllowed: true,
      voice: 'male',
    });
    assert.equal(h.phones.calls[0]!.request.ringTimeoutSeconds, 45);
    assert.equal(h.phones.calls[0]!.request.to, PHONE);
  });

  it('key 2 snoozes: the next attempt rings snooze_minutes later and the backup alarm moves', async () => {
    const h = await harness();
    h.phones.setPhone(PHONE, ['snooze', 'confirm']);
    const o = await h.schedule({ backupAlarm: true });
    await h.at(T0 + MIN);
    const waiting = await h.occurrence(o.id);
    assert.equal(waiting.status, 'waiting');
    assert.equal(waiting.snoozeCount, 1);
    const snoozeAt = T0 + 9000 + 9 * MIN;
    assert.equal(waiting.nextDueAt, snoozeAt);
    assert.equal(waiting.backupAlarmAt, snoozeAt + 120_000);
    assert.equal((await h.attempts(o.id))[0]!.status, 'snoozed');
    await h.at(snoozeAt - 1);
    assert.equal(h.phones.calls.length, 1);
    await h.at(snoozeAt + MIN);
    const done = await h.occurrence(o.id);
    assert.equal(done.status, 'confirmed');
    const attempts = await h.attempts(o.id);
    assert.deepEqual(
      attempts.map((a) => [a.kind, a.n, a.status, a.dueAt]),
      [
        ['first', 1, 'snoozed', T0],
        ['snooze', 2, 'confirmed', snoozeAt],
      ],
    );
    assert.equal(
      h.phones.calls[1]!.request.script.kind === 'wake_up' &&
        h.phones.calls[1]!.request.script.snoozeAllowed,
      true,
    );
  });

  it('key 2 with no snoozes left ends unconfirmed (snoozes_exhausted) and texts', async () => {
    const h = await harness();
    h.phones.setPhone(PHONE, 'snooze');
    const o = await h.schedule({
      ...SMS,
      policy: { maxSnoozes: 1, offsetsMinutes: [5], ringTimeoutSeconds: 45, snoozeMinutes: 3 },
    });
    await h.at(T0 + 30 * MIN);
    const done = await h.occurrence(o.id);
    assert.equal(done.status, 'unconfirmed');
    assert.equal(done.outcomeReason, 'snoozes_exhausted');
    assert.equal(done.snoozeCount, 1);
    const attempts = await h.attempts(o.id);
    assert.deepEqual(
      attempts.map((a) => [a.kind, a.status, a.digits]),
      [
        ['first', 'snoozed', '2'],
        ['snooze', 'no_input', '2'],
      ],
    );
    const second = h.phones.calls[1]!.request.script;
    assert.equal(second.kind === 'wake_up' && second.snoozeAllowed, false);
    assert.equal(h.phones.calls[1]!.hungUpWith?.say, h.runtime.options.phrases.no_snoozes);
    assert.equal(h.messaging.texts.length, 1);
    assert.equal(done.fallbackState, 'sent');
  });

  it('key 9 stops: calls turned off and number blocked through the Accounts port, no text, later calls refused', async () => {
    const h = await harness();
    h.phones.setPhone(PHONE, 'stop');
    const o = await h.schedule(SMS);
    const later = await h.schedule({ ...SMS, scheduledAt: T0 + 60 * MIN });
    await h.at(T0 + MIN);
    const done = await h.occurrence(o.id);
    assert.equal(done.status, 'cancelled');
    assert.equal(done.outcomeReason, 'stopped');
    assert.equal((await h.attempts(o.id))[0]!.status, 'stopped');
    assert.equal(h.accounts.stops.length, 1);
    assert.deepEqual(
      { ...h.accounts.stops[0]!, attemptId: undefined },
      {
        accountId: 'a1',
        phoneNumberId: 'p1',
        to: PHONE,
        occurrenceId: o.id,
        attemptId: undefined,
        at: T0 + 9000,
      },
    );
    assert.equal(h.messaging.texts.length, 0);
    await h.at(T0 + 61 * MIN);
    const refused = await h.occurrence(later.id);
    assert.equal(refused.status, 'cancelled');
    assert.equal(refused.outcomeReason, 'calls_revoked');
    assert.equal(refused.attemptCount, 0);
    assert.equal(h.phones.calls.length, 1);
    assert.equal(h.messaging.texts.length, 0);
  });

  it('ignores other keys; a call that ends without a valid key counts as no input', async () => {
    const h = await harness();
    h.phones.setPhone(PHONE, 'silent');
    const o = await h.schedule({
      policy: { maxSnoozes: 2, offsetsMinutes: [], ringTimeoutSeconds: 45, snoozeMinutes: 9 },
    });
    await h.at(T0 + 2);
    // A stray key from the provider while answered changes nothing.
    await h.at(T0 + 7000);
    const a = (await h.attempts(o.id))[0]!;
    const handler = (h.phones as unknown as { handler: TelephonyEventHandler }).handler;
    await handler({
      type: 'call.digits',
      callId: a.providerCallId!,
      idempotencyKey: a.id,
      at: T0 + 7000,
      digits: '5',
    });
    assert.equal((await h.attempts(o.id))[0]!.status, 'answered');
    await h.at(T0 + 5 * MIN);
    const done = await h.occurrence(o.id);
    assert.equal(done.status, 'unconfirmed');
    assert.equal(done.outcomeReason, 'no_input');
    assert.equal((await h.attempts(o.id))[0]!.status, 'no_input');
  });
});

describe('runtime: unanswered calls, retries and fallback', () => {
  const policy = {
    maxSnoozes: 2,
    offsetsMinutes: [5, 10],
    ringTimeoutSeconds: 30,
    snoozeMinutes: 9,
  };

  it('no answer: retries at offsets_minutes, then missed (no_answer) and one fallback text', async () => {
    const h = await harness();
    h.phones.setPhone(PHONE, 'no_answer');
    const o = await h.schedule({ ...SMS, policy, label: 'Gym' });
    await h.at(T0 + 4 * MIN);
    assert.equal((await h.occurrence(o.id)).status, 'waiting');
    assert.equal((await h.occurrence(o.id)).nextDueAt, T0 + 5 * MIN);
    await h.at(T0 + 30 * MIN);
    const done = await h.occurrence(o.id);
    assert.equal(done.status, 'missed');
    assert.equal(done.outcomeReason, 'no_answer');
    assert.equal(done.attemptCount, 3);
    assert.deepEqual(
      (await h.attempts(o.id)).map((a) => [a.kind, a.n, a.status, a.dueAt, a.requestedAt]),
      [
        ['first', 1, 'no_answer', T0, T0],
        ['retry', 2, 'no_answer', T0 + 5 * MIN, T0 + 5 * MIN],
        ['retry', 3, 'no_answer', T0 + 10 * MIN, T0 + 10 * MIN],
      ],
    );
    assert.equal(h.messaging.texts.length, 1);
    assert.equal(h.messaging.texts[0]!.to, PHONE);
    assert.equal(h.messaging.texts[0]!.idempotencyKey, `fallback:${o.id}`);
    assert.match(h.messaging.texts[0]!.body, /Gym/);
    assert.equal(done.fallbackState, 'sent');
  });

  it('retry then confirm', async () => {
    const h = await harness();
    h.phones.setPhone(PHONE, ['no_answer', 'confirm']);
    const o = await h.schedule({ ...SMS, policy });
    await h.at(T0 + 30 * MIN);
    assert.equal((await h.occurrence(o.id)).status, 'confirmed');
    assert.deepEqual(
      (await h.attempts(o.id)).map((a) => a.kind),
      ['first', 'retry'],
    );
    assert.equal(h.messaging.texts.length, 0);
  });

  it('busy every time ends missed (busy)', async () => {
    const h = await harness();
    h.phones.setPhone(PHONE, 'busy');
    const o = await h.schedule({ policy });
    await h.at(T0 + 30 * MIN);
    assert.equal((await h.occurrence(o.id)).status, 'missed');
    assert.equal((await h.occurrence(o.id)).outcomeReason, 'busy');
    assert.deepEqual(
      (await h.attempts(o.id)).map((a) => a.status),
      ['busy', 'busy', 'busy'],
    );
  });

  it('provider refusal every time ends failed (provider_error) with the error code on each attempt', async () => {
    const h = await harness();
    h.phones.setPhone(PHONE, 'fail');
    const o = await h.schedule({ ...SMS, policy });
    await h.at(T0 + 30 * MIN);
    const done = await h.occurrence(o.id);
    assert.equal(done.status, 'failed');
    assert.equal(done.outcomeReason, 'provider_error');
    assert.deepEqual(
      (await h.attempts(o.id)).map((a) => [a.status, a.errorCode]),
      [
        ['failed', 'provider_refused'],
        ['failed', 'provider_refused'],
        ['failed', 'provider_refused'],
      ],
    );
    assert.equal(h.messaging.texts.length, 1);
  });

  it('voicemail every time ends unconfirmed (voicemail) with reached_voicemail', async () => {
    const h = await harness();
    h.phones.setPhone(PHONE, 'voicemail');
    const o = await h.schedule({ policy: { ...policy, offsetsMinutes: [5] } });
    await h.at(T0 + 30 * MIN);
    const done = await h.occurrence(o.id);
    assert.equal(done.status, 'unconfirmed');
    assert.equal(done.outcomeReason, 'voicemail');
    assert.equal(done.reachedVoicemail, true);
    assert.deepEqual(
      (await h.attempts(o.id)).map((a) => [a.status, a.answeredBy]),
      [
        ['voicemail', 'machine'],
        ['voicemail', 'machine'],
      ],
    );
  });

  it('a person who answered without confirming outweighs later no-answers: unconfirmed (no_input)', async () => {
    const h = await harness();
    h.phones.setPhone(PHONE, ['silent', 'no_answer']);
    const o = await h.schedule({ policy });
    await h.at(T0 + 30 * MIN);
    assert.equal((await h.occurrence(o.id)).status, 'unconfirmed');
    assert.equal((await h.occurrence(o.id)).outcomeReason, 'no_input');
  });

  it('failed then no answer ends missed, not failed', async () => {
    const h = await harness();
    h.phones.setPhone(PHONE, ['fail', 'no_answer']);
    const o = await h.schedule({ policy: { ...policy, offsetsMinutes: [5] } });
    await h.at(T0 + 30 * MIN);
    assert.equal((await h.occurrence(o.id)).status, 'missed');
    assert.equal((await h.occurrence(o.id)).outcomeReason, 'no_answer');
  });
});

/** A provider that accepts calls, optionally reports ringing, and then never reports anything again. */
function silentProvider(options: { ring: boolean; clockNow: () => number }) {
  let handler: TelephonyEventHandler = () => undefined;
  const hangUps: string[] = [];
  const requests: PlaceCallRequest[] = [];
  const telephony: Telephony = {
    async placeCall(request) {
      requests.push(request);
      const callId = `C${requests.length}`;
      if (options.ring) {
        queueMicrotask(
          () =>
            void handler({
              type: 'call.ringing',
              callId,
              idempotencyKey: request.idempotencyKey,
              at: options.clockNow(),
            }),
        );
      }
      return { ok: true, callId };
    },
    async hangUp(callId) {
      hangUps.push(callId);
    },
    onEvent(h) {
      handler = h;
    },
  };
  return { telephony, hangUps, requests };
}

describe('runtime: watchdogs (ring timeout) and cancel', () => {
  it('hangs up a call that rings past the ring timeout and counts it as no answer', async () => {
    let now = () => 0;
    const p = silentProvider({ ring: true, clockNow: () => now() });
    const h = await harness({}, { telephony: p.telephony });
    now = () => h.clock.now();
    const o = await h.schedule({
      policy: { maxSnoozes: 0, offsetsMinutes: [5], ringTimeoutSeconds: 20, snoozeMinutes: 1 },
    });
    await h.at(T0 + 20_000 + 14_000);
    assert.equal((await h.attempts(o.id))[0]!.status, 'ringing');
    await h.at(T0 + 20_000 + 15_000);
    assert.equal((await h.attempts(o.id))[0]!.status, 'no_answer');
    assert.deepEqual(p.hangUps, ['C1']);
    assert.equal((await h.occurrence(o.id)).status, 'waiting');
    await h.at(T0 + 10 * MIN);
    assert.equal((await h.occurrence(o.id)).status, 'missed');
    assert.equal((await h.occurrence(o.id)).outcomeReason, 'no_answer');
  });

  it('fails an attempt the provider accepted but never reported (provider_timeout)', async () => {
    const p = silentProvider({ ring: false, clockNow: () => 0 });
    const h = await harness({}, { telephony: p.telephony });
    const o = await h.schedule({
      policy: { maxSnoozes: 0, offsetsMinutes: [], ringTimeoutSeconds: 20, snoozeMinutes: 1 },
    });
    await h.at(T0 + 5 * MIN);
    const [a] = await h.attempts(o.id);
    assert.equal(a!.status, 'failed');
    assert.equal(a!.errorCode, 'provider_timeout');
    assert.equal((await h.occurrence(o.id)).status, 'failed');
    assert.deepEqual(p.hangUps, ['C1']);
  });

  it('cancel while pending: never rings', async () => {
    const h = await harness();
    const o = await h.schedule();
    const r = await h.runtime.cancel(o.id);
    assert.equal(r.status, 'cancelled');
    assert.equal(r.outcomeReason, 'cancelled');
    await h.at(T0 + MIN);
    assert.equal(h.phones.calls.length, 0);
    await assert.rejects(h.runtime.cancel(o.id), {
      name: 'EngineError',
      code: 'occurrence_terminal',
    });
    await assert.rejects(h.runtime.cancel('nope'), {
      name: 'EngineError',
      code: 'occurrence_not_found',
    });
  });

  it('cancel while ringing hangs the call up', async () => {
    const h = await harness();
    h.phones.setPhone(PHONE, 'confirm', 20);
    const o = await h.schedule(SMS);
    await h.at(T0 + 3000);
    assert.equal((await h.attempts(o.id))[0]!.status, 'ringing');
    assert.equal((await h.occurrence(o.id)).status, 'calling');
    await h.runtime.cancel(o.id);
    await h.at(T0 + MIN);
    const [a] = await h.attempts(o.id);
    assert.equal(a!.status, 'cancelled');
    assert.equal(a!.endedAt, T0 + 3000);
    assert.equal(h.phones.calls[0]!.state, 'ended');
    assert.equal(h.phones.calls[0]!.events.at(-1)!.type, 'call.ended');
    assert.equal((await h.occurrence(o.id)).status, 'cancelled');
    assert.equal(h.messaging.texts.length, 0, 'a cancelled occurrence sends no fallback');
  });

  it('cancel while the provider is still being asked hangs up the call once it is acknowledged', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const h = await harness({}, {});
    const slow: Telephony = {
      placeCall: async (req) => {
        await gate;
        return h.phones.placeCall(req);
      },
      hangUp: (id, o) => h.phones.hangUp(id, o),
      onEvent: (fn) => h.phones.onEvent(fn),
    };
    const h2 = await harness({}, { telephony: slow, clock: h.clock, phones: h.phones });
    const o = await h2.schedule();
    const advancing = h2.clock.advance(T0);
    await new Promise((r) => setImmediate(r));
    assert.equal((await h2.occurrence(o.id)).status, 'dispatching');
    await h2.runtime.cancel(o.id);
    release();
    await advancing;
    await h2.at(T0 + MIN);
    assert.equal((await h2.attempts(o.id))[0]!.status, 'cancelled');
    assert.equal(h2.phones.calls.length, 1);
    assert.equal(h2.phones.calls[0]!.state, 'ended');
    assert.notEqual(h2.phones.calls[0]!.hungUpWith, null);
    await h.runtime.stop();
  });
});

describe('runtime: late dispatch, amend, standalone calls', () => {
  it('rings up to 10 minutes late after downtime', async () => {
    const h = await harness({}, { start: T0 + 9 * MIN });
    const o = await h.schedule();
    await h.at(T0 + 10 * MIN);
    const [a] = await h.attempts(o.id);
    assert.equal(a!.dueAt, T0);
    assert.equal(a!.requestedAt, T0 + 9 * MIN);
    assert.equal((await h.occurrence(o.id)).status, 'confirmed');
  });

  it('ends missed (late_dispatch) and texts when more than 10 minutes late', async () => {
    const h = await harness({}, { start: T0 + 11 * MIN });
    const o = await h.schedule(SMS);
    await h.at(T0 + 12 * MIN);
    const done = await h.occurrence(o.id);
    assert.equal(done.status, 'missed');
    assert.equal(done.outcomeReason, 'late_dispatch');
    assert.equal(done.attemptCount, 0);
    assert.equal(h.phones.calls.length, 0);
    assert.equal(h.messaging.texts.length, 1);
  });

  it('amend moves a pending occurrence; not once it has dispatched', async () => {
    const h = await harness();
    const o = await h.schedule({ derivationSource: 'weekly', backupAlarm: true });
    const moved = await h.runtime.amend(o.id, {
      scheduledAt: T0 + 30 * MIN,
      derivationSource: 'moved',
    });
    assert.equal(moved.backupAlarmAt, T0 + 32 * MIN);
    await h.at(T0 + 29 * MIN);
    assert.equal(h.phones.calls.length, 0);
    await h.at(T0 + 31 * MIN);
    assert.equal(h.phones.calls.length, 1);
    const done = await h.occurrence(o.id);
    assert.equal(done.derivationSource, 'moved');
    assert.equal((await h.attempts(o.id))[0]!.dueAt, T0 + 30 * MIN);
    await assert.rejects(h.runtime.amend(o.id, { label: 'x' }), {
      name: 'EngineError',
      code: 'occurrence_not_pending',
    });
  });

  it('places standalone test and demo calls, refuses blocked numbers', async () => {
    const h = await harness();
    const r = await h.runtime.placeCall({
      kind: 'test',
      accountId: 'a1',
      to: PHONE,
      script: { kind: 'test', greetingName: 'Sam' },
    });
    assert.ok(r.ok);
    assert.equal(callState(r.attempt), 'calling');
    await h.clock.advanceBy(2000);
    await h.runtime.idle();
    const ringing = (await h.store.load({ attempts: [r.attempt.id] })).attempts[0]!;
    assert.equal(callState(ringing), 'ringing');
    await h.clock.advanceBy(60_000);
    await h.runtime.idle();
    const done = (await h.store.load({ attempts: [r.attempt.id] })).attempts[0]!;
    assert.equal(done.status, 'confirmed');
    assert.equal(done.occurrenceId, null);
    assert.equal(done.deadlineAt, null);
    assert.equal(callState(done), 'confirmed');

    h.phones.setPhone('+14155550999', 'snooze');
    const demo = await h.runtime.placeCall({ kind: 'demo', to: '+14155550999' });
    assert.ok(demo.ok);
    await h.clock.advanceBy(120_000);
    await h.runtime.idle();
    const d = (await h.store.load({ attempts: [demo.attempt.id] })).attempts[0]!;
    assert.equal(d.status, 'no_input', 'key 2 means nothing on a demo call');
    assert.equal(callState(d), 'unconfirmed');

    h.accounts.blocked.add('+14155550000');
    assert.deepEqual(await h.runtime.placeCall({ kind: 'test', to: '+14155550000' }), {
      ok: false,
      reason: 'number_blocked',
    });
  });

  it('reports telephony events for unknown calls', async () => {
    const h = await harness();
    const unknown: string[] = [];
    h.runtime.on('telephony:unknown', ({ event }) => unknown.push(event.callId));
    const handler = (h.phones as unknown as { handler: TelephonyEventHandler }).handler;
    await handler({
      type: 'call.ringing',
      callId: 'X1',
      idempotencyKey: 'not-an-attempt',
      at: h.clock.now(),
    });
    assert.deepEqual(unknown, ['X1']);
  });

  it('rejects a retry policy out of bounds with the field', async () => {
    const h = await harness();
    await assert.rejects(
      () =>
        h.schedule({
          policy: {
            maxSnoozes: 2,
            offsetsMinutes: [10, 5],
            ringTimeoutSeconds: 45,
            snoozeMinutes: 9,
          },
        }),
      (err: { code?: string; field?: string }) =>
        err.code === 'invalid_retry_policy' && err.field === 'policy.offsetsMinutes.1',
    );
  });
});

describe('runtime: the wheel is refilled from the store', () => {
  it('rings occurrences far beyond the horizon on time, and many due at once beyond the wheel capacity', async () => {
    const h = await harness({
      horizonMs: 10 * MIN,
      wheelCapacity: 16,
      refillPage: 8,
      batchSize: 5,
    });
    const far = await h.schedule({ scheduledAt: T0 + 3 * 60 * MIN, to: '+14155550001' });
    const many = await Promise.all(
      Array.from({ length: 60 }, (_, i) => h.schedule({ to: `+1415555${String(1000 + i)}` })),
    );
    await h.at(T0 + 2 * MIN);
    for (const o of many) assert.equal((await h.occurrence(o.id)).status, 'confirmed', o.id);
    assert.ok(
      (await Promise.all(many.map((o) => h.attempts(o.id)))).every((a) => a[0]!.requestedAt === T0),
    );
    await h.at(T0 + 3 * 60 * MIN - 1);
    assert.equal((await h.occurrence(far.id)).status, 'pending');
    await h.at(T0 + 3 * 60 * MIN + MIN);
    assert.equal((await h.attempts(far.id))[0]!.requestedAt, T0 + 3 * 60 * MIN);
  });
});
