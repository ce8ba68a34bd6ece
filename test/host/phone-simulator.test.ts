import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VirtualClock } from '../../engine/sim/index.js';
import type { TelephonyEvent } from '../../engine/ports.js';
import {
  createSimulatorTelephony,
  type PhoneBehaviour,
} from '../../host/adapters/telephony/simulator.js';

const T0 = Date.parse('2027-03-14T06:00:00Z');
const TO = '+12015550123';

function setup() {
  const clock = new VirtualClock(T0);
  const sim = createSimulatorTelephony({ clock, from: '+12025550100' });
  const events: TelephonyEvent[] = [];
  sim.onEvent((e) => {
    events.push(e);
  });
  return { clock, sim, events };
}

/** Event types with their offset from T0 in seconds, e.g. `ringing@0`. */
function timeline(events: TelephonyEvent[]): string[] {
  return events.map((e) => {
    const extra =
      e.type === 'call.digits'
        ? `:${e.digits}`
        : e.type === 'call.answered'
          ? `:${e.by}`
          : e.type === 'call.ended'
            ? `:${e.reason}`
            : '';
    return `${e.type.slice(5)}${extra}@${(e.at - T0) / 1000}`;
  });
}

async function playOne(behaviour: PhoneBehaviour, ringSeconds = 5, ringTimeoutSeconds = 45) {
  const s = setup();
  s.sim.setPhone(TO, { answers: [behaviour], ring_seconds: ringSeconds });
  const r = await s.sim.placeCall({
    idempotencyKey: 'k1',
    to: TO,
    script: { kind: 'test', greetingName: null },
    ringTimeoutSeconds,
  });
  await s.clock.advanceBy(10 * 60_000);
  return { ...s, result: r };
}

describe('simulator telephony behaviours (contract §3)', () => {
  it('confirm answers and presses 1, then the callee hangs up when nobody else does', async () => {
    const { events } = await playOne('confirm');
    assert.deepEqual(timeline(events), [
      'ringing@0',
      'answered:person@5',
      'digits:1@11',
      'ended:completed@71',
    ]);
  });
  it('snooze presses 2 and stop presses 9', async () => {
    assert.deepEqual(timeline((await playOne('snooze')).events).slice(2, 3), ['digits:2@11']);
    assert.deepEqual(timeline((await playOne('stop')).events).slice(2, 3), ['digits:9@11']);
  });
  it('silent answers, presses nothing and hangs up at the end', async () => {
    assert.deepEqual(timeline((await playOne('silent')).events), [
      'ringing@0',
      'answered:person@5',
      'ended:completed@21',
    ]);
  });
  it('voicemail is answered by a machine', async () => {
    assert.deepEqual(timeline((await playOne('voicemail', 8)).events), [
      'ringing@0',
      'answered:machine@8',
      'ended:completed@38',
    ]);
  });
  it('no_answer rings until the ring timeout', async () => {
    assert.deepEqual(timeline((await playOne('no_answer', 5, 20)).events), [
      'ringing@0',
      'ended:no_answer@20',
    ]);
  });
  it('a phone ringing longer than the timeout never answers', async () => {
    assert.deepEqual(timeline((await playOne('confirm', 30, 20)).events), [
      'ringing@0',
      'ended:no_answer@20',
    ]);
  });
  it('busy ends at once', async () => {
    assert.deepEqual(timeline((await playOne('busy')).events), ['ended:busy@0']);
  });
  it('fail is refused by the provider and sends no event', async () => {
    const { events, result } = await playOne('fail');
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.code, 'provider_refused');
    assert.deepEqual(events, []);
  });
  it('plays the behaviours in order, the last one repeating; default is confirm after 5 s', async () => {
    const { clock, sim, events } = setup();
    assert.deepEqual(sim.getPhone('+442071838750'), { answers: ['confirm'], ring_seconds: 5 });
    sim.setPhone(TO, { answers: ['busy', 'no_answer', 'confirm'], ring_seconds: 3 });
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await sim.placeCall({
        idempotencyKey: `k${i}`,
        to: TO,
        script: { kind: 'demo' },
        ringTimeoutSeconds: 15,
      });
      assert.ok(r.ok);
      await clock.advanceBy(120_000);
      const ended = events.filter((e) => e.type === 'call.ended' && e.callId === r.callId);
      outcomes.push(ended.map((e) => (e.type === 'call.ended' ? e.reason : '')).join());
      const digits = events.find((e) => e.type === 'call.digits' && e.callId === r.callId);
      if (digits) outcomes.push('1');
    }
    assert.deepEqual(outcomes, ['busy', 'no_answer', 'completed', '1', 'completed', '1']);
  });
  it('placing twice with one idempotency key places one call', async () => {
    const { clock, sim, events } = setup();
    const a = await sim.placeCall({
      idempotencyKey: 'same',
      to: TO,
      script: { kind: 'demo' },
      ringTimeoutSeconds: 45,
    });
    const b = await sim.placeCall({
      idempotencyKey: 'same',
      to: TO,
      script: { kind: 'demo' },
      ringTimeoutSeconds: 45,
    });
    assert.deepEqual(a, b);
    await clock.advanceBy(120_000);
    assert.equal(events.filter((e) => e.type === 'call.ringing').length, 1);
  });
  it('hangUp while ringing cancels; hangUp after the digit completes with the closing sentence', async () => {
    const { clock, sim, events } = setup();
    sim.setPhone(TO, { answers: ['confirm'], ring_seconds: 10 });
    const r1 = await sim.placeCall({
      idempotencyKey: 'a',
      to: TO,
      script: { kind: 'demo' },
      ringTimeoutSeconds: 45,
    });
    await clock.advanceBy(2_000);
    assert.ok(r1.ok);
    await sim.hangUp(r1.callId);
    await sim.hangUp(r1.callId);
    await clock.advanceBy(60_000);
    assert.deepEqual(timeline(events), ['ringing@0', 'ended:cancelled@2']);

    events.length = 0;
    sim.onEvent(async (e) => {
      events.push(e);
      if (e.type === 'call.digits') await sim.hangUp(e.callId, { say: 'Good morning.' });
    });
    const start = clock.now();
    const r2 = await sim.placeCall({
      idempotencyKey: 'b',
      to: TO,
      script: { kind: 'demo' },
      ringTimeoutSeconds: 45,
    });
    assert.ok(r2.ok);
    await clock.advanceBy(120_000);
    const ended = events.at(-1);
    assert.equal(ended?.type, 'call.ended');
    assert.equal(ended && ended.at - start, (10 + 6 + 2) * 1000);
    assert.equal(ended?.type === 'call.ended' && ended.durationSeconds, 8);
    assert.equal(sim.liveCalls, 0);
  });
  it('a verification call speaks the code and hangs up itself', async () => {
    const clock = new VirtualClock(T0);
    const spoken: string[] = [];
    const sim = createSimulatorTelephony({
      clock,
      from: '+12025550100',
      onSpoken: (r) => spoken.push(r.script.kind === 'verification_code' ? r.script.code : ''),
    });
    const events: TelephonyEvent[] = [];
    sim.onEvent((e) => void events.push(e));
    await sim.placeCall({
      idempotencyKey: 'v',
      to: TO,
      script: { kind: 'verification_code', code: '123456' },
      ringTimeoutSeconds: 45,
    });
    await clock.advanceBy(60_000);
    assert.deepEqual(spoken, ['123456']);
    assert.deepEqual(timeline(events), ['ringing@0', 'answered:person@5', 'ended:completed@17']);
  });
});
