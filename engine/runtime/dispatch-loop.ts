/**
 * The dispatch loop: one host timer armed for the next thing to do (never further than
 * `maxTimerStepMs`; a timer is a hint, the clock is read again when it fires), and on each
 * tick the due wheel entries and paced releases run in units of work (one load and one commit
 * per unit), yielding to the event loop between slices.
 * @module
 */
import type { Clock, EpochMs, RowRef, TimerHandle } from '../ports.js';
import type { EffectRunner } from './effect-runner.js';
import type { SafeEmitter } from './events.js';
import type { DueHorizon, Ref } from './horizon.js';
import type { ResolvedRuntimeOptions } from './options.js';
import type { Pacer } from './pacer.js';
import type { RunUnit } from './unit-runner.js';
import type { UnitSizer } from './unit-sizer.js';

/** Pause before retrying a row whose unit of work threw. */
const RETRY_PAUSE_MS = 30_000;

/** What the loop needs. */
export interface DispatchLoopDeps {
  clock: Clock;
  options: ResolvedRuntimeOptions;
  events: SafeEmitter;
  horizon: DueHorizon;
  pacer: Pacer<Ref> | null;
  sizer: UnitSizer;
  runner: EffectRunner;
  unit: RunUnit;
}

/** See the module comment. */
export class DispatchLoop {
  private hostTimer: TimerHandle | null = null;
  private hostTimerAt = Infinity;
  private running = false;
  /** True while a tick runs (units then leave re-arming to the tick's end). */
  ticking = false;

  constructor(private readonly d: DispatchLoopDeps) {}

  start(): void {
    this.running = true;
    this.arm();
  }

  stop(): void {
    this.running = false;
    this.hostTimer?.cancel();
    this.hostTimer = null;
    this.hostTimerAt = Infinity;
  }

  /** Arms the host timer for the next thing to do, never further than `maxTimerStepMs`. */
  arm(): void {
    if (!this.running) return;
    const now = this.d.clock.now();
    let next = now + this.d.options.maxTimerStepMs;
    const wake = this.d.horizon.nextWakeAt();
    if (wake !== null && wake < next) next = wake;
    const paced = this.d.pacer?.nextReleaseAt() ?? null;
    if (paced !== null && paced < next) next = paced;
    if (next < now) next = now;
    if (this.hostTimer && this.hostTimerAt <= next) return;
    this.hostTimer?.cancel();
    this.hostTimerAt = next;
    this.hostTimer = this.d.clock.setTimer(next, () => this.tick(next));
  }

  /** A host timer fired: re-check the clock, run everything due, re-arm. */
  private async tick(expectedAt: EpochMs): Promise<void> {
    this.hostTimer = null;
    this.hostTimerAt = Infinity;
    if (!this.running || this.ticking) return;
    this.ticking = true;
    try {
      const now = this.d.clock.now();
      if (now - expectedAt > 1000) this.d.events.emit('timer:late', { expectedAt, now });
      await this.drain();
    } catch (error) {
      this.d.events.emit('runtime:error', { error, where: 'tick' });
    } finally {
      this.ticking = false;
      this.arm();
    }
    // Everything this tick started (calls, their answers, texts) has happened before the
    // tick's promise resolves: a virtual clock awaits it, so advance() is deterministic.
    // (A system clock ignores the promise; the next timer is already armed.)
    await this.d.runner.settled();
  }

  /**
   * Runs due wheel entries and paced releases in units, up to `unitsInFlight` at once (their
   * batches are disjoint: a batch leaves the wheel when taken), yielding between slices. It
   * returns once every unit it started has finished.
   */
  private async drain(): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    try {
      await this.startUnits(inFlight);
    } finally {
      await Promise.all(inFlight);
    }
  }

  /** The body of {@link DispatchLoop.drain}: starts units into `inFlight`. */
  private async startUnits(inFlight: Set<Promise<void>>): Promise<void> {
    const { horizon, pacer, sizer } = this.d;
    const slice = sizer.slice();
    let polled = false;
    for (;;) {
      if (!this.running) return;
      const now = this.d.clock.now();
      if (horizon.needsRefill(now)) {
        // With leases, one claim per tick while no unit is in flight: the tick ends and
        // re-arms at once, so the other runtimes' timers of the same instant (on a virtual
        // clock) get their turn. Units in flight await the store, so the loop claims again
        // beside them rather than waiting for them all (14 % more dispatches a second on
        // PostgreSQL with three in flight).
        if (polled && this.d.options.lease && inFlight.size === 0) return;
        await horizon.refill(now);
        polled = true;
      }
      let batch = horizon.takeDue(now, sizer.batch);
      let leadMs = 0;
      if (pacer) {
        const direct: Ref[] = [];
        // Every dispatch takes a provider slot, a late one too (after a backlog, or with no
        // lead): the provider's rate holds whatever is due. Watchdogs are not calls.
        for (const ref of batch) {
          if (ref.exact || ref.kind === 'attempt') direct.push(ref);
          else pacer.enqueue(ref, ref.at);
        }
        batch = direct;
        const released = pacer.release(now, sizer.batch);
        if (released.length > 0) {
          leadMs = horizon.lead;
          batch.push(...released);
        }
      }
      if (batch.length === 0) {
        // Nothing due now; if a capacity-limited refill left rows in the store, load more.
        if (horizon.leftBehind(now)) continue;
        return;
      }
      await this.d.runner.slotFree();
      const unit = this.timedBatch(batch, leadMs).finally(() => inFlight.delete(unit));
      inFlight.add(unit);
      if (inFlight.size >= this.d.options.unitsInFlight) await Promise.race(inFlight);
      await slice.after();
    }
  }

  /**
   * {@link DispatchLoop.runBatch}, its time told to the sizer. It never rejects: it may run
   * while the loop awaits something else, and an error is reported as a tick's would be.
   */
  private async timedBatch(batch: Ref[], leadMs: number): Promise<void> {
    try {
      const t0 = this.d.clock.now();
      await this.runBatch(batch, leadMs);
      this.d.sizer.adapt(this.d.clock.now() - t0, batch.length);
    } catch (error) {
      this.d.events.emit('runtime:error', { error, where: 'tick' });
    }
  }

  /** One unit of work for a batch of due entries; on failure, one unit per entry. */
  private async runBatch(batch: Ref[], leadMs: number): Promise<void> {
    const now = this.d.clock.now();
    const stale: { ref: Ref; at: EpochMs }[] = [];
    const run = (refs: Ref[]) => {
      const occurrences: string[] = [];
      const attempts: string[] = [];
      for (const r of refs) (r.kind === 'occurrence' ? occurrences : attempts).push(r.id);
      // With leases, a due row whose commit is refused may be another runtime's now (it
      // claimed the row after our lease expired: the version is the fence). It leaves this
      // unit and the wheel, unplaced; the next poll, at once, returns it if it is still ours.
      const dropped = new Set<string>();
      const dropConflicts = this.d.options.lease
        ? (conflicts: readonly RowRef[]) => {
            let any = false;
            for (const c of conflicts) {
              if (c.kind === 'series' || dropped.has(c.id)) continue;
              if (!refs.some((r) => r.kind === c.kind && r.id === c.id)) continue;
              dropped.add(c.id);
              this.d.horizon.drop(c.kind, c.id, now);
              any = true;
            }
            return any;
          }
        : undefined;
      return this.d.unit(
        { occurrences, attempts },
        [...occurrences, ...attempts],
        (u) => {
          stale.length = 0;
          for (const ref of refs) {
            if (dropped.has(ref.id)) continue;
            const r = u.due(ref.kind, ref.id, leadMs);
            if (!r.handled && r.at !== null) stale.push({ ref, at: r.at });
          }
        },
        dropConflicts,
      );
    };
    try {
      await run(batch);
    } catch {
      // One bad row must not block the others: redo them one by one.
      stale.length = 0;
      for (const ref of batch) {
        try {
          await run([ref]);
        } catch (error) {
          this.d.events.emit('runtime:error', { error, where: `due ${ref.kind} ${ref.id}` });
          this.d.horizon.retryAt(ref, now + RETRY_PAUSE_MS);
        }
      }
    }
    // A row that moved since it was loaded (or a watchdog released early) stays at its real instant.
    for (const s of stale)
      this.d.horizon.keepIfAbsent(s.ref, s.at, s.at - now <= this.d.horizon.lead);
  }
}
