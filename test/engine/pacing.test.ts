import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Pacer } from '../../engine/internals.js';
import { harness, MIN, T0 } from './harness.js';

describe('pacing (calls per second, early start at a peak)', () => {
  it('spreads a peak backwards so that every call starts by its instant, one interval apart, never earlier than the lead', async () => {
    const h = await harness(
      { pacing: { callsPerSecond: 10, maxLeadMs: 30_000 } },
      { start: T0 - 2 * MIN },
    );
    const list = await Promise.all(
      Array.from({ length: 50 }, (_, i) => h.schedule({ to: `+1415555${2000 + i}` })),
    );
    await h.at(T0 + MIN);
    const starts = (await Promise.all(list.map((o) => h.attempts(o.id))))
      .map((a) => a[0]!.requestedAt!)
      .sort((a, b) => a - b);
    assert.ok(
      starts.every((t) => t <= T0 && t >= T0 - 30_000),
      'within [T0 - lead, T0]',
    );
    for (let i = 1; i < starts.length; i++)
      assert.ok(starts[i]! - starts[i - 1]! >= 100, 'at most 10 a second');
    assert.ok(starts[starts.length - 1]! >= T0 - 100, 'the last one starts at its instant');
    assert.ok(starts[0]! >= T0 - 5000, 'no earlier than needed');
    assert.ok(
      (await Promise.all(list.map((o) => h.occurrence(o.id)))).every(
        (o) => o.status === 'confirmed',
      ),
    );
  });

  it('starts at most maxLeadMs early; beyond capacity the tail is late', async () => {
    const h = await harness(
      { pacing: { callsPerSecond: 10, maxLeadMs: 5_000 } },
      { start: T0 - 2 * MIN },
    );
    const list = await Promise.all(
      Array.from({ length: 100 }, (_, i) => h.schedule({ to: `+1415556${2000 + i}` })),
    );
    await h.at(T0 + 2 * MIN);
    const starts = (await Promise.all(list.map((o) => h.attempts(o.id))))
      .map((a) => a[0]!.requestedAt!)
      .sort((a, b) => a - b);
    assert.equal(starts[0], T0 - 5_000);
    assert.ok(starts.every((t) => t >= T0 - 5_000));
    assert.ok(starts[starts.length - 1]! > T0 + 4_000, 'the tail rings late');
    assert.ok(starts[starts.length - 1]! <= T0 + 5_100);
  });

  it('Pacer releases as late as keeps everyone on time', () => {
    const p = new Pacer<string>(2, 10_000); // 500 ms apart
    p.enqueue('a', 10_000);
    p.enqueue('b', 10_000);
    p.enqueue('c', 10_000);
    assert.equal(p.nextReleaseAt(), 9_000);
    assert.deepEqual(p.release(8_999, 10), []);
    assert.deepEqual(p.release(9_000, 10), ['a']);
    assert.equal(p.nextReleaseAt(), 9_500);
    assert.deepEqual(p.release(9_500, 10), ['b']);
    assert.deepEqual(p.release(10_000, 10), ['c']);
    assert.equal(p.nextReleaseAt(), null);
  });
});

describe('pacing at the provider rate with no lead (issue 28)', () => {
  it('places a spike due at once in due order at exactly the rate, none early, no idle slot', async () => {
    const h = await harness(
      { pacing: { callsPerSecond: 20, maxLeadMs: 0 } },
      { start: T0 - 2 * MIN },
    );
    const list = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        h.schedule({ to: `+1415557${2000 + i}`, scheduledAt: T0 + Math.floor(i / 10) * 100 }),
      ),
    );
    await h.at(T0 + 2 * MIN);
    const placed = (await Promise.all(list.map((o) => h.attempts(o.id)))).map((a, i) => ({
      due: T0 + Math.floor(i / 10) * 100,
      at: a[0]!.requestedAt!,
    }));
    placed.sort((a, b) => a.at - b.at);
    assert.ok(
      placed.every((p) => p.at >= p.due),
      'never before its instant',
    );
    for (let k = 0; k < placed.length; k++) {
      assert.ok(
        placed[k]!.at <= T0 + (k / 20) * 1000 + 50,
        `the ${k}-th call by k / rate after the spike (${placed[k]!.at - T0} ms)`,
      );
      if (k > 0) assert.ok(placed[k]!.at - placed[k - 1]!.at >= 50 - 1, 'at most 20 a second');
    }
    for (let k = 1; k < placed.length; k++)
      assert.ok(placed[k]!.due >= placed[k - 1]!.due, 'in due order');
  });
});
