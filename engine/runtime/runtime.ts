/**
 * The runtime (scheduler): owns the timer wheel, turns due instants, provider answers and
 * telephony events into units of work (load rows → memoised machine step → persist), and
 * only after each commit executes the effects through the ports.
 *
 * Guarantees:
 * - Intent before action: an attempt's row (status `requested`) is committed before
 *   `placeCall` is called, with the attempt id as idempotency key.
 * - Reconciliation at start: attempts whose intent is stored but whose acceptance is not
 *   are placed again with the same key (the provider dedupes: never two calls, never none);
 *   fallback texts decided but not known sent are sent again with the same key. Calls the
 *   provider accepted are followed by their events or, failing those, their watchdog.
 * - Never early: the wheel is advanced with `clock.now()` when a host timer fires (a timer
 *   is a hint), host timers never exceed `maxTimerStepMs`, and a paced call starts at most
 *   `pacing.maxLeadMs` before its instant.
 * - Bounded memory and loop blocking: the wheel holds the next `horizonMs` (at most
 *   `wheelCapacity` entries; the store holds the rest), and work runs in units of at most
 *   `batchSize` rows (one transaction each, shrunk when units get slow), yielding to the
 *   event loop after `sliceMs` of work (measured with the Clock port).
 * @module
 */
import type {
  CallScript,
  Clock,
  DueCursor,
  EpochMs,
  OccurrenceRecord,
  PlaceCallResult,
  RefusalReason,
  RetryPolicy,
  SendResult,
  Store,
  Telephony,
  TelephonyEvent,
  TimerHandle,
} from '../ports.js';
import type { Effect, PlaceCallEffect, SendTextEffect } from '../machines/effects.js';
import { TimerWheel } from '../wheel/timer-wheel.js';
import { EngineError } from './errors.js';
import { SafeEmitter, type RuntimeEventMap, type RuntimeListener } from './events.js';
import { attemptStep, occurrenceStep } from './facts.js';
import { resolveRuntimeOptions, type ResolvedRuntimeOptions } from './options.js';
import { Pacer } from './pacer.js';
import { DEFAULT_RETRY_POLICY, resolveRetryPolicy } from './retry-policy.js';
import type {
  AmendResult,
  CancelResult,
  NewCall,
  NewOccurrence,
  OccurrencePatch,
  PlaceCallOutcome,
  Runtime,
  RuntimeDeps,
  RuntimeStats,
} from './types.js';
import { fallbackEffect, isFinishedOccurrence, requestedAttempt, UnitOfWork, wakeUpScript, type StatusChange } from './unit-of-work.js';

/** A wheel entry: the row, its instant, and whether to fire exactly then (no pacing lead). */
type Ref = { kind: 'occurrence' | 'attempt'; id: string; at: EpochMs; exact: boolean };
type Input =
  | { type: 'placed'; attemptId: string; result: PlaceCallResult }
  | { type: 'telephony'; event: TelephonyEvent }
  | { type: 'texted'; occurrenceId: string; result: SendResult };

/** Sorts after every id: a cursor "at T, after everything". */
const MAX_ID = '\uffff';
/** Pause before retrying a row whose unit of work threw. */
const RETRY_PAUSE_MS = 30_000;

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

/**
 * Creates the runtime over the given ports. Nothing is dispatched until `start()`.
 *
 * @example
 * const runtime = createRuntime({ clock, ids, store: new MemoryStore(), telephony });
 * await runtime.start();
 * runtime.schedule({ accountId: 'a1', to: '+14155550123', scheduledAt: clock.now() + 60_000 });
 */
export function createRuntime(deps: RuntimeDeps): Runtime {
  return new RuntimeImpl(deps);
}

class RuntimeImpl implements Runtime {
  readonly options: ResolvedRuntimeOptions;
  private readonly clock: Clock;
  private readonly store: Store;
  private readonly telephony: Telephony;
  private readonly events = new SafeEmitter();
  private readonly wheel: TimerWheel<Ref>;
  /** The wheel entry of each row in the wheel, by wheelKey. */
  private readonly timers = new Map<string, number>();
  private readonly pacer: Pacer<Ref> | null;
  private readonly lead: number;
  /** Every due row up to here (in listDue order) is in the wheel or handled. */
  private cursor: DueCursor | null = null;
  private hostTimer: TimerHandle | null = null;
  private hostTimerAt = Infinity;
  private running = false;
  private stopped = false;
  private ticking = false;
  private inbox: Input[] = [];
  private flushing: Promise<void> | null = null;
  /** Effects and flushes in progress (what `idle()` and a tick's end wait for). */
  private readonly inFlight = new Set<Promise<unknown>>();
  /**
   * Running flushes collect the effects started while they run, so that a telephony event's
   * promise resolves after its own consequences (a hang-up, a text) and not before.
   */
  private readonly collectors = new Set<(p: Promise<unknown>) => void>();
  private slotWaiters: (() => void)[] = [];
  private readonly counters = { dispatched: 0, units: 0 };

  constructor(private readonly deps: RuntimeDeps) {
    this.options = resolveRuntimeOptions(deps.options);
    this.clock = deps.clock;
    this.store = deps.store;
    this.telephony = deps.telephony;
    this.wheel = new TimerWheel<Ref>(this.clock.now());
    const { callsPerSecond, maxLeadMs } = this.options.pacing;
    this.pacer = Number.isFinite(callsPerSecond) ? new Pacer<Ref>(callsPerSecond, maxLeadMs) : null;
    this.lead = this.pacer ? maxLeadMs : 0;
  }

  get stats(): RuntimeStats {
    return {
      ...this.counters,
      wheelSize: this.wheel.size,
      paced: this.pacer?.size ?? 0,
      inFlight: this.inFlight.size,
      memo: {
        occurrence: { hits: occurrenceStep.stats.hits, misses: occurrenceStep.stats.misses },
        attempt: { hits: attemptStep.stats.hits, misses: attemptStep.stats.misses },
      },
    };
  }

  on<K extends keyof RuntimeEventMap>(name: K, listener: RuntimeListener<K>): () => void {
    return this.events.on(name, listener);
  }

  // ---- lifecycle ---------------------------------------------------------------------------

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.stopped = false;
    this.telephony.onEvent((event) => (this.stopped ? undefined : this.input({ type: 'telephony', event })));
    this.reconcile();
    await this.refill(this.clock.now());
    this.arm();
  }

  async stop(options: { drain?: boolean } = {}): Promise<void> {
    this.stopped = true;
    this.running = false;
    this.hostTimer?.cancel();
    this.hostTimer = null;
    this.hostTimerAt = Infinity;
    this.telephony.onEvent(() => undefined);
    for (const t of this.retryTimers) t.cancel();
    this.retryTimers.clear();
    if (options.drain ?? true) await this.idle();
  }

  async idle(): Promise<void> {
    await this.settled();
  }

  // ---- commands ----------------------------------------------------------------------------

  schedule(input: NewOccurrence): OccurrenceRecord {
    if (typeof input.to !== 'string' || input.to.length === 0)
      throw new EngineError('invalid_occurrence', 'to must be an E.164 number', 'to');
    if (!Number.isFinite(input.scheduledAt)) throw new EngineError('invalid_occurrence', 'scheduledAt must be an instant', 'scheduledAt');
    const policy = input.policy ? this.checkPolicy(input.policy) : DEFAULT_RETRY_POLICY;
    const now = this.clock.now();
    const backupAlarm = input.backupAlarm ?? false;
    const record: OccurrenceRecord = {
      id: input.id ?? this.deps.ids.uuid(),
      scheduleId: input.scheduleId ?? null,
      accountId: input.accountId,
      phoneNumberId: input.phoneNumberId ?? null,
      to: input.to,
      label: input.label ?? null,
      message: input.message ?? null,
      greetingName: input.greetingName ?? null,
      voice: input.voice ?? null,
      timezone: input.timezone ?? null,
      derivationSource: input.derivationSource ?? 'one_off',
      scheduledAt: input.scheduledAt,
      policy: { ...policy, offsetsMinutes: [...policy.offsetsMinutes] },
      smsFallback: input.smsFallback ?? false,
      backupAlarm,
      status: 'pending',
      outcomeReason: null,
      attemptCount: 0,
      snoozeCount: 0,
      seriesBase: input.scheduledAt,
      retryIndex: 0,
      nextDueAt: input.scheduledAt,
      liveAttemptId: null,
      backupAlarmAt: backupAlarm ? input.scheduledAt + this.options.backupAlarmDelaySeconds * 1000 : null,
      reachedPerson: false,
      reachedVoicemail: false,
      missReason: null,
      fallbackState: 'none',
      dispatchedAt: null,
      confirmedAt: null,
      finishedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    this.unit(now, (u) => u.addOccurrence(record));
    return { ...record, policy: { ...record.policy, offsetsMinutes: [...record.policy.offsetsMinutes] } };
  }

  cancel(occurrenceId: string): CancelResult {
    let result: CancelResult = { ok: false, code: 'occurrence_not_found' };
    this.unit(this.clock.now(), (u) => {
      const o = u.occurrence(occurrenceId);
      if (!o) return;
      if (isFinishedOccurrence(o.status)) {
        result = { ok: false, code: 'occurrence_terminal' };
        return;
      }
      u.cancel(occurrenceId);
      result = { ok: true, occurrence: o };
    });
    return result;
  }

  amend(occurrenceId: string, patch: OccurrencePatch): AmendResult {
    if (patch.policy) patch = { ...patch, policy: this.checkPolicy(patch.policy) };
    if (patch.scheduledAt !== undefined && !Number.isFinite(patch.scheduledAt)) {
      throw new EngineError('invalid_occurrence', 'scheduledAt must be an instant', 'scheduledAt');
    }
    let result: AmendResult = { ok: false, code: 'occurrence_not_found' };
    this.unit(this.clock.now(), (u) => {
      const o = u.occurrence(occurrenceId);
      if (!o) return;
      if (o.status !== 'pending') {
        result = { ok: false, code: 'occurrence_not_pending' };
        return;
      }
      u.amend(occurrenceId, patch);
      result = { ok: true, occurrence: o };
    });
    return result;
  }

  placeCall(input: NewCall): PlaceCallOutcome {
    const now = this.clock.now();
    const id = input.id ?? this.deps.ids.uuid();
    const rec = requestedAttempt({
      id,
      occurrenceId: null,
      accountId: input.accountId ?? null,
      phoneNumberId: input.phoneNumberId ?? null,
      kind: input.kind,
      n: 1,
      to: input.to,
      dueAt: now,
      ringTimeoutSeconds: input.ringTimeoutSeconds ?? DEFAULT_RETRY_POLICY.ringTimeoutSeconds,
      now,
    });
    const script: CallScript = input.script ?? (input.kind === 'test' ? { kind: 'test', greetingName: null } : { kind: 'demo' });
    let refused: RefusalReason | null = null;
    this.unit(now, (u) => {
      // Admission inside the unit of work, so that a host counting calls sees a consistent count.
      const admission = this.deps.accounts?.admit({
        accountId: rec.accountId,
        phoneNumberId: rec.phoneNumberId,
        to: rec.to,
        kind: rec.kind,
        occurrenceId: null,
        at: now,
      });
      if (admission && !admission.ok) {
        refused = admission.reason;
        return;
      }
      u.startStandalone(rec, script);
    });
    if (refused) return { ok: false, reason: refused };
    this.pacer?.consume(now);
    return { ok: true, attempt: { ...rec } };
  }

  private checkPolicy(p: RetryPolicy): RetryPolicy {
    return resolveRetryPolicy({
      max_snoozes: p.maxSnoozes,
      offsets_minutes: p.offsetsMinutes,
      ring_timeout_seconds: p.ringTimeoutSeconds,
      snooze_minutes: p.snoozeMinutes,
    });
  }

  // ---- units of work -----------------------------------------------------------------------

  /** Runs `fn` in one unit of work, commits, then updates the wheel, notifies and runs effects. */
  private unit(now: EpochMs, fn: (u: UnitOfWork) => void): void {
    const [u, committed] = this.store.transact((tx) => {
      const uow = new UnitOfWork(tx, now, { options: this.options, ids: this.deps.ids, accounts: this.deps.accounts });
      fn(uow);
      return [uow, uow.commit()] as const;
    });
    this.counters.units++;
    for (const k of committed.keys) this.setKey(k.kind, k.id, k.at);
    this.notify(committed.changes);
    this.execute(u.effects);
    if (!this.ticking) this.arm();
  }

  private notify(changes: StatusChange[]): void {
    const occ = this.events.has('occurrence:status');
    const att = this.events.has('attempt:status');
    for (const c of changes) {
      if (c.kind === 'attempt' && c.from === null) this.counters.dispatched++;
      if (c.kind === 'occurrence' && occ) this.events.emit('occurrence:status', { occurrence: { ...c.record }, from: c.from });
      if (c.kind === 'attempt' && att) this.events.emit('attempt:status', { attempt: { ...c.record }, from: c.from });
    }
  }

  // ---- the wheel ---------------------------------------------------------------------------

  private covers(at: EpochMs, kind: string, id: string): boolean {
    return this.cursor !== null && compareKey(at, kind, id, this.cursor) <= 0;
  }

  /**
   * Puts a row's due instant in the wheel when it lies inside the loaded horizon, replacing
   * its previous entry. Beyond the horizon, the store keeps it until a refill.
   */
  private setKey(kind: Ref['kind'], id: string, at: EpochMs | null, exact = false): void {
    const key = wheelKey(kind, id);
    const old = this.timers.get(key);
    if (old) {
      this.wheel.cancel(old);
      this.timers.delete(key);
    }
    if (at === null || !this.covers(at, kind, id)) return;
    this.timers.set(key, this.wheel.add(this.fireAt(kind, at, exact), { kind, id, at, exact }));
  }

  /** A paced dispatch fires `lead` ms early (into the pacer); watchdogs fire on time. */
  private fireAt(kind: Ref['kind'], at: EpochMs, exact: boolean): EpochMs {
    return exact || kind === 'attempt' ? at : at - this.lead;
  }

  /** Loads due rows up to now + horizon into the wheel, a page at a time, within capacity. */
  private async refill(now: EpochMs): Promise<void> {
    const until = now + this.options.horizonMs;
    for (;;) {
      if (this.cursor && this.cursor.at >= until && this.cursor.id === MAX_ID) return;
      const limit = Math.min(this.options.refillPage, this.options.wheelCapacity - this.wheel.size);
      if (limit <= 0) return;
      const after = this.cursor ?? undefined;
      const page = this.store.transact((tx) => tx.listDue(until, limit, after));
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

  private needsRefill(now: EpochMs): boolean {
    if (this.wheel.size >= this.options.wheelCapacity * 0.75) return false;
    const c = this.cursor;
    if (c === null || this.refillAt(c) <= now) return true;
    // The last refill stopped at capacity: continue once half the wheel has drained.
    return c.id !== MAX_ID && this.wheel.size < this.options.wheelCapacity / 2;
  }

  /** Arms the host timer for the next thing to do, never further than `maxTimerStepMs`. */
  private arm(): void {
    if (!this.running || this.stopped) return;
    const now = this.clock.now();
    let next = now + this.options.maxTimerStepMs;
    const wheelNext = this.wheel.nextEventAt();
    if (wheelNext !== null && wheelNext < next) next = wheelNext;
    const paced = this.pacer?.nextReleaseAt() ?? null;
    if (paced !== null && paced < next) next = paced;
    if (this.cursor && this.wheel.size < this.options.wheelCapacity * 0.75) {
      const refillAt = this.refillAt(this.cursor);
      if (refillAt < next) next = refillAt;
    }
    if (next < now) next = now;
    if (this.hostTimer && this.hostTimerAt <= next) return;
    this.hostTimer?.cancel();
    this.hostTimerAt = next;
    this.hostTimer = this.clock.setTimer(next, () => this.tick(next));
  }

  /** A host timer fired: re-check the clock, run everything due, re-arm. */
  private async tick(expectedAt: EpochMs): Promise<void> {
    this.hostTimer = null;
    this.hostTimerAt = Infinity;
    if (this.stopped || this.ticking) return;
    this.ticking = true;
    try {
      const now = this.clock.now();
      if (now - expectedAt > 1000) this.events.emit('timer:late', { expectedAt, now });
      await this.drain();
    } catch (error) {
      this.events.emit('runtime:error', { error, where: 'tick' });
    } finally {
      this.ticking = false;
      this.arm();
    }
    // Everything this tick started (calls, their answers, texts) has happened before the
    // tick's promise resolves: a virtual clock awaits it, so advance() is deterministic.
    // (A system clock ignores the promise; the next timer is already armed.)
    await this.settled();
  }

  /** Resolves when no effect or input is in flight (timers armed by `later` excluded). */
  private async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Rows per unit now: adapted to how long units take (see {@link RuntimeImpl.adapt}). */
  private batch = 0;

  /**
   * After a unit of `rows` rows took `took` ms: halve the unit when it took more than half a
   * slice, double it (up to batchSize) when a full unit took less than a quarter.
   */
  private adapt(took: number, rows: number): void {
    const max = this.options.batchSize;
    if (took > this.options.sliceMs / 2) this.batch = Math.max(16, Math.floor(this.batch / 2));
    else if (rows >= this.batch && took < this.options.sliceMs / 4) this.batch = Math.min(max, this.batch * 2);
  }

  /** A slice of work: yields to the event loop once `sliceMs` (or `batchesPerSlice` units) are used. */
  private slice(): { after(took: number): Promise<void> | undefined } {
    let started = this.clock.now();
    let units = 0;
    return {
      after: () => {
        units++;
        if (this.clock.now() - started < this.options.sliceMs && units < this.options.batchesPerSlice) return undefined;
        return this.options.yieldToLoop().then(() => {
          started = this.clock.now();
          units = 0;
        });
      },
    };
  }

  /** Runs due wheel entries and paced releases in units, yielding between slices. */
  private async drain(): Promise<void> {
    const slice = this.slice();
    if (this.batch === 0) this.batch = Math.min(32, this.options.batchSize);
    for (;;) {
      if (this.stopped) return;
      const now = this.clock.now();
      if (this.needsRefill(now)) await this.refill(now);
      this.wheel.advance(now);
      let batch: Ref[] = [];
      for (const t of this.wheel.takeReady(this.batch)) {
        const key = wheelKey(t.value.kind, t.value.id);
        if (this.timers.get(key) === t.handle) this.timers.delete(key);
        batch.push(t.value);
      }
      let leadMs = 0;
      if (this.pacer) {
        const direct: Ref[] = [];
        for (const ref of batch) {
          if (ref.exact || ref.kind === 'attempt' || ref.at <= now) direct.push(ref);
          else this.pacer.enqueue(ref, ref.at);
        }
        batch = direct;
        const released = this.pacer.release(now, this.batch);
        if (released.length > 0) {
          leadMs = this.lead;
          batch.push(...released);
        }
      }
      if (batch.length === 0) {
        // Nothing due now; if a capacity-limited refill left rows in the store, load more.
        if (this.cursor !== null && this.cursor.id !== MAX_ID && this.cursor.at <= now && this.needsRefill(now)) continue;
        return;
      }
      if (this.inFlight.size >= this.options.maxInFlight) await this.slotFree();
      const t0 = this.clock.now();
      this.runBatch(now, batch, leadMs);
      const took = this.clock.now() - t0;
      this.adapt(took, batch.length);
      await slice.after(took);
    }
  }

  private runBatch(now: EpochMs, batch: Ref[], leadMs: number): void {
    const stale: { ref: Ref; at: EpochMs }[] = [];
    const run = (refs: Ref[]) =>
      this.unit(now, (u) => {
        for (const ref of refs) {
          const r = u.due(ref.kind, ref.id, leadMs);
          if (!r.handled && r.at !== null) stale.push({ ref, at: r.at });
        }
      });
    try {
      run(batch);
    } catch {
      // One bad row must not block the others: redo them one by one.
      stale.length = 0;
      for (const ref of batch) {
        try {
          run([ref]);
        } catch (error) {
          this.events.emit('runtime:error', { error, where: `due ${ref.kind} ${ref.id}` });
          this.timers.set(wheelKey(ref.kind, ref.id), this.wheel.add(now + RETRY_PAUSE_MS, { ...ref, exact: true }));
        }
      }
    }
    for (const s of stale) {
      // The row moved since it was loaded (or is a watchdog released early): keep it at its real instant.
      if (!this.timers.has(wheelKey(s.ref.kind, s.ref.id))) {
        this.setKey(s.ref.kind, s.ref.id, s.at, s.at - now <= this.lead);
      }
    }
  }

  // ---- inputs from the ports ---------------------------------------------------------------

  /** Queues an answer or event; one unit of work takes everything that arrived in one turn. */
  private input(item: Input): Promise<void> {
    this.inbox.push(item);
    if (!this.flushing) {
      const p = Promise.resolve().then(() => this.flush());
      this.flushing = p;
      this.track(p);
      void p.finally(() => {
        if (this.flushing === p) this.flushing = null;
      });
    }
    return this.flushing;
  }

  private async flush(): Promise<void> {
    const mine: Promise<unknown>[] = [];
    const collect = (p: Promise<unknown>) => mine.push(p);
    this.collectors.add(collect);
    try {
      this.flushing = null; // inputs arriving from now on start their own flush
      const slice = this.slice();
      if (this.batch === 0) this.batch = Math.min(32, this.options.batchSize);
      while (this.inbox.length > 0) {
        const items = this.inbox.splice(0, this.batch);
        const t0 = this.clock.now();
        const apply = (list: Input[]) =>
          this.unit(this.clock.now(), (u) => {
            for (const item of list) {
              if (item.type === 'placed') u.placed(item.attemptId, item.result);
              else if (item.type === 'texted') u.texted(item.occurrenceId, item.result);
              else if (!u.telephony(item.event)) this.events.emit('telephony:unknown', { event: item.event });
            }
          });
        try {
          apply(items);
        } catch {
          for (const item of items) {
            try {
              apply([item]);
            } catch (error) {
              this.events.emit('runtime:error', { error, where: `input ${item.type}` });
            }
          }
        }
        const took = this.clock.now() - t0;
        this.adapt(took, items.length);
        if (this.inbox.length > 0) await slice.after(took);
      }
    } finally {
      this.collectors.delete(collect);
    }
    while (mine.length > 0) await Promise.allSettled(mine.splice(0));
  }

  // ---- effects -----------------------------------------------------------------------------

  private track(p: Promise<unknown>): void {
    this.inFlight.add(p);
    for (const c of this.collectors) c(p);
    void p.finally(() => {
      this.inFlight.delete(p);
      if (this.slotWaiters.length > 0 && this.inFlight.size < this.options.maxInFlight) {
        for (const w of this.slotWaiters.splice(0)) w();
      }
    });
  }

  private slotFree(): Promise<void> {
    return new Promise((resolve) => this.slotWaiters.push(resolve));
  }

  private execute(effects: Effect[]): void {
    for (const e of effects) {
      switch (e.type) {
        case 'PlaceCall':
          this.track(this.place(e, 0));
          break;
        case 'HangUp':
          // Without a call id the provider has not acknowledged yet: `placed` hangs up then.
          if (e.callId !== null) {
            this.track(
              this.telephony.hangUp(e.callId, e.say === undefined ? undefined : { say: e.say }).catch((error: unknown) => {
                this.events.emit('effect:failed', { effect: e, error, willRetry: false });
              }),
            );
          }
          break;
        case 'SendText':
          this.track(this.text(e, 0));
          break;
        case 'StopCalls':
          break; // applied inside the unit of work through the Accounts port
      }
    }
  }

  private async place(e: PlaceCallEffect, tries: number): Promise<void> {
    if (this.stopped) return;
    let result: PlaceCallResult;
    try {
      result = await this.telephony.placeCall(e.request);
    } catch (error) {
      // Outcome unknown: ask again with the same key (the provider dedupes), with backoff.
      const willRetry = tries < 5 && !this.stopped;
      this.events.emit('effect:failed', { effect: e, error, willRetry });
      if (willRetry) this.later(Math.min(1000 * 2 ** tries, 15_000), () => this.place(e, tries + 1));
      return;
    }
    if (this.stopped) return;
    await this.input({ type: 'placed', attemptId: e.attemptId, result });
  }

  private async text(e: SendTextEffect, tries: number): Promise<void> {
    const messaging = this.deps.messaging;
    if (!messaging || this.stopped) return;
    let result: SendResult;
    try {
      result = await messaging.sendText({ to: e.to, body: e.body, idempotencyKey: e.idempotencyKey });
    } catch (error) {
      const willRetry = tries < 3 && !this.stopped;
      this.events.emit('effect:failed', { effect: e, error, willRetry });
      if (willRetry) this.later(60_000 * (tries + 1), () => this.text(e, tries + 1));
      return;
    }
    if (this.stopped) return;
    await this.input({ type: 'texted', occurrenceId: e.occurrenceId, result });
  }

  /**
   * Runs `fn` after `ms` on the clock (in memory only: a crash is covered by
   * reconciliation). Not counted as in flight: it waits for the clock, and a tick that
   * awaited it would stall a virtual clock.
   */
  private later(ms: number, fn: () => Promise<void>): void {
    const handle = this.clock.setTimer(this.clock.now() + ms, async () => {
      this.retryTimers.delete(handle);
      if (!this.stopped) this.track(fn());
    });
    this.retryTimers.add(handle);
  }

  private readonly retryTimers = new Set<TimerHandle>();

  // ---- reconciliation ----------------------------------------------------------------------

  /**
   * Work a crash may have left: calls whose intent is stored but whose acceptance is not
   * (placed again with the same idempotency key), and fallback texts decided but not known
   * sent (sent again with the same key).
   */
  private reconcile(): void {
    const effects: Effect[] = [];
    let after: string | undefined;
    for (;;) {
      const page = this.store.transact((tx) =>
        tx.listUnacknowledgedAttempts(500, after).map((a) => ({
          a,
          o: a.occurrenceId === null ? undefined : tx.getOccurrence(a.occurrenceId),
        })),
      );
      for (const { a, o } of page) {
        const script = a.script ?? (o ? wakeUpScript(o) : null);
        if (!script || (o && isFinishedOccurrence(o.status))) continue;
        effects.push({
          type: 'PlaceCall',
          attemptId: a.id,
          request: { idempotencyKey: a.idempotencyKey, to: a.to, script, ringTimeoutSeconds: a.ringTimeoutSeconds },
        });
      }
      if (page.length < 500) break;
      after = page[page.length - 1]!.a.id;
    }
    let afterOcc: string | undefined;
    for (;;) {
      const page = this.store.transact((tx) => tx.listPendingFallbacks(500, afterOcc));
      for (const o of page) effects.push(fallbackEffect(o, this.options));
      if (page.length < 500) break;
      afterOcc = page[page.length - 1]!.id;
    }
    this.execute(effects);
  }
}
