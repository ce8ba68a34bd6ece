/**
 * Scheduling and the wheel: the near horizon of due work, held in the timer wheel. Due rows
 * up to `now + horizonMs` (at most `wheelCapacity`) are loaded from the store a page at a
 * time, in `listDue` order behind a cursor; beyond the cursor the store keeps them until a
 * refill. A committed unit of work re-keys the rows it changed.
 *
 * With `lease` (several runtimes on one store, docs/decisions/0012) the wheel holds only rows
 * this runtime claimed (`held`), due within the next poll (`pollMs`, plus the pacing lead):
 * - a poll claims from the START of the horizon every `pollMs` (rows skipped by `SKIP LOCKED`
 *   because they were being written, rows of a runtime whose lease expired, new rows), which
 *   also re-claims, so renews, the rows it holds; it stops once `maxClaimed` rows wait in the
 *   wheel, and claims again when half of them are handled, so the runtimes share a spike;
 *   such a poll continues after its last claim (the rows before it are held, handled or
 *   another runtime's until the next timed poll, which renews them): starting over there
 *   claimed 30 % more rows than were dispatched in a PostgreSQL spike;
 * - a committed unit keeps a held row in the wheel only while it is due within the poll;
 *   otherwise it forgets the row (its lease lapses and whoever polls when it is due claims
 *   it), and never adopts a row it does not hold (a provider's event applied here, a new
 *   occurrence): a row due that soon makes the next poll come now;
 * - a row whose commit the store refused (another runtime claimed it: the fence) is dropped
 *   by the dispatch loop ({@link DueHorizon.drop}) and the next poll comes now: if the row is
 *   still ours the claim returns it, else the other runtime has it; a row whose lease has
 *   expired by this runtime's clock when it comes due (the runtime paused) is dropped alike,
 *   unhandled, so a runtime never starts work on a row it may no longer hold (and the fence
 *   refuses a unit that straddles the expiry).
 * @module
 */
import type { DueCursor, EpochMs, Store } from '../ports.js';
import { TimerWheel } from '../wheel/timer-wheel.js';
import type { ResolvedRuntimeOptions } from './options.js';

/** A wheel entry: the row, its instant, and whether to fire exactly then (no pacing lead). */
export type Ref = { kind: 'occurrence' | 'attempt'; id: string; at: EpochMs; exact: boolean };

/**
 * Makes a wheel entry. Its kind is the literal, interned string: a store may read a new string per
 * row, and a spike keeps up to `wheelCapacity` entries.
 */
function ref(kind: Ref['kind'], id: string, at: EpochMs, exact: boolean): Ref {
  return { kind: kind === 'occurrence' ? 'occurrence' : 'attempt', id, at, exact };
}

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
  /**
   * Lease mode: the rows this runtime claimed and still holds (in the wheel, the pacer or a
   * unit of work), by wheelKey, with the end of their lease as this runtime last claimed it.
   */
  private readonly held = new Map<string, EpochMs>();
  /** Lease mode: when the next poll is due. */
  private nextPollAt = -Infinity;
  /**
   * Lease mode: where the last poll stopped at `maxClaimed` (its last claimed row: more due
   * rows may wait in the store after it, and a poll for more continues there), or null.
   */
  private claimedUpTo: DueCursor | null = null;

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

  /** Lease mode: how far past `now` a poll claims (a row is claimed about one poll before it is due). */
  private get ahead(): number {
    return this.options.lease!.pollMs + this.lead;
  }

  /**
   * Puts a row's due instant in the wheel when it lies inside the loaded horizon, replacing
   * its previous entry. Beyond the horizon, the store keeps it until a refill.
   */
  setKey(kind: Ref['kind'], id: string, at: EpochMs | null, exact = false, now?: EpochMs): void {
    const key = wheelKey(kind, id);
    const old = this.timers.get(key);
    if (old) {
      this.wheel.cancel(old);
      this.timers.delete(key);
    }
    if (this.options.lease) {
      // Lease mode: keep a held row due within the poll; forget the others.
      const t = now ?? this.wheel.now;
      const soon = at !== null && at <= t + this.ahead;
      if (!this.held.has(key)) {
        if (soon) this.nextPollAt = Math.min(this.nextPollAt, t);
        return;
      }
      if (!soon) {
        this.held.delete(key);
        return;
      }
      this.timers.set(key, this.wheel.add(this.fireAt(kind, at, exact), ref(kind, id, at, exact)));
      return;
    }
    if (at === null || !this.covers(at, kind, id)) return;
    this.timers.set(key, this.wheel.add(this.fireAt(kind, at, exact), ref(kind, id, at, exact)));
  }

  /** Keeps `ref` in the wheel at `at` unless something re-keyed it meanwhile. */
  keepIfAbsent(ref: Ref, at: EpochMs, exact: boolean): void {
    if (!this.timers.has(wheelKey(ref.kind, ref.id))) this.setKey(ref.kind, ref.id, at, exact);
  }

  /**
   * Lease mode: forgets a row whose commit the store refused (another runtime may have claimed
   * it meanwhile) and makes the next poll come now: the claim returns it if it is still ours.
   */
  drop(kind: Ref['kind'], id: string, now: EpochMs): void {
    const key = wheelKey(kind, id);
    const old = this.timers.get(key);
    if (old) this.wheel.cancel(old);
    this.timers.delete(key);
    this.held.delete(key);
    this.nextPollAt = now;
  }

  /** Tries `ref` again at `at` (after its unit of work failed), whatever the horizon. */
  retryAt(ref: Ref, at: EpochMs): void {
    this.timers.set(wheelKey(ref.kind, ref.id), this.wheel.add(at, { ...ref, exact: true }));
  }

  /** A paced dispatch fires `lead` ms early (into the pacer); watchdogs fire on time. */
  private fireAt(kind: Ref['kind'], at: EpochMs, exact: boolean): EpochMs {
    return exact || kind === 'attempt' ? at : at - this.lead;
  }

  /**
   * The entries due by `now`, at most `limit`, taken out of the wheel. Lease mode: a row whose
   * lease has expired by this runtime's clock (it paused, or its polls failed) is not handled
   * but dropped, and the next poll comes now: another runtime may have claimed it.
   */
  takeDue(now: EpochMs, limit: number): Ref[] {
    this.wheel.advance(now);
    const out: Ref[] = [];
    for (const t of this.wheel.takeReady(limit)) {
      const key = wheelKey(t.value.kind, t.value.id);
      if (this.timers.get(key) === t.handle) this.timers.delete(key);
      if (this.options.lease && (this.held.get(key) ?? -Infinity) <= now) {
        this.held.delete(key);
        this.nextPollAt = now;
        continue;
      }
      out.push(t.value);
    }
    return out;
  }

  /** Loads due rows up to now + horizon into the wheel, a page (one store call) at a time, within capacity. */
  async refill(now: EpochMs): Promise<void> {
    if (this.options.lease) return this.poll(now);
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
          this.timers.set(
            key,
            this.wheel.add(this.fireAt(r.kind, r.at, false), ref(r.kind, r.id, r.at, false)),
          );
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

  /**
   * Lease mode: claims due rows up to `now + ahead` from the start, page by page, until a
   * short page or `maxClaimed` rows wait in the wheel. Rows it holds come back (their lease
   * renewed) and are re-keyed if another runtime's commit moved them; new ones enter the wheel.
   */
  private async poll(now: EpochMs): Promise<void> {
    const { owner, ttlMs, pollMs, maxClaimed } = this.options.lease!;
    const until = now + this.ahead;
    // A poll for more before the timed one continues after the last claim; the timed poll
    // (and one brought forward by a refused commit, a lapsed lease or a new near row) starts over.
    let after = now < this.nextPollAt ? this.claimedUpTo : null;
    if (after === null) this.nextPollAt = now + pollMs;
    this.claimedUpTo = null;
    for (;;) {
      const limit = Math.min(this.options.refillPage, maxClaimed);
      const page = await this.store.listDue({
        until,
        limit,
        ...(after !== null ? { after } : {}),
        lease: { owner, until: now + ttlMs, now },
      });
      for (const r of page) {
        const key = wheelKey(r.kind, r.id);
        const handle = this.timers.get(key);
        if (this.held.has(key)) {
          this.held.set(key, now + ttlMs);
          // Ours already: in the wheel (re-key it if it moved) or in a unit of work or the pacer.
          if (handle !== undefined && this.wheel.get(handle)?.at !== r.at) {
            this.wheel.cancel(handle);
            this.timers.set(
              key,
              this.wheel.add(this.fireAt(r.kind, r.at, false), ref(r.kind, r.id, r.at, false)),
            );
          }
          continue;
        }
        this.held.set(key, now + ttlMs);
        this.timers.set(
          key,
          this.wheel.add(this.fireAt(r.kind, r.at, false), ref(r.kind, r.id, r.at, false)),
        );
      }
      if (page.length < limit) return;
      const last = page[page.length - 1]!;
      after = { at: last.at, kind: last.kind, id: last.id };
      if (this.wheel.size >= maxClaimed) {
        this.claimedUpTo = after;
        return;
      }
      await this.options.yieldToLoop();
    }
  }

  /** Lease mode: a poll is due, or the last one stopped at `maxClaimed` and half of those are handled. */
  private pollDue(now: EpochMs): boolean {
    return (
      now >= this.nextPollAt ||
      (this.claimedUpTo !== null && this.wheel.size < this.options.lease!.maxClaimed / 2)
    );
  }

  /** When the loaded horizon has shrunk to half: time to load more. */
  private refillAt(c: DueCursor): EpochMs {
    return c.at - this.options.horizonMs / 2;
  }

  needsRefill(now: EpochMs): boolean {
    if (this.options.lease) return this.pollDue(now);
    if (this.wheel.size >= this.options.wheelCapacity * 0.75) return false;
    const c = this.cursor;
    if (c === null || this.refillAt(c) <= now) return true;
    // The last refill stopped at capacity: continue once half the wheel has drained.
    return c.id !== MAX_ID && this.wheel.size < this.options.wheelCapacity / 2;
  }

  /** A capacity-limited refill left rows due by `now` in the store. */
  leftBehind(now: EpochMs): boolean {
    if (this.options.lease) return this.claimedUpTo !== null && this.pollDue(now);
    return (
      this.cursor !== null &&
      this.cursor.id !== MAX_ID &&
      this.cursor.at <= now &&
      this.needsRefill(now)
    );
  }

  /** The next instant the horizon needs attention: its next entry, or its next refill. */
  nextWakeAt(): EpochMs | null {
    let next = this.wheel.nextEventAt();
    if (this.options.lease) {
      const poll =
        this.claimedUpTo !== null && this.wheel.size < this.options.lease.maxClaimed / 2
          ? -Infinity
          : this.nextPollAt;
      return next === null || poll < next ? poll : next;
    }
    if (this.cursor && this.wheel.size < this.options.wheelCapacity * 0.75) {
      const r = this.refillAt(this.cursor);
      if (next === null || r < next) next = r;
    }
    return next;
  }
}
