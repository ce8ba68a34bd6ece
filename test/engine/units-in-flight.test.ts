/**
 * `unitsInFlight`: how many dispatch units of work run at once. Counted on a store whose loads
 * take a few turns of the event loop (as a database's round trips do), so units that may
 * overlap do; the virtual clock does not move meanwhile, so the unit sizer keeps its batches.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EngineError } from '../../engine/index.js';
import { MemoryStore } from '../../engine/sim/index.js';
import { harness, MIN, T0 } from './harness.js';

/** A memory store counting the dispatch units' loads (those naming occurrences) open at once. */
class SlowStore extends MemoryStore {
  open = 0;
  mostOpen = 0;
  override async load(keys: Parameters<MemoryStore['load']>[0]): ReturnType<MemoryStore['load']> {
    const dispatch = (keys.occurrences ?? []).length > 0;
    if (dispatch) this.mostOpen = Math.max(this.mostOpen, ++this.open);
    try {
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      return await super.load(keys);
    } finally {
      if (dispatch) this.open--;
    }
  }
}

/**
 * 30 calls due at T0 in batches of 5, with `unitsInFlight` (and leases, at most `maxClaimed`
 * rows claimed at once): the most units open at once.
 */
async function spike(unitsInFlight?: number, maxClaimed?: number): Promise<number> {
  const store = new SlowStore();
  const h = await harness(
    {
      batchSize: 5,
      ...(unitsInFlight === undefined ? {} : { unitsInFlight }),
      ...(maxClaimed === undefined ? {} : { lease: { ttlMs: 30_000, maxClaimed } }),
    },
    { store },
  );
  const due = await Promise.all(
    Array.from({ length: 30 }, (_, i) => h.schedule({ to: `+1415555${2000 + i}` })),
  );
  await h.at(T0 + 2 * MIN);
  for (const o of due) {
    assert.equal((await h.occurrence(o.id)).status, 'confirmed', o.id);
    assert.equal((await h.attempts(o.id)).length, 1, `${o.id}: one call`);
  }
  await h.runtime.stop();
  return store.mostOpen;
}

describe('runtime: dispatch units in flight', () => {
  it('runs one unit at a time by default', async () => {
    assert.equal(await spike(), 1);
  });

  it('runs up to unitsInFlight units at once, each row dispatched once', async () => {
    assert.equal(await spike(3), 3);
  });

  it('with leases, claims more beside the units in flight rather than waiting for them all', async () => {
    // 10 rows claimed at a time, 5 to a unit: a loop that polled only between ticks would
    // wait for both units before claiming again, and never have a third open.
    assert.equal(await spike(3, 10), 3);
    assert.equal(await spike(undefined, 10), 1);
  });

  it('refuses a count that is not positive, naming the option', async () => {
    const store = new MemoryStore();
    await assert.rejects(
      harness({ unitsInFlight: 0 }, { store }),
      (e: unknown) =>
        e instanceof EngineError && e.code === 'invalid_option' && e.field === 'unitsInFlight',
    );
  });
});
