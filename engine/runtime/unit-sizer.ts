/**
 * How much work runs at once: rows per unit of work, adapted to how long units take, and
 * slices of units after which the runtime yields to the event loop. Shared by the dispatch
 * loop and the inbox.
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
   * unit of 512 costs. Halving at half a slice kept units at 16 rows on a busy machine; a
   * unit up to one slice still bounds a blocked loop at about two slices.
   */
  adapt(took: number, rows: number): void {
    const max = this.options.batchSize;
    if (took > this.options.sliceMs) this.batch = Math.max(16, Math.floor(this.batch / 2));
    else if (rows >= this.batch && took < this.options.sliceMs / 2)
      this.batch = Math.min(max, this.batch * 2);
  }

  /** A slice of work: `after()` yields to the event loop once `sliceMs` (or `batchesPerSlice` units) are used. */
  slice(): { after(): Promise<void> | undefined } {
    let started = this.clock.now();
    let units = 0;
    return {
      after: () => {
        units++;
        if (
          this.clock.now() - started < this.options.sliceMs &&
          units < this.options.batchesPerSlice
        )
          return undefined;
        return this.options.yieldToLoop().then(() => {
          started = this.clock.now();
          units = 0;
        });
      },
    };
  }
}
