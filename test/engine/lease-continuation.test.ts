/**
 * Lease mode in a spike: a poll made because the runtime handled half of what it had claimed
 * continues after its last claim, instead of claiming again from the start of the horizon
 * (which re-claimed every row still held in the wheel or in a unit of work). Rows are counted
 * as the store's `listDue` hands them out with a lease: on PostgreSQL each is a row updated.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRuntime } from '../../engine/index.js';
import type { DueQuery, DueRef } from '../../engine/ports.js';
import { MemoryStore, MemoryTelephony, VirtualClock } from '../../engine/sim/index.js';
import { MIN, PHONE, sequentialIds, T0 } from './harness.js';

/** A memory store that counts the rows its claims hand out. */
class CountingStore extends MemoryStore {
  claimed = 0;
  claims = 0;
  override async listDue(options: DueQuery): Promise<DueRef[]> {
    const rows = await super.listDue(options);
    if (options.lease) {
      this.claims += 1;
      this.claimed += rows.length;
    }
    return rows;
  }
}

describe('lease polls in a spike', () => {
  it('a poll for more continues after its last claim: each due row is claimed once, plus one renewal', async () => {
    const clock = new VirtualClock(T0 - MIN);
    const store = new CountingStore();
    const phones = new MemoryTelephony({ clock });
    const runtime = createRuntime({
      clock,
      ids: sequentialIds(),
      store,
      telephony: phones,
      options: { batchSize: 20, lease: { ttlMs: 30_000, pollMs: 10_000, maxClaimed: 50 } },
    });
    await runtime.start();
    const n = 600;
    for (let i = 0; i < n; i++)
      await runtime.schedule({ accountId: `a${i}`, to: PHONE, scheduledAt: T0 });
    store.claimed = 0;
    store.claims = 0;
    await clock.advance(T0);
    await runtime.idle();
    assert.equal(phones.calls.length, n, 'every call placed');
    // At most 50 rows claimed at a time, taken 20 at a time: each poll for more continues
    // after the last claim. The only rows handed out twice are the 50 claimed 10 s ahead of
    // T0, renewed by the timed poll at T0 (from the start of the horizon, 790 in all).
    assert.equal(store.claimed, n + 50);
    assert.ok(store.claims >= n / 50, `${store.claims} claims`);
    await clock.advance(T0 + 10 * MIN);
    await runtime.stop();
    assert.equal(phones.calls.filter((c) => c.state === 'ended').length, n);
  });
});
