/**
 * Property: the SQLite overlay's image cache (engine/sqlite/image-cache.ts) holds exactly the
 * `limit` most recent images still current, through images replaced by newer ones of the same
 * row, rows leaving, and enough of them to compact and grow its queue.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ImageCache, type ImageHolder } from '../../engine/sqlite/image-cache.js';
import { SCALE } from './time-oracle.js';

/** Rows of one kind, as PendingRows keeps them: a slot's journal row and whether it has an image. */
class Rows implements ImageHolder {
  readonly seq = new Map<number, number>();
  readonly image = new Set<number>();
  dropImage(slot: number, seq: number): boolean {
    if (!this.holds(slot, seq)) return false;
    this.image.delete(slot);
    return true;
  }
  holds(slot: number, seq: number): boolean {
    return this.seq.get(slot) === seq && this.image.has(slot);
  }
}

const step = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('keep' as const),
      owner: fc.nat(1),
      slot: fc.nat(40),
      times: fc.integer({ min: 1, max: 600 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('leave' as const), owner: fc.nat(1), slot: fc.nat(40) }),
  },
);

describe('ImageCache', () => {
  it('keeps the most recent images, at most its limit', () => {
    fc.assert(
      fc.property(fc.nat(50), fc.array(step, { maxLength: 30 }), (limit, steps) => {
        const cache = new ImageCache(limit);
        const rows = [new Rows(), new Rows()];
        for (const r of rows) cache.register(r);
        let seq = 0;
        // The model: current images, most recent last.
        let recent: { owner: number; slot: number }[] = [];
        for (const s of steps) {
          const r = rows[s.owner]!;
          if (s.op === 'keep') {
            for (let k = 0; k < s.times; k++) {
              const slot = (s.slot + k * 7) % 41;
              seq++;
              if (!r.image.has(slot)) cache.count++;
              r.seq.set(slot, seq);
              r.image.add(slot);
              cache.kept(s.owner, slot, seq);
              recent = recent.filter((x) => !(x.owner === s.owner && x.slot === slot));
              recent.push({ owner: s.owner, slot });
              if (recent.length > limit) recent = recent.slice(recent.length - limit);
            }
          } else if (r.image.delete(s.slot)) {
            cache.count--;
            r.seq.delete(s.slot);
            recent = recent.filter((x) => !(x.owner === s.owner && x.slot === s.slot));
          }
          const held = rows.flatMap((x, owner) => [...x.image].map((slot) => `${owner}:${slot}`));
          assert.deepEqual(held.sort(), recent.map((x) => `${x.owner}:${x.slot}`).sort());
          assert.equal(cache.count, recent.length);
        }
      }),
      { numRuns: 100 * SCALE },
    );
  });
});
