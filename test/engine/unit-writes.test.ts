/**
 * The embedder's own writes of each unit of work (RuntimeDeps.unitWrites, docs/decisions/0025):
 * asked once per commit with the unit's changes, stored in the commit's transaction, and never
 * stored for a unit that did not commit.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createRuntime,
  type ChangeSet,
  type CommitOptions,
  type OccurrenceStatus,
} from '../../engine/index.js';
import {
  MemoryStore,
  MemoryTelephony,
  VirtualClock,
  type MemoryTransaction,
} from '../../engine/sim/index.js';
import { MIN, PHONE, sequentialIds, T0 } from './harness.js';

/** A runtime whose unit writer records each finished occurrence's outcome, as a host's outbox would. */
function setup(store: MemoryStore) {
  const clock = new VirtualClock(T0 - 5 * MIN);
  const phones = new MemoryTelephony({ clock });
  const outbox: string[] = [];
  let asked = 0;
  let committed = 0;
  const runtime = createRuntime<MemoryTransaction>({
    clock,
    ids: sequentialIds(),
    store,
    telephony: phones,
    unitWrites: {
      writes: (changes: ChangeSet) => {
        asked++;
        const finished = changes.occurrences.filter((w) =>
          ['confirmed', 'missed', 'unconfirmed'].includes(w.record.status),
        );
        return finished.map(
          (w) => (tx: MemoryTransaction) =>
            tx.onCommit(() => outbox.push(`${w.record.id}:${w.record.status}`)),
        );
      },
      committed: () => void committed++,
    },
  });
  return { clock, phones, runtime, outbox, counts: () => ({ asked, committed }) };
}

describe('runtime: the embedder’s writes of a unit', () => {
  it('are asked at each commit and stored with the unit that finishes the call', async () => {
    const store = new MemoryStore();
    const t = setup(store);
    await t.runtime.start();
    const o = await t.runtime.schedule({ accountId: 'a1', to: PHONE, scheduledAt: T0 });
    await t.clock.advance(T0 + MIN);
    await t.runtime.idle();
    const status: OccurrenceStatus = (await store.load({ occurrences: [o.id] })).occurrences[0]!
      .status;
    assert.equal(status, 'confirmed');
    assert.deepEqual(t.outbox, [`${o.id}:confirmed`]);
    const { asked, committed } = t.counts();
    assert.ok(asked >= 4, `asked at every commit (${asked})`);
    assert.equal(committed, 1, 'committed is called once: for the one unit that wrote something');
    await t.runtime.stop();
  });

  it('are not stored by a commit that fails: the unit applied again stores them once', async () => {
    // A store whose first commit with writes fails (a later write throws): nothing of that unit
    // is stored, and the runtime applies the provider's answer again, alone.
    class FailingOnce extends MemoryStore {
      failed = false;
      override async commit(changes: ChangeSet, options?: CommitOptions<MemoryTransaction>) {
        if (options?.writes?.length && !this.failed) {
          this.failed = true;
          return super.commit(changes, {
            writes: [
              ...options.writes,
              () => {
                throw new Error('the outbox is full');
              },
            ],
          });
        }
        return super.commit(changes, options);
      }
    }
    const store = new FailingOnce();
    const t = setup(store);
    await t.runtime.start();
    const o = await t.runtime.schedule({ accountId: 'a1', to: PHONE, scheduledAt: T0 });
    await t.clock.advance(T0 + MIN);
    await t.runtime.idle();
    assert.equal(store.failed, true);
    assert.deepEqual(t.outbox, [`${o.id}:confirmed`], 'stored once, by the unit that committed');
    assert.equal((await store.load({ occurrences: [o.id] })).occurrences[0]!.status, 'confirmed');
    await t.runtime.stop();
  });
});
