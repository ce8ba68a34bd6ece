/**
 * The effect runner: executes a committed unit's effects through the ports (place a call,
 * hang up, send the fallback text), retries a port whose outcome is unknown with the backoff
 * in the options, and tracks everything in flight so that `idle()` and a tick's end can wait
 * for it (the provider-answer inbox waits for what its own units started).
 *
 * Requests to `placeCall` are bounded: at most `maxInFlight` await the provider at once; the
 * others wait in one first-in, first-out queue, whoever handed them over (a dispatch unit,
 * start-up reconciliation, a standalone call, a retry). The dispatch loop commits new intents
 * only while that queue is empty ({@link EffectRunner.slotFree}), so a spike or a restart's
 * backlog never opens thousands of provider requests at once (which starves webhooks and
 * health checks of the event loop) and no intent waits long behind others.
 * @module
 */
import type {
  Clock,
  Messaging,
  PlaceCallResult,
  SendResult,
  Telephony,
  TimerHandle,
} from '../ports.js';
import type { Effect, PlaceCallEffect, SendTextEffect } from '../machines/effects.js';
import type { SafeEmitter } from './events.js';
import type { ResolvedRuntimeOptions } from './options.js';
import { PlacementDeferred } from './errors.js';

/** What the runner needs. */
export interface EffectRunnerDeps {
  clock: Clock;
  telephony: Telephony;
  messaging: Messaging | undefined;
  events: SafeEmitter;
  options: ResolvedRuntimeOptions;
  /** The provider answered `placeCall` (recorded by the inbox). */
  placed(attemptId: string, result: PlaceCallResult): Promise<void>;
  /** The fallback text was sent or refused (recorded by the inbox). */
  texted(occurrenceId: string, result: SendResult): Promise<void>;
}

/** See the module comment. */
export class EffectRunner {
  /** Effects and inbox flushes in progress. */
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Callers of {@link EffectRunner.slotFree} waiting for the line to empty. */
  private slotWaiters: (() => void)[] = [];
  /** placeCall requests awaiting the provider now. */
  private placing = 0;
  /** placeCall requests waiting for a slot, oldest first (`queue[head]` is next). */
  private queue: ((granted: boolean) => void)[] = [];
  private head = 0;
  private readonly retryTimers = new Set<TimerHandle>();
  private stopped = false;

  constructor(private readonly d: EffectRunnerDeps) {}

  /** Work in flight now. */
  get size(): number {
    return this.inFlight.size;
  }

  /** placeCall requests waiting for a slot. */
  get queued(): number {
    return this.queue.length - this.head;
  }

  /** Counts `p` as in flight until it settles. */
  track(p: Promise<unknown>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  /**
   * Resolves once no placeCall waits for a slot (the dispatch loop waits here before each
   * unit, so that it commits intents no faster than the provider takes them).
   */
  slotFree(): Promise<void> {
    if (this.queued === 0) return Promise.resolve();
    return new Promise((resolve) => this.slotWaiters.push(resolve));
  }

  /**
   * Takes a placeCall slot (undefined), or a place in line when `maxInFlight` are taken: its
   * promise resolves true with the slot, or false when the runner stopped meanwhile.
   */
  private acquire(): Promise<boolean> | undefined {
    if (this.placing < this.d.options.maxInFlight) {
      this.placing++;
      return undefined;
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  /** Hands the slot to the next in line, or frees it. */
  private release(): void {
    if (this.head < this.queue.length) {
      const next = this.queue[this.head]!;
      this.queue[this.head++] = undefined as never;
      if (this.head === this.queue.length || this.head > 1024) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
      next(true);
    } else {
      this.placing--;
    }
    if (this.queued === 0 && this.slotWaiters.length > 0)
      for (const w of this.slotWaiters.splice(0)) w();
  }

  /** Resolves when nothing is in flight (timers armed for retries excluded). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Starts (after a restart: resumes) running effects. */
  start(): void {
    this.stopped = false;
  }

  /** Stops retrying and drops the calls waiting in line; effects already started finish on their own. */
  stop(): void {
    this.stopped = true;
    const waiting = this.queue.slice(this.head);
    this.queue = [];
    this.head = 0;
    for (const w of waiting) w(false);
    for (const w of this.slotWaiters.splice(0)) w();
    for (const t of this.retryTimers) t.cancel();
    this.retryTimers.clear();
  }

  /** Executes committed effects, in order; the work they start is tracked, and listed in `started` when given. */
  execute(effects: readonly Effect[], started?: Promise<unknown>[]): void {
    const track = (p: Promise<unknown>) => {
      this.track(p);
      started?.push(p);
    };
    for (const e of effects) {
      switch (e.type) {
        case 'PlaceCall':
          track(this.place(e, 0));
          break;
        case 'HangUp':
          // Without a call id the provider has not acknowledged yet: `placed` hangs up then.
          if (e.callId !== null) {
            track(
              this.d.telephony
                .hangUp(e.callId, {
                  idempotencyKey: e.attemptId,
                  ...(e.say === undefined ? {} : { say: e.say }),
                })
                .catch((error: unknown) => {
                  this.d.events.emit('effect:failed', { effect: e, error, willRetry: false });
                }),
            );
          }
          break;
        case 'SendText':
          track(this.text(e, 0));
          break;
        case 'StopCalls':
          break; // applied inside the unit of work through the Accounts port
      }
    }
  }

  private async place(e: PlaceCallEffect, tries: number): Promise<void> {
    if (this.stopped) return;
    const wait = this.acquire();
    if (wait && !(await wait)) return; // stopped while in line
    let result: PlaceCallResult;
    try {
      if (this.stopped) return;
      result = await this.d.telephony.placeCall(e.request);
    } catch (error) {
      if (PlacementDeferred.is(error)) {
        // Not now (the number is locked elsewhere): the slot goes back to the line, the same
        // request is asked again then, and it is not a failed try.
        this.later(Math.max(0, error.retryAt - this.d.clock.now()), () => this.place(e, tries));
        return;
      }
      // Outcome unknown: ask again with the same key (the provider dedupes), with backoff.
      const r = this.d.options.effectRetry.placeCall;
      const willRetry = tries + 1 < r.tries && !this.stopped;
      this.d.events.emit('effect:failed', { effect: e, error, willRetry });
      // The retry carries `outcomeUnknown`: the rejected request may have reached the provider.
      const again: PlaceCallEffect = e.request.outcomeUnknown
        ? e
        : { ...e, request: { ...e.request, outcomeUnknown: true } };
      if (willRetry)
        this.later(Math.min(r.baseMs * 2 ** tries, r.maxMs), () => this.place(again, tries + 1));
      return;
    } finally {
      this.release();
    }
    if (this.stopped) return;
    await this.d.placed(e.attemptId, result);
  }

  private async text(e: SendTextEffect, tries: number): Promise<void> {
    const messaging = this.d.messaging;
    if (!messaging || this.stopped) return;
    let result: SendResult;
    try {
      result = await messaging.sendText({
        to: e.to,
        body: e.body,
        idempotencyKey: e.idempotencyKey,
      });
    } catch (error) {
      const r = this.d.options.effectRetry.sendText;
      const willRetry = tries + 1 < r.tries && !this.stopped;
      this.d.events.emit('effect:failed', { effect: e, error, willRetry });
      if (willRetry)
        this.later(Math.min(r.baseMs * (tries + 1), r.maxMs), () => this.text(e, tries + 1));
      return;
    }
    if (this.stopped) return;
    await this.d.texted(e.occurrenceId, result);
  }

  /**
   * Runs `fn` after `ms` on the clock (in memory only: a crash is covered by
   * reconciliation). Not counted as in flight: it waits for the clock, and a tick that
   * awaited it would stall a virtual clock.
   */
  private later(ms: number, fn: () => Promise<void>): void {
    const handle = this.d.clock.setTimer(this.d.clock.now() + ms, async () => {
      this.retryTimers.delete(handle);
      if (!this.stopped) this.track(fn());
    });
    this.retryTimers.add(handle);
  }
}
