/**
 * A provider that dials twice for one attempt (Twilio does not dedupe creates; a timed-out
 * request may still land): only the call recorded for the attempt decides it. The other one's
 * events are ignored and it is hung up, so a stranger's (or a pocket's) "9" on the second call
 * cannot turn every call off, and its end cannot end the attempt.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PlaceCallRequest, Telephony, TelephonyEventHandler } from '../../engine/index.js';
import { MemoryTelephony, VirtualClock } from '../../engine/sim/index.js';
import { harness, PHONE, T0, MIN } from './harness.js';

/** Places each call at `real`, then, a second later, the same request again at `stray`. */
function doublingProvider(
  clock: VirtualClock,
  real: MemoryTelephony,
  stray: MemoryTelephony,
): Telephony {
  return {
    async placeCall(request: PlaceCallRequest) {
      const result = await real.placeCall(request);
      clock.setTimer(clock.now() + 1000, () => void stray.placeCall(request));
      return result;
    },
    async hangUp(callId, options) {
      await (callId.startsWith('STRAY') ? stray : real).hangUp(callId, options);
    },
    onEvent(handler: TelephonyEventHandler) {
      real.onEvent(handler);
      stray.onEvent(handler);
    },
  };
}

describe('a second call for one attempt', () => {
  it('cannot act for the attempt: its events are ignored and it is hung up', async () => {
    const clock = new VirtualClock(T0 - MIN);
    const real = new MemoryTelephony({ clock });
    let n = 0;
    const stray = new MemoryTelephony({ clock, callId: () => `STRAY${++n}` });
    real.setPhone(PHONE, 'silent');
    stray.setPhone(PHONE, 'stop');
    const h = await harness(
      {},
      { clock, phones: real, telephony: doublingProvider(clock, real, stray) },
    );
    const o = await h.schedule();
    await h.at(T0 + 5 * MIN);
    assert.equal(stray.calls.length, 1, 'the provider did dial twice');
    assert.notEqual(stray.calls[0]!.hungUpWith, null, 'the second call was hung up');
    assert.deepEqual(h.accounts.stops, [], 'its 9 stopped nothing');
    const attempts = await h.attempts(o.id);
    assert.equal(attempts[0]!.providerCallId, real.calls[0]!.callId);
    assert.notEqual((await h.occurrence(o.id)).status, 'stopped');
    await h.runtime.stop();
  });
});
