/**
 * The Accounts port's `prepare`: awaited after each unit's load with every call the unit may
 * admit, before `admit` is asked; its release runs once per unit, also when a unit is refused.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createRuntime,
  type Accounts,
  type CallToAdmit,
  type StopRequest,
} from '../../engine/index.js';
import { MemoryStore, MemoryTelephony, VirtualClock } from '../../engine/sim/index.js';
import { FakeMessaging, MIN, PHONE, T0, sequentialIds } from './harness.js';

/** Reads its facts (the revoked accounts) only in `prepare`, asynchronously, like a host on PostgreSQL. */
class PreparedAccounts implements Accounts {
  readonly revoked = new Set<string>();
  readonly prepared: CallToAdmit[][] = [];
  readonly asked: CallToAdmit[] = [];
  held = 0;
  released = 0;
  private facts: Set<string> | null = null;

  async prepare(calls: readonly CallToAdmit[]) {
    await new Promise((r) => setImmediate(r));
    this.prepared.push([...calls]);
    this.facts = new Set([...this.revoked].filter((a) => calls.some((c) => c.accountId === a)));
    this.held++;
    return () => {
      this.held--;
      this.released++;
      this.facts = null;
    };
  }
  admit(call: CallToAdmit) {
    this.asked.push(call);
    if (this.facts === null) throw new Error('admit asked outside a prepared unit');
    const seen = this.prepared
      .at(-1)!
      .some(
        (c) =>
          c.accountId === call.accountId &&
          c.to === call.to &&
          c.kind === call.kind &&
          c.occurrenceId === call.occurrenceId,
      );
    if (!seen)
      throw new Error(`admit asked about a call prepare did not see: ${JSON.stringify(call)}`);
    return call.accountId !== null && this.facts.has(call.accountId)
      ? { ok: false as const, reason: 'calls_revoked' as const }
      : { ok: true as const };
  }
  stopCalls(_request: StopRequest): void {}
}

describe('Accounts.prepare', () => {
  it('sees every call before admit, answers from what it read, and releases each unit', async () => {
    const clock = new VirtualClock(T0 - 5 * MIN);
    const store = new MemoryStore();
    const accounts = new PreparedAccounts();
    accounts.revoked.add('a2');
    const runtime = createRuntime({
      clock,
      ids: sequentialIds(),
      store,
      telephony: new MemoryTelephony({ clock }),
      messaging: new FakeMessaging(),
      accounts,
    });
    await runtime.start();
    const ok = await runtime.schedule({
      accountId: 'a1',
      phoneNumberId: 'p1',
      to: PHONE,
      scheduledAt: T0,
    });
    const refused = await runtime.schedule({
      accountId: 'a2',
      phoneNumberId: 'p2',
      to: '+14155550124',
      scheduledAt: T0,
    });
    await clock.advance(T0);
    await runtime.idle();

    const prepared = accounts.prepared.flat().filter((c) => c.occurrenceId !== null);
    assert.deepEqual(new Set(prepared.map((c) => c.occurrenceId)), new Set([ok.id, refused.id]));
    assert.ok(prepared.every((c) => c.kind === 'first' && c.at === T0));
    const first = await store.load({ occurrences: [ok.id, refused.id] });
    const byId = new Map(first.occurrences.map((o) => [o.id, o]));
    assert.notEqual(byId.get(ok.id)!.status, 'cancelled');
    assert.equal(byId.get(refused.id)!.status, 'cancelled');

    // A test call: prepared with its own call, refused for a revoked account.
    const placed = await runtime.placeCall({ kind: 'test', to: '+14155550124', accountId: 'a2' });
    assert.deepEqual(placed, { ok: false, reason: 'calls_revoked' });
    assert.ok(accounts.prepared.at(-1)!.some((c) => c.kind === 'test' && c.accountId === 'a2'));

    assert.ok(accounts.asked.length >= 3);
    assert.equal(accounts.held, 0, 'every prepared unit was released');
    assert.equal(accounts.released, accounts.prepared.length);
    await runtime.stop();
  });
});
