/**
 * RuntimeOptions.lease on the memory store, which ignores leases (it serves one process): the
 * option is harmless there (calls ring on time), and two runtimes sharing one memory store
 * still place each attempt once (the versions decide; a runtime whose wheel holds a row the
 * other handled finds it not due any more). The PostgreSQL
 * cases (real claims, a dead host) are in test/conformance/postgres-lease.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRuntime, EngineError } from '../../engine/index.js';
import { resolveRuntimeOptions } from '../../engine/internals.js';
import { MemoryStore, MemoryTelephony, VirtualClock } from '../../engine/sim/index.js';
import { MIN, PHONE, sequentialIds, T0 } from './harness.js';
import { startCluster } from './lease-cluster.js';

describe('runtime leases on the memory store', () => {
  it('validates the option and names an owner from the Ids port when none is given', () => {
    const r = resolveRuntimeOptions({ lease: { ttlMs: 30_000 } }, () => 'runtime-x');
    assert.deepEqual(r.lease, {
      owner: 'runtime-x',
      ttlMs: 30_000,
      pollMs: 10_000,
      maxClaimed: 1024,
    });
    assert.equal(resolveRuntimeOptions({}).lease, null);
    assert.throws(
      () => resolveRuntimeOptions({ lease: { ttlMs: 30_000, pollMs: 20_000 } }, () => 'x'),
      (e: unknown) => e instanceof EngineError && e.field === 'lease.pollMs',
    );
    assert.throws(
      () => resolveRuntimeOptions({ lease: { ttlMs: 0 } }, () => 'x'),
      (e: unknown) => e instanceof EngineError && e.field === 'lease.ttlMs',
    );
  });

  it('is harmless with one runtime: every call rings at its instant, new near-due rows included', async () => {
    const clock = new VirtualClock(T0 - 10 * MIN);
    const phones = new MemoryTelephony({ clock });
    const runtime = createRuntime({
      clock,
      ids: sequentialIds(),
      store: new MemoryStore(),
      telephony: phones,
      options: { lease: { ttlMs: 30_000, pollMs: 5_000 } },
    });
    await runtime.start();
    const due = [T0, T0 + 1, T0 + 2 * MIN, T0 + 2 * MIN + 17];
    for (const at of due) await runtime.schedule({ accountId: 'a', to: PHONE, scheduledAt: at });
    await clock.advance(T0 + 2 * MIN + 16);
    // Scheduled 100 ms ahead, inside the next poll: the commit makes the poll come at once.
    await runtime.schedule({ accountId: 'a', to: PHONE, scheduledAt: clock.now() + 100 });
    await clock.advance(T0 + 10 * MIN);
    await runtime.stop();
    assert.deepEqual(
      phones.calls.map((c) => c.placedAt - T0),
      [0, 1, 2 * MIN + 16 + 100, 2 * MIN, 2 * MIN + 17].sort((a, b) => a - b),
    );
    assert.equal(phones.calls.filter((c) => c.state === 'ended').length, 5);
  });

  it('two runtimes on one store that ignores leases still place each attempt once', async () => {
    const store = new MemoryStore();
    const c = await startCluster([store, store], T0 - MIN, { batchSize: 50 });
    const ids = await c.spike(400, T0);
    await c.clock.advance(T0 + 5 * MIN);
    await c.stopAll();
    const counts = c.assertPlacedAtMostOnce();
    assert.equal(counts.size, 400, 'one call per occurrence');
    const rows = await c.load(ids);
    assert.deepEqual(
      rows.filter((o) => o.status !== 'confirmed').map((o) => o.id),
      [],
    );
    assert.ok(
      c.placed.every((p) => p.at === T0),
      'every call placed at its instant',
    );
  });
});
