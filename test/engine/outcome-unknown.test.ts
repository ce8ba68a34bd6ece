/**
 * `PlaceCallRequest.outcomeUnknown` (issue 28): the engine tells the Telephony port when an
 * earlier request for the attempt may have reached the provider (an intent recovered at
 * start-up, which covers one taken over from another host; a retry after placeCall rejected),
 * and only then. A fresh placement carries no flag, and every request carries the intent's
 * `requestedAt`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PlaceCallRequest, Telephony } from '../../engine/index.js';
import { MemoryStore, MemoryTelephony, VirtualClock } from '../../engine/sim/index.js';
import { harness, MIN, T0 } from './harness.js';

/** Telephony that records every request and answers through `phones`, or rejects the first `failures`. */
function recording(
  phones: MemoryTelephony,
  failures = 0,
): Telephony & { asked: PlaceCallRequest[] } {
  const asked: PlaceCallRequest[] = [];
  return {
    asked,
    placeCall: (request) => {
      asked.push(request);
      if (asked.length <= failures) return Promise.reject(new Error('timeout: outcome unknown'));
      return phones.placeCall(request);
    },
    hangUp: (id, o) => phones.hangUp(id, o),
    onEvent: (h) => phones.onEvent(h),
  };
}

describe('placeCall outcomeUnknown', () => {
  it('a fresh placement carries no flag, and the intent time', async () => {
    const clock = new VirtualClock(T0 - MIN);
    const phones = new MemoryTelephony({ clock });
    const tel = recording(phones);
    const h = await harness({}, { clock, phones, telephony: tel });
    const o = await h.schedule();
    await h.at(T0 + 5 * MIN);
    assert.equal(tel.asked.length, 1);
    assert.notEqual(tel.asked[0]!.outcomeUnknown, true);
    const [a] = await h.attempts(o.id);
    assert.equal(tel.asked[0]!.requestedAt, a!.requestedAt);
    assert.equal((await h.occurrence(o.id)).status, 'confirmed');
    await h.runtime.stop();
  });

  it('a retry after placeCall rejected carries the flag', async () => {
    const clock = new VirtualClock(T0 - MIN);
    const phones = new MemoryTelephony({ clock });
    const tel = recording(phones, 2);
    const h = await harness({}, { clock, phones, telephony: tel });
    const o = await h.schedule();
    await h.at(T0 + 5 * MIN);
    assert.equal(tel.asked.length, 3);
    assert.deepEqual(
      tel.asked.map((r) => r.outcomeUnknown === true),
      [false, true, true],
    );
    assert.ok(tel.asked.every((r) => r.idempotencyKey === tel.asked[0]!.idempotencyKey));
    assert.equal(phones.calls.length, 1);
    assert.equal((await h.occurrence(o.id)).status, 'confirmed');
    await h.runtime.stop();
  });

  it('an intent recovered at start-up (a crash, or another host taking over) carries the flag and its intent time', async () => {
    const store = new MemoryStore();
    const clock = new VirtualClock(T0 - MIN);
    const dying: Telephony & { asked: PlaceCallRequest[] } = {
      asked: [],
      placeCall(request) {
        this.asked.push(request);
        return new Promise(() => {}); // the process dies before the answer
      },
      hangUp: async () => {},
      onEvent: () => {},
    };
    const first = await harness({}, { clock, store, telephony: dying });
    const o = await first.schedule();
    void clock.advance(T0);
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(dying.asked.length, 1);
    assert.notEqual(dying.asked[0]!.outcomeUnknown, true);
    await first.runtime.stop({ drain: false });

    // The restart comes after an outage longer than any adapter's look-back window.
    const clock2 = new VirtualClock(T0 + 45 * MIN);
    const phones = new MemoryTelephony({ clock: clock2 });
    const tel = recording(phones);
    const second = await harness({}, { clock: clock2, store, phones, telephony: tel });
    await second.runtime.idle();
    assert.equal(tel.asked.length, 1);
    assert.equal(tel.asked[0]!.outcomeUnknown, true);
    assert.equal(tel.asked[0]!.requestedAt, T0);
    assert.equal(tel.asked[0]!.idempotencyKey, dying.asked[0]!.idempotencyKey);
    void o;
    await second.runtime.stop();
  });
});
