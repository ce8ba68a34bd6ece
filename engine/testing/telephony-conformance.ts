import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PlaceCallRequest, Telephony, TelephonyEvent } from '../ports.js';
import type { PhoneBehaviour } from '../sim/memory-telephony.js';

/**
 * What {@link runTelephonyConformance} needs from an implementation under test: the port,
 * a way to programme the callee's phone, and a way to let time pass.
 */
export interface TelephonyHarness {
  /** The implementation under test, fresh (the suite sets its event handler). */
  telephony: Telephony;
  /** Makes the phone at `to` play `behaviour` for every call it receives from now on. */
  setPhone(to: string, behaviour: PhoneBehaviour): void | Promise<void>;
  /**
   * Lets `ms` milliseconds of (virtual or real) time pass, so that calls progress and their
   * events are delivered. The suite never asks for more than 5 minutes in one test.
   */
  advance(ms: number): Promise<void>;
  /** Disposes of the implementation after its test. */
  close?(): void | Promise<void>;
}

let n = 0;
function request(to: string, overrides: Partial<PlaceCallRequest> = {}): PlaceCallRequest {
  n++;
  return {
    idempotencyKey: `conformance-${Date.now()}-${n}`,
    to,
    script: { kind: 'wake_up', greetingName: 'Sam', message: null, snoozeAllowed: true },
    ringTimeoutSeconds: 30,
    ...overrides,
  };
}

/**
 * Registers the Telephony port's conformance tests (node:test) for one implementation: the
 * simulator, a real provider's adapter against its sandbox or a fake of its HTTP API, and
 * {@link MemoryTelephony}. Phone numbers used are +1415555010x.
 *
 * @param name - shown in the test names.
 * @param factory - a fresh harness per test (the suite sets the event handler itself).
 *
 * @example
 * runTelephonyConformance('MemoryTelephony', () => {
 *   const clock = new VirtualClock(Date.now());
 *   const telephony = new MemoryTelephony({ clock });
 *   return { telephony, setPhone: (to, b) => telephony.setPhone(to, b), advance: (ms) => clock.advanceBy(ms).then(() => {}) };
 * });
 */
export function runTelephonyConformance(
  name: string,
  factory: () => TelephonyHarness | Promise<TelephonyHarness>,
): void {
  const withHarness =
    (fn: (h: TelephonyHarness, events: TelephonyEvent[]) => Promise<void>) => async () => {
      const h = await factory();
      const events: TelephonyEvent[] = [];
      h.telephony.onEvent((e) => {
        events.push(e);
      });
      try {
        await fn(h, events);
      } finally {
        await h.close?.();
      }
    };
  const of = (events: TelephonyEvent[], callId: string) =>
    events.filter((e) => e.callId === callId);
  const types = (events: TelephonyEvent[]) =>
    events.map((e) => (e.type === 'call.ended' ? `ended:${e.reason}` : e.type));
  const placed = async (t: Telephony, req: PlaceCallRequest): Promise<string> => {
    const r = await t.placeCall(req);
    assert.equal(r.ok, true, `placeCall refused: ${JSON.stringify(r)}`);
    return (r as { callId: string }).callId;
  };
  const checkWellFormed = (list: TelephonyEvent[], req: PlaceCallRequest) => {
    let prev = -Infinity;
    for (const e of list) {
      assert.equal(e.idempotencyKey, req.idempotencyKey);
      assert.ok(Number.isFinite(e.at) && e.at >= prev, 'event instants never go back');
      prev = e.at;
    }
    assert.equal(
      list.filter((e) => e.type === 'call.ended').length <= 1,
      true,
      'at most one call.ended',
    );
    const endIndex = list.findIndex((e) => e.type === 'call.ended');
    if (endIndex >= 0) assert.equal(endIndex, list.length - 1, 'nothing after call.ended');
  };

  describe(`Telephony conformance: ${name}`, () => {
    for (const [behaviour, digit, to] of [
      ['confirm', '1', '+14155550101'],
      ['snooze', '2', '+14155550102'],
      ['stop', '9', '+14155550103'],
    ] as const) {
      it(
        `${behaviour}: rings, a person answers, presses ${digit}; the call stays open until hangUp`,
        withHarness(async (h, events) => {
          await h.setPhone(to, behaviour);
          const req = request(to);
          const callId = await placed(h.telephony, req);
          await h.advance(45_000);
          const list = of(events, callId);
          assert.deepEqual(types(list), ['call.ringing', 'call.answered', 'call.digits']);
          const answered = list[1] as Extract<TelephonyEvent, { type: 'call.answered' }>;
          assert.equal(answered.by, 'person');
          assert.equal((list[2] as Extract<TelephonyEvent, { type: 'call.digits' }>).digits, digit);
          await h.telephony.hangUp(callId, { say: 'Goodbye.' });
          await h.advance(30_000);
          const after = of(events, callId);
          assert.deepEqual(types(after).slice(3), ['ended:completed']);
          const ended = after[3] as Extract<TelephonyEvent, { type: 'call.ended' }>;
          assert.ok(typeof ended.durationSeconds === 'number' && ended.durationSeconds >= 0);
          checkWellFormed(after, req);
        }),
      );
    }

    it(
      'placeCall is idempotent by key: one call, one callId, one set of events',
      withHarness(async (h, events) => {
        const to = '+14155550104';
        await h.setPhone(to, 'silent');
        const req = request(to);
        const [a, b] = await Promise.all([h.telephony.placeCall(req), h.telephony.placeCall(req)]);
        const c = await h.telephony.placeCall({ ...req });
        assert.ok(a.ok && b.ok && c.ok);
        assert.equal(a.callId, b.callId);
        assert.equal(a.callId, c.callId);
        await h.advance(300_000);
        const list = events.filter((e) => e.idempotencyKey === req.idempotencyKey);
        assert.equal(list.filter((e) => e.type === 'call.ringing').length, 1);
        assert.equal(list.filter((e) => e.type === 'call.ended').length, 1);
        assert.ok(list.every((e) => e.callId === a.callId));
      }),
    );

    it(
      'different keys place different calls',
      withHarness(async (h) => {
        const to = '+14155550105';
        await h.setPhone(to, 'silent');
        const a = await placed(h.telephony, request(to));
        const b = await placed(h.telephony, request(to));
        assert.notEqual(a, b);
        await h.advance(300_000);
      }),
    );

    it(
      'silent: a person answers, presses nothing, and the call ends by itself',
      withHarness(async (h, events) => {
        const to = '+14155550106';
        await h.setPhone(to, 'silent');
        const req = request(to);
        const callId = await placed(h.telephony, req);
        await h.advance(300_000);
        const list = of(events, callId);
        assert.deepEqual(types(list), ['call.ringing', 'call.answered', 'ended:completed']);
        assert.equal((list[1] as Extract<TelephonyEvent, { type: 'call.answered' }>).by, 'person');
        checkWellFormed(list, req);
      }),
    );

    it(
      'voicemail: a machine answers and the call ends by itself',
      withHarness(async (h, events) => {
        const to = '+14155550107';
        await h.setPhone(to, 'voicemail');
        const req = request(to);
        const callId = await placed(h.telephony, req);
        await h.advance(300_000);
        const list = of(events, callId);
        assert.deepEqual(types(list), ['call.ringing', 'call.answered', 'ended:completed']);
        assert.equal((list[1] as Extract<TelephonyEvent, { type: 'call.answered' }>).by, 'machine');
        checkWellFormed(list, req);
      }),
    );

    it(
      'no_answer: rings and ends no_answer within the ring timeout (plus slack), never answered',
      withHarness(async (h, events) => {
        const to = '+14155550108';
        await h.setPhone(to, 'no_answer');
        const req = request(to, { ringTimeoutSeconds: 20 });
        const callId = await placed(h.telephony, req);
        await h.advance(60_000);
        const list = of(events, callId);
        assert.deepEqual(types(list), ['call.ringing', 'ended:no_answer']);
        checkWellFormed(list, req);
      }),
    );

    it(
      'busy: ends busy without being answered',
      withHarness(async (h, events) => {
        const to = '+14155550109';
        await h.setPhone(to, 'busy');
        const req = request(to);
        const callId = await placed(h.telephony, req);
        await h.advance(60_000);
        const list = of(events, callId);
        assert.equal(types(list).at(-1), 'ended:busy');
        assert.ok(!list.some((e) => e.type === 'call.answered'));
        checkWellFormed(list, req);
      }),
    );

    it(
      'fail: the provider refuses (ok false with a code) or accepts and ends failed, never answered',
      withHarness(async (h, events) => {
        const to = '+14155550110';
        await h.setPhone(to, 'fail');
        const req = request(to);
        const r = await h.telephony.placeCall(req);
        if (!r.ok) {
          assert.ok(typeof r.code === 'string' && r.code.length > 0);
          assert.equal(typeof r.retryable, 'boolean');
          const again = await h.telephony.placeCall(req);
          assert.equal(again.ok, false, 'a refused key stays refused');
          return;
        }
        await h.advance(60_000);
        const list = of(events, r.callId);
        assert.equal(types(list).at(-1), 'ended:failed');
        assert.ok(!list.some((e) => e.type === 'call.answered'));
      }),
    );

    it(
      'hangUp while ringing ends the call cancelled',
      withHarness(async (h, events) => {
        const to = '+14155550111';
        await h.setPhone(to, 'no_answer');
        const req = request(to, { ringTimeoutSeconds: 60 });
        const callId = await placed(h.telephony, req);
        await h.advance(3_000);
        assert.deepEqual(types(of(events, callId)), ['call.ringing']);
        await h.telephony.hangUp(callId);
        await h.advance(10_000);
        assert.deepEqual(types(of(events, callId)), ['call.ringing', 'ended:cancelled']);
        await h.advance(120_000);
        assert.equal(of(events, callId).length, 2, 'nothing after call.ended');
      }),
    );

    it(
      'hangUp is idempotent and ignores unknown or finished calls',
      withHarness(async (h, events) => {
        const to = '+14155550112';
        await h.setPhone(to, 'confirm');
        const callId = await placed(h.telephony, request(to));
        await h.advance(45_000);
        await h.telephony.hangUp(callId);
        await h.telephony.hangUp(callId);
        await h.advance(30_000);
        await h.telephony.hangUp(callId);
        await h.telephony.hangUp('unknown-call-id');
        await h.advance(30_000);
        assert.equal(of(events, callId).filter((e) => e.type === 'call.ended').length, 1);
      }),
    );
  });
}
