/**
 * How much work runs at once: rows per unit of work, adapted to how long units take, and
 * slices of units after which the runtime yields to the event loop. The dispatch loop and the
 * inbox have one each: a dispatch costs several times an answer's row, and a shared size would
 * be grown back by the answers' quick units as soon as the dispatch units halve it.
 * @module
 */
import type { Clock } from '../ports.js';
import type { ResolvedRuntimeOptions } from './options.js';

/** See the module comment. */
export class UnitSizer {
  /** Rows per unit now. */
  batch: number;

  constructor(
    private readonly clock: Clock,
    private readonly options: ResolvedRuntimeOptions,
  ) {
    this.batch = Math.min(32, options.batchSize);
  }

  /**
   * After a unit of `rows` rows took `took` ms: halve the unit when it took more than a
   * slice, double it (up to batchSize) when a full unit took less than half a slice.
   *
   * A unit's fixed cost (its load, its commit, the pages the commit writes) is shared by its
   * rows: measured on the 100k spike, a unit of 16 rows costs about 1.7 times per row what a
   * unit of 512 costs. Halving at half a slice kept units at 16 rows on a busy machine; with
   * units up to one slice, {@link UnitSizer.slice} still ends a slice near one.
   */
  adapt(took: number, rows: number): void {
    const max = this.options.batchSize;
    if (took > this.options.sliceMs) this.batch = Math.max(16, Math.floor(this.batch / 2));
    else if (rows >= this.batch && took < this.options.sliceMs / 2)
      this.batch = Math.min(max, this.batch * 2);
  }

  /**
   * A slice of work: `after()` yields to the event loop once `sliceMs` (or `batchesPerSlice`
   * units) are used, or when one more unit as long as the last would overrun the slice: a
   * slice then ends near `sliceMs` rather than near two of them.
   */
  slice(): { after(): Promise<void> | undefined } {
    let started = this.clock.now();
    let last = started;
    let units = 0;
    return {
      after: () => {
        units++;
        const now = this.clock.now();
        const took = now - last;
        last = now;
        if (now - started + took < this.options.sliceMs && units < this.options.batchesPerSlice)
          return undefined;
        return this.options.yieldToLoop().then(() => {
          started = last = this.clock.now();
          units = 0;
        });
      },
    };
  }
}
