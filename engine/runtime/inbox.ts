/**
 * The inbox of provider answers: `placeCall` results, telephony events (from any host: a
 * webhook names the attempt by its id, the idempotency key) and fallback-text results. What
 * arrives in one turn of the event loop is applied by one unit of work (one load, one
 * commit). An item's promise resolves once its own unit has committed and the work that unit
 * started (a hang-up, a text) has settled: a webhook waits for its own answer's consequences,
 * never for the rest of a backlog or for calls other units placed meanwhile.
 * @module
 */
import type { Clock, PlaceCallResult, SendResult, TelephonyEvent } from '../ports.js';
import type { EffectRunner } from './effect-runner.js';
import type { SafeEmitter } from './events.js';
import type { RunUnitStarting } from './unit-runner.js';
import type { UnitSizer } from './unit-sizer.js';

/** One answer from a port. */
export type InboxItem =
  | { type: 'placed'; attemptId: string; result: PlaceCallResult }
  | { type: 'telephony'; event: TelephonyEvent }
  | { type: 'texted'; occurrenceId: string; result: SendResult };

/** What the inbox needs. */
export interface InboxDeps {
  clock: Clock;
  events: SafeEmitter;
  runner: EffectRunner;
  sizer: UnitSizer;
  /** One unit of work; resolves with the work its effects started. */
  unit: RunUnitStarting;
}

/** An item waiting in the inbox, and how to tell its sender it has been applied. */
interface Waiting {
  item: InboxItem;
  applied: () => void;
}

/** See the module comment. */
export class Inbox {
  private items: Waiting[] = [];
  private flushing = false;

  constructor(private readonly d: InboxDeps) {}

  /** Queues an answer; resolves once it (and what its unit started) has been applied. */
  add(item: InboxItem): Promise<void> {
    return new Promise<void>((applied) => {
      this.items.push({ item, applied });
      if (this.flushing) return;
      this.flushing = true;
      this.d.runner.track(Promise.resolve().then(() => this.flush()));
    });
  }

  /**
   * Applies the waiting items in units of at most `sizer.batch`, yielding between slices,
   * until none is left. Each unit's items are told once that unit's effects have settled.
   */
  private async flush(): Promise<void> {
    const slice = this.d.sizer.slice();
    try {
      while (this.items.length > 0) {
        const batch = this.items.splice(0, this.d.sizer.batch);
        const items = batch.map((w) => w.item);
        const t0 = this.d.clock.now();
        const started: Promise<unknown>[] = [];
        try {
          started.push(...(await this.apply(items)));
        } catch {
          for (const item of items) {
            try {
              started.push(...(await this.apply([item])));
            } catch (error) {
              this.d.events.emit('runtime:error', { error, where: `input ${item.type}` });
            }
          }
        }
        this.d.sizer.adapt(this.d.clock.now() - t0, items.length);
        void Promise.allSettled(started).then(() => {
          for (const w of batch) w.applied();
        });
        if (this.items.length > 0) await slice.after();
      }
    } finally {
      // In the same turn as the check that found the inbox empty: an answer added after it
      // starts a flush of its own.
      this.flushing = false;
    }
  }

  private apply(list: InboxItem[]): Promise<Promise<unknown>[]> {
    const occurrences: string[] = [];
    const attempts: string[] = [];
    for (const item of list) {
      if (item.type === 'placed') attempts.push(item.attemptId);
      else if (item.type === 'texted') occurrences.push(item.occurrenceId);
      else attempts.push(item.event.idempotencyKey);
    }
    return this.d.unit({ occurrences, attempts }, [...occurrences, ...attempts], (u) => {
      for (const item of list) {
        if (item.type === 'placed') u.placed(item.attemptId, item.result);
        else if (item.type === 'texted') u.texted(item.occurrenceId, item.result);
        else if (!u.telephony(item.event))
          this.d.events.emit('telephony:unknown', { event: item.event });
      }
    });
  }
}
