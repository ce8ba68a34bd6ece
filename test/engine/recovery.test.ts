import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PlaceCallRequest, Telephony, TelephonyEventHandler } from '../../engine/index.js';
import { createRuntime } from '../../engine/index.js';
import { MemoryStore, MemoryTelephony, VirtualClock } from '../../engine/sim/index.js';
import { FakeAccounts, FakeMessaging, harness, MIN, sequentialIds, T0 } from './harness.js';

/** Telephony that never answers placeCall (the process dies with the requests open). */
function dyingTelephony(): Telephony & { asked: PlaceCallRequest[] } {
  const asked: PlaceCallRequest[] = [];
  return {
    asked,
    placeCall: (request) => {
      asked.push(request);
      return new Promise(() => {});
    },
    hangUp: async () => {},
    onEvent: () => {},
  };
}

/** MemoryTelephony whose placeCall answers after a real pause; counts requests open at once. */
function slowTelephony(
  phones: MemoryTelephony,
): Telephony & { max: number; keys: string[]; emit: TelephonyEventHandler } {
  let open = 0;
  let handler: TelephonyEventHandler = () => undefined;
  const t = {
    max: 0,
    keys: [] as string[],
    emit: (e: Parameters<TelephonyEventHandler>[0]) => handler(e),
    placeCall: async (request: PlaceCallRequest) => {
      t.keys.push(request.idempotencyKey);
      t.max = Math.max(t.max, ++open);
      await new Promise((r) => setTimeout(r, 2));
      open--;
      return phones.placeCall(request);
    },
    hangUp: (callId: string, o?: { say?: string }) => phones.hangUp(callId, o),
    onEvent: (h: TelephonyEventHandler) => {
      handler = h;
      phones.onEvent(h);
    },
  };
  return t;
}

/** A store left by a process killed with `n` calls between intent and acceptance. */
async function crashedStore(
  n: number,
  later = 0,
): Promise<{ store: MemoryStore; keys: string[]; later: string[] }> {
  const store = new MemoryStore();
  const clock = new VirtualClock(T0 - MIN);
  const dying = dyingTelephony();
  const first = await harness({}, { clock, store, telephony: dying });
  for (let i = 0; i < n; i++) await first.schedule({ to: `+1415555${String(1000 + i)}` });
  // Due a second after the crash: they wait beside the backlog.
  const waiting: string[] = [];
  for (let i = 0; i < later; i++)
    waiting.push(
      (await first.schedule({ to: `+1415555${String(3000 + i)}`, scheduledAt: T0 + 1000 })).id,
    );
  void clock.advance(T0);
  for (let i = 0; i < 100 && dying.asked.length < n; i++)
    await new Promise((r) => setTimeout(r, 5));
  assert.equal(dying.asked.length, n);
  await first.runtime.stop({ drain: false });
  return { store, keys: dying.asked.map((r) => r.idempotencyKey), later: waiting };
}

describe('recovery: bounded provider requests and a start that does not wait', () => {
  it('a spike never has more than maxInFlight placeCall requests open, and each call is placed once', async () => {
    const clock = new VirtualClock(T0 - MIN);
    const phones = new MemoryTelephony({ clock });
    const slow = slowTelephony(phones);
    const h = await harness({ maxInFlight: 5 }, { clock, phones, telephony: slow });
    for (let i = 0; i < 40; i++) await h.schedule({ to: `+1415555${String(2000 + i)}` });
    await h.at(T0 + 1000);
    assert.equal(slow.max, 5);
    assert.equal(slow.keys.length, 40);
    assert.equal(new Set(slow.keys).size, 40);
    assert.equal(phones.calls.length, 40);
    await h.runtime.stop();
  });

  it('reconciled calls and due calls share one first-in, first-out line', async () => {
    const { store, keys, later } = await crashedStore(12, 8);
    const clock = new VirtualClock(T0 + 2000);
    const phones = new MemoryTelephony({ clock });
    const slow = slowTelephony(phones);
    const h = await harness({ maxInFlight: 3 }, { clock, store, phones, telephony: slow });
    await h.at(T0 + 3000);
    assert.equal(slow.max, 3);
    assert.deepEqual(slow.keys.slice(0, 12).sort(), [...keys].sort(), 'the backlog goes first');
    assert.equal(slow.keys.length, 20);
    assert.equal(new Set(slow.keys).size, 20, 'each attempt asked once');
    for (const id of later) assert.equal((await h.attempts(id)).length, 1);
    await h.runtime.stop();
  });

  it('start({ background: true }) resolves before the recovery; an event arriving first is applied once', async () => {
    const { store, keys } = await crashedStore(3);
    const clock = new VirtualClock(T0 + 2000);
    const phones = new MemoryTelephony({ clock });
    phones.setPhone('+14155551000', 'confirm', 5);
    const slow = slowTelephony(phones);
    // The first process's request for the first attempt reached the provider: it has that call.
    const placed = await phones.placeCall({
      idempotencyKey: keys[0]!,
      to: '+14155551000',
      script: { kind: 'test', greetingName: null },
      ringTimeoutSeconds: 30,
    });
    assert.ok(placed.ok);
    const runtime = createRuntime({
      clock,
      ids: sequentialIds('b'),
      store,
      telephony: slow,
      messaging: new FakeMessaging(),
      accounts: new FakeAccounts(),
    });
    await runtime.start({ background: true });
    assert.equal(slow.keys.length, 0, 'nothing reconciled yet when start() resolves');
    // The provider's webhook for that call arrives before reconciliation reached its attempt.
    void slow.emit({
      type: 'call.ringing',
      callId: placed.callId,
      idempotencyKey: keys[0]!,
      at: clock.now(),
    });
    await runtime.idle();
    // The event recorded the provider's call: that attempt is acknowledged, not asked again.
    assert.deepEqual(
      [...slow.keys].sort(),
      keys.slice(1).sort(),
      'the other unacknowledged attempts asked again, once',
    );
    await clock.advance(T0 + 5 * MIN);
    await runtime.idle();
    assert.equal(phones.calls.length, 3, 'one call per attempt: the provider deduped the first');
    assert.equal((await store.listUnacknowledgedAttempts(10)).length, 0);
    const first = (await store.load({ attempts: [keys[0]!] })).attempts[0]!;
    assert.equal(first.status, 'confirmed');
    assert.equal(first.providerCallId, placed.callId);
    await runtime.stop();
  });

  it('a runtime stopped during a background recovery places nothing more', async () => {
    const { store } = await crashedStore(3);
    const clock = new VirtualClock(T0 + 2000);
    const phones = new MemoryTelephony({ clock });
    const runtime = createRuntime({
      clock,
      ids: sequentialIds('c'),
      store,
      telephony: phones,
      accounts: new FakeAccounts(),
    });
    await runtime.start({ background: true });
    await runtime.stop();
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(phones.requests.length, 0);
  });
});
