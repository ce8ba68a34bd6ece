/**
 * `PlacementDeferred`: a Telephony port that cannot place a call now (its number is locked by
 * another process, e.g. one that died while placing it) defers it. The runtime gives the
 * placement slot back, so calls to other numbers go on, asks again at `retryAt` with the same
 * request, and counts no failure.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PlacementDeferred, type PlaceCallRequest, type Telephony } from '../../engine/index.js';
import { MemoryTelephony, VirtualClock } from '../../engine/sim/index.js';
import { harness, MIN, T0 } from './harness.js';

const LOCKED = '+14155550100';

/** Defers every placement to LOCKED until `until`; records when each request was asked. */
function lockedUntil(
  phones: MemoryTelephony,
  clock: VirtualClock,
  until: number,
): Telephony & { asked: { to: string; at: number; req: PlaceCallRequest }[] } {
  const asked: { to: string; at: number; req: PlaceCallRequest }[] = [];
  return {
    asked,
    placeCall: (request) => {
      asked.push({ to: request.to, at: clock.now(), req: request });
      if (request.to === LOCKED && clock.now() < until)
        return Promise.reject(new PlacementDeferred(Math.min(until, clock.now() + 2_000)));
      return phones.placeCall(request);
    },
    hangUp: (id, o) => phones.hangUp(id, o),
    onEvent: (h) => phones.onEvent(h),
  };
}

describe('PlacementDeferred', () => {
  it('frees the slot for other numbers, asks again at retryAt with the same request, and counts no failure', async () => {
    const clock = new VirtualClock(T0 - MIN);
    const phones = new MemoryTelephony({ clock });
    const tel = lockedUntil(phones, clock, T0 + 5_000);
    // One placement in flight at a time: a deferred one that kept its slot would hold up the rest.
    const h = await harness({ maxInFlight: 1 }, { clock, phones, telephony: tel });
    const failed: unknown[] = [];
    h.runtime.on('effect:failed', (e) => failed.push(e));
    const locked = await h.schedule({ to: LOCKED, phoneNumberId: 'p-locked' });
    const others = [];
    for (let i = 0; i < 3; i++)
      others.push(await h.schedule({ to: `+1415555020${i}`, phoneNumberId: `p${i}` }));
    await h.at(T0 + 10 * MIN);

    const lockedAsks = tel.asked.filter((a) => a.to === LOCKED);
    assert.deepEqual(
      lockedAsks.map((a) => a.at - T0),
      [0, 2_000, 4_000, 5_000],
      'asked at once, then at each retryAt until the lock lapsed',
    );
    assert.ok(
      lockedAsks.every(
        (a) =>
          a.req.idempotencyKey === lockedAsks[0]!.req.idempotencyKey &&
          a.req.outcomeUnknown !== true,
      ),
    );
    for (const o of others) {
      const ask = tel.asked.find((a) => a.to === o.to)!;
      assert.equal(ask.at, T0, `the call to ${o.to} was not held up by the deferred one`);
      assert.equal((await h.occurrence(o.id)).status, 'confirmed');
    }
    assert.equal((await h.occurrence(locked.id)).status, 'confirmed');
    assert.equal(phones.callsTo(LOCKED).length, 1);
    assert.deepEqual(failed, [], 'a deferral is not a failed effect');
    await h.runtime.stop();
  });
});
