/**
 * A provider's answer (a webhook's telephony event) waits for its own unit of work and what
 * that unit started, never for calls other units placed meanwhile: a webhook answered late
 * costs a call (the provider gives up on it, or the ring watchdog ends the attempt first).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  PlaceCallRequest,
  PlaceCallResult,
  Store,
  Telephony,
  TelephonyEventHandler,
} from '../../engine/index.js';
import { MemoryStore, VirtualClock } from '../../engine/sim/index.js';
import { harness, MIN, T0 } from './harness.js';

const QUICK = '+14155550101';
const SLOW = '+14155550102';

/** Event-loop turns until `done()` or `turns` have passed. */
async function turns(n: number, done: () => boolean): Promise<void> {
  for (let i = 0; i < n && !done(); i++) await new Promise((r) => setImmediate(r));
}

describe('provider answers', () => {
  it('resolve once applied, while a call placed meanwhile still waits for the provider', async () => {
    let handler: TelephonyEventHandler = () => undefined;
    let slowCalled = false;
    let releaseSlow!: () => void;
    const slow = new Promise<void>((r) => (releaseSlow = r));
    const telephony: Telephony = {
      async placeCall(request: PlaceCallRequest): Promise<PlaceCallResult> {
        if (request.to === SLOW) {
          slowCalled = true;
          await slow;
          return { ok: true, callId: 'CA-slow' };
        }
        return { ok: true, callId: 'CA-quick' };
      },
      hangUp: () => Promise.resolve(),
      onEvent: (next) => void (handler = next),
    };
    // Commits of the quick call's attempt wait on a gate while it is set.
    const inner = new MemoryStore();
    let gate: Promise<void> | null = null;
    let gated = false;
    let gatedAttempt = '';
    const store = new Proxy(inner, {
      get(target, key) {
        if (key === 'commit') {
          const commit: Store['commit'] = async (writes, extra) => {
            if (gate && writes.attempts.some((w) => w.record.id === gatedAttempt)) {
              gated = true;
              await gate;
            }
            return target.commit(writes, extra);
          };
          return commit;
        }
        const v: unknown = Reflect.get(target, key);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const clock = new VirtualClock(T0 - MIN);
    const h = await harness({}, { clock, telephony, store });
    const quick = await h.schedule({ to: QUICK, scheduledAt: T0 });
    await h.at(T0);
    const [attempt] = await h.attempts(quick.id);
    assert.equal(attempt!.providerCallId, 'CA-quick');

    // The quick call rings; its unit of work is held at its commit.
    let open!: () => void;
    gate = new Promise<void>((r) => (open = r));
    gatedAttempt = attempt!.id;
    let applied = false;
    const answer = Promise.resolve(
      handler({ type: 'call.ringing', callId: 'CA-quick', idempotencyKey: attempt!.id, at: T0 }),
    ).then(() => (applied = true));
    await turns(1000, () => gated);
    assert.ok(gated, 'the answer reached its commit');
    // Meanwhile the slow call falls due and is handed to the provider, which does not answer yet.
    await h.schedule({ to: SLOW, scheduledAt: T0, phoneNumberId: 'p2' });
    const advancing = clock.advance(T0);
    await turns(1000, () => slowCalled);
    assert.ok(slowCalled, 'the slow call was placed');
    open();
    await turns(1000, () => applied);
    assert.ok(
      applied,
      "the answer resolved while another unit's call still waits for the provider",
    );
    assert.equal((await h.attempts(quick.id))[0]!.status, 'ringing');

    releaseSlow();
    await answer;
    await advancing;
    await h.runtime.idle();
    await h.runtime.stop();
  });
});
