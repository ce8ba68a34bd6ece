/**
 * Scheduling and the wheel: the near horizon of due work, held in the timer wheel. Due rows
 * up to `now + horizonMs` (at most `wheelCapacity`) are loaded from the store a page at a
 * time, in `listDue` order behind a cursor; beyond the cursor the store keeps them until a
 * refill. A committed unit of work re-keys the rows it changed.
 * @module
 */
import type { DueCursor, EpochMs, Store } from '../ports.js';
import { TimerWheel } from '../wheel/timer-wheel.js';
import type { ResolvedRuntimeOptions } from './options.js';

/** A wheel entry: the row, its instant, and whether to fire exactly then (no pacing lead). */
export type Ref = { kind: 'occurrence' | 'attempt'; id: string; at: EpochMs; exact: boolean };

/** Sorts after every id: a cursor "at T, after everything". */
const MAX_ID = '\uffff';

function compareKey(at: EpochMs, kind: string, id: string, c: DueCursor): number {
  if (at !== c.at) return at < c.at ? -1 : 1;
  if (kind !== c.kind) return kind < c.kind ? -1 : 1;
  return id < c.id ? -1 : id > c.id ? 1 : 0;
}

/**
 * Key of a row in the map of wheel handles. Occurrences use their id as is (no string built
 * per entry: a spike holds a million of them); standalone attempts, which are few, a prefix.
 */
function wheelKey(kind: Ref['kind'], id: string): string {
  return kind === 'occurrence' ? id : `\u0000a${id}`;
}

/** See the module comment. */
export class DueHorizon {
  private readonly wheel: TimerWheel<Ref>;
  /** The wheel entry of each row in the wheel, by wheelKey. */
  private readonly timers = new Map<string, number>();
  /** Every due row up to here (in listDue order) is in the wheel or handled. */
  private cursor: DueCursor | null = null;

  constructor(
    private readonly store: Store,
    private readonly options: ResolvedRuntimeOptions,
    now: EpochMs,
    /** How early a paced dispatch enters the pacer (0 without pacing). */
    readonly lead: number,
  ) {
    this.wheel = new TimerWheel<Ref>(now);
  }

  get size(): number {
    return this.wheel.size;
  }

  private covers(at: EpochMs, kind: string, id: string): boolean {
    return this.cursor !== null && compareKey(at, kind, id, this.cursor) <= 0;
  }

  /**
   * Puts a row's due instant in the wheel when it lies inside the loaded horizon, replacing
   * its previous entry. Beyond the horizon, the store keeps it until a refill.
   */
  setKey(kind: Ref['kind'], id: string, at: EpochMs | null, exact = false): void {
    const key = wheelKey(kind, id);
    const old = this.timers.get(key);
    if (old) {
      this.wheel.cancel(old);
      this.timers.delete(key);
    }
    if (at === null || !this.covers(at, kind, id)) return;
    this.timers.set(key, this.wheel.add(this.fireAt(kind, at, exact), { kind, id, at, exact }));
  }

  /** Keeps `ref` in the wheel at `at` unless something re-keyed it meanwhile. */
  keepIfAbsent(ref: Ref, at: EpochMs, exact: boolean): void {
    if (!this.timers.has(wheelKey(ref.kind, ref.id))) this.setKey(ref.kind, ref.id, at, exact);
  }

  /** Tries `ref` again at `at` (after its unit of work failed), whatever the horizon. */
  retryAt(ref: Ref, at: EpochMs): void {
    this.timers.set(wheelKey(ref.kind, ref.id), this.wheel.add(at, { ...ref, exact: true }));
  }

  /** A paced dispatch fires `lead` ms early (into the pacer); watchdogs fire on time. */
  private fireAt(kind: Ref['kind'], at: EpochMs, exact: boolean): EpochMs {
    return exact || kind === 'attempt' ? at : at - this.lead;
  }

  /** The entries due by `now`, at most `limit`, taken out of the wheel. */
  takeDue(now: EpochMs, limit: number): Ref[] {
    this.wheel.advance(now);
    const out: Ref[] = [];
    for (const t of this.wheel.takeReady(limit)) {
      const key = wheelKey(t.value.kind, t.value.id);
      if (this.timers.get(key) === t.handle) this.timers.delete(key);
      out.push(t.value);
    }
    return out;
  }

  /** Loads due rows up to now + horizon into the wheel, a page (one store call) at a time, within capacity. */
  async refill(now: EpochMs): Promise<void> {
    const until = now + this.options.horizonMs;
    for (;;) {
      if (this.cursor && this.cursor.at >= until && this.cursor.id === MAX_ID) return;
      const limit = Math.min(this.options.refillPage, this.options.wheelCapacity - this.wheel.size);
      if (limit <= 0) return;
      const after = this.cursor ?? undefined;
      const page = await this.store.listDue({ until, limit, ...(after ? { after } : {}) });
      for (const r of page) {
        const key = wheelKey(r.kind, r.id);
        if (!this.timers.has(key)) {
          this.timers.set(key, this.wheel.add(this.fireAt(r.kind, r.at, false), { kind: r.kind, id: r.id, at: r.at, exact: false }));
        }
      }
      if (page.length < limit) {
        if (!this.cursor || compareKey(until, 'occurrence', MAX_ID, this.cursor) > 0) {
          this.cursor = { at: until, kind: 'occurrence', id: MAX_ID };
        }
        return;
      }
      const last = page[page.length - 1]!;
      this.cursor = { at: last.at, kind: last.kind, id: last.id };
      await this.options.yieldToLoop();
    }
  }

  /** When the loaded horizon has shrunk to half: time to load more. */
  private refillAt(c: DueCursor): EpochMs {
    return c.at - this.options.horizonMs / 2;
  }

  needsRefill(now: EpochMs): boolean {
    if (this.wheel.size >= this.options.wheelCapacity * 0.75) return false;
    const c = this.cursor;
    if (c === null || this.refillAt(c) <= now) return true;
    // The last refill stopped at capacity: continue once half the wheel has drained.
    return c.id !== MAX_ID && this.wheel.size < this.options.wheelCapacity / 2;
  }

  /** A capacity-limited refill left rows due by `now` in the store. */
  leftBehind(now: EpochMs): boolean {
    return this.cursor !== null && this.cursor.id !== MAX_ID && this.cursor.at <= now && this.needsRefill(now);
  }

  /** The next instant the horizon needs attention: its next entry, or its next refill. */
  nextWakeAt(): EpochMs | null {
    let next = this.wheel.nextEventAt();
    if (this.cursor && this.wheel.size < this.options.wheelCapacity * 0.75) {
      const r = this.refillAt(this.cursor);
      if (next === null || r < next) next = r;
    }
    return next;
  }
}
