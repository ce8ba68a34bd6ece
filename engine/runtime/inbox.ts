/**
 * The inbox of provider answers: `placeCall` results, telephony events (from any host: a
 * webhook names the attempt by its id, the idempotency key) and fallback-text results. What
 * arrives in one turn of the event loop is applied by one unit of work (one load, one
 * commit); an item's promise resolves after its own consequences (a hang-up, a text).
 * @module
 */
import type { Clock, LoadKeys, PlaceCallResult, SendResult, TelephonyEvent } from '../ports.js';
import type { EffectRunner } from './effect-runner.js';
import type { SafeEmitter } from './events.js';
import type { UnitOfWork } from './unit-of-work.js';
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
  unit(keys: LoadKeys, lock: readonly string[], fn: (u: UnitOfWork) => void): Promise<void>;
}

/** See the module comment. */
export class Inbox {
  private items: InboxItem[] = [];
  private flushing: Promise<void> | null = null;

  constructor(private readonly d: InboxDeps) {}

  /** Queues an answer; resolves once it (and what it started) has been applied. */
  add(item: InboxItem): Promise<void> {
    this.items.push(item);
    if (!this.flushing) {
      const p = Promise.resolve().then(() => this.d.runner.collecting(() => this.flush()));
      this.flushing = p;
      this.d.runner.track(p);
      void p.finally(() => {
        if (this.flushing === p) this.flushing = null;
      });
    }
    return this.flushing;
  }

  private async flush(): Promise<void> {
    this.flushing = null; // answers arriving from now on start their own flush
    const slice = this.d.sizer.slice();
    while (this.items.length > 0) {
      const items = this.items.splice(0, this.d.sizer.batch);
      const t0 = this.d.clock.now();
      try {
        await this.apply(items);
      } catch {
        for (const item of items) {
          try {
            await this.apply([item]);
          } catch (error) {
            this.d.events.emit('runtime:error', { error, where: `input ${item.type}` });
          }
        }
      }
      this.d.sizer.adapt(this.d.clock.now() - t0, items.length);
      if (this.items.length > 0) await slice.after();
    }
  }

  private apply(list: InboxItem[]): Promise<void> {
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
