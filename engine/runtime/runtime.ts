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
 *   `batchSize` rows (one load and one commit each, shrunk when units get slow), yielding to
 *   the event loop after `sliceMs` of work (measured with the Clock port).
 * - Optimistic concurrency: units on the same rows are queued in-process (KeyedQueue); a
 *   commit the store refuses because a row changed elsewhere is computed again from a fresh
 *   load, so several processes may share one store.
 * @module
 */
import type {
  CallToAdmit,
  Clock,
  EpochMs,
  Ids,
  LoadKeys,
  RefusalReason,
  RowRef,
  Snapshot,
  Store,
} from '../ports.js';
import type { CallScript, OccurrenceRecord, RetryPolicy, SeriesRecord } from '../model.js';
import { cloneOccurrence, cloneSeries } from '../clone.js';
import { compileRecurrence } from '../time/recurrence-check.js';
import { DispatchLoop } from './dispatch-loop.js';
import { EffectRunner } from './effect-runner.js';
import { EngineError } from './errors.js';
import { SafeEmitter, type RuntimeEventMap, type RuntimeListener } from './events.js';
import { attemptStep, occurrenceStep } from './facts.js';
import { DueHorizon, type Ref } from './horizon.js';
import { Inbox } from './inbox.js';
import { KeyedQueue } from './keyed-queue.js';
import { resolveRuntimeOptions, type ResolvedRuntimeOptions } from './options.js';
import { Pacer } from './pacer.js';
import { reconcile } from './reconcile.js';
import { DEFAULT_RETRY_POLICY, isResolvedRetryPolicy, resolveRetryPolicy } from './retry-policy.js';
import type {
  NewCall,
  NewOccurrence,
  OccurrencePatch,
  PlaceCallOutcome,
  Runtime,
  RuntimeDeps,
  RuntimeStats,
  SaveSeriesResult,
  SavedSeries,
  SeriesInput,
  SeriesNext,
  StartOptions,
} from './types.js';
import { isFinishedOccurrence } from '../machines/status.js';
import type { StatusChange } from './identity-map.js';
import { nextAttemptKind, pendingOccurrence, requestedAttempt } from './record-factories.js';
import { UnitOfWork } from './unit-of-work.js';
import { UnitSizer } from './unit-sizer.js';
import { zoneRulesVersion } from '../time/zone-rules.js';

/** Times a unit of work is computed again after the store refused its commit (a row changed meanwhile). */
const CONFLICT_RETRIES = 5;

/** A copy of a series step's result (so the caller never holds a record of a unit of work), or its refusal thrown. */
function savedOrThrow(r: SaveSeriesResult): SavedSeries {
  if (!r.ok) throw new EngineError(r.code, REFUSALS[r.code]);
  return {
    series: cloneSeries(r.series),
    occurrence: r.occurrence && cloneOccurrence(r.occurrence),
  };
}

/** The occurrence a command found, or its refusal thrown. */
function occurrenceOrThrow(r: OccurrenceRecord | keyof typeof REFUSALS): OccurrenceRecord {
  if (typeof r === 'string') throw new EngineError(r, REFUSALS[r]);
  return r;
}

/** The message of each refusal a command throws, by code. */
const REFUSALS = {
  occurrence_not_found: 'no occurrence has this id',
  occurrence_terminal: 'the occurrence is finished',
  occurrence_not_pending: 'the occurrence is no longer pending: it is being placed or rang',
  occurrence_in_progress: 'the current occurrence is being placed or rings',
  series_not_found: 'no series has this id',
  not_recurring: 'the series is not weekly: it has no next call to skip',
} as const;

/**
 * Creates the runtime over the given ports. Nothing is dispatched until `start()`.
 *
 * @example
 * const runtime = createRuntime({ clock, ids, store: new MemoryStore(), telephony });
 * await runtime.start();
 * await runtime.schedule({ accountId: 'a1', to: '+14155550123', scheduledAt: clock.now() + 60_000 });
 */
export function createRuntime<Tx = unknown>(deps: RuntimeDeps<Tx>): Runtime {
  return new RuntimeImpl(deps as RuntimeDeps);
}

/**
 * The runtime: lifecycle, commands and the unit of work; the jobs are in their own modules
 * (horizon.ts: scheduling and the wheel; dispatch-loop.ts; inbox.ts: provider answers;
 * effect-runner.ts; reconcile.ts).
 */
class RuntimeImpl implements Runtime {
  readonly options: ResolvedRuntimeOptions;
  private readonly clock: Clock;
  private readonly ids: Ids;
  private readonly store: Store;
  private readonly events = new SafeEmitter();
  private readonly pacer: Pacer<Ref> | null;
  private readonly horizon: DueHorizon;
  private readonly runner: EffectRunner;
  private readonly inbox: Inbox;
  private readonly loop: DispatchLoop;
  private readonly sizer: UnitSizer;
  /** Units of work on the same rows run one after the other. */
  private readonly queue = new KeyedQueue();
  private running = false;
  private stopped = false;
  /** Bumped by stop(): a recovery of an earlier start() stops at its next step. */
  private runId = 0;
  private readonly counters = { dispatched: 0, units: 0, conflicts: 0 };

  constructor(private readonly deps: RuntimeDeps) {
    // Time and ids come only through these ports: the engine reads no clock or randomness.
    for (const port of ['clock', 'ids', 'store', 'telephony'] as const)
      if (!deps[port])
        throw new EngineError('invalid_option', `createRuntime: ${port} is required`, port);
    this.ids = deps.ids;
    this.options = resolveRuntimeOptions(deps.options, () => `runtime-${this.ids.uuid()}`);
    this.clock = deps.clock;
    this.store = deps.store;
    const { callsPerSecond, maxLeadMs } = this.options.pacing;
    this.pacer = Number.isFinite(callsPerSecond) ? new Pacer<Ref>(callsPerSecond, maxLeadMs) : null;
    this.horizon = new DueHorizon(
      this.store,
      this.options,
      this.clock.now(),
      this.pacer ? maxLeadMs : 0,
    );
    this.sizer = new UnitSizer(this.clock, this.options);
    const unit = this.unit.bind(this);
    this.runner = new EffectRunner({
      clock: this.clock,
      telephony: deps.telephony,
      messaging: deps.messaging,
      events: this.events,
      options: this.options,
      placed: (attemptId, result) => this.inbox.add({ type: 'placed', attemptId, result }),
      texted: (occurrenceId, result) => this.inbox.add({ type: 'texted', occurrenceId, result }),
    });
    this.inbox = new Inbox({
      clock: this.clock,
      events: this.events,
      runner: this.runner,
      sizer: this.sizer,
      unit: this.unitStarting.bind(this),
    });
    this.loop = new DispatchLoop({
      clock: this.clock,
      options: this.options,
      events: this.events,
      horizon: this.horizon,
      pacer: this.pacer,
      sizer: this.sizer,
      runner: this.runner,
      unit,
    });
  }

  get stats(): RuntimeStats {
    return {
      ...this.counters,
      wheelSize: this.horizon.size,
      paced: this.pacer?.size ?? 0,
      inFlight: this.runner.size,
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

  async start(options: StartOptions = {}): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.stopped = false;
    this.runner.start();
    this.deps.telephony.onEvent((event) =>
      this.stopped ? undefined : this.inbox.add({ type: 'telephony', event }),
    );
    if (!options.background) {
      await this.recover(false);
      return;
    }
    // Tracked, so that idle() (and a virtual clock's settle) waits for the recovery too.
    this.runner.track(this.recoverInBackground());
  }

  /**
   * Start-up recovery: reconciliation (its calls join the runner's line), zone rules, the
   * horizon's first fill and the dispatch loop, then series repair. In the background every
   * page of it yields to the event loop first (the fill yields between pages anyway).
   */
  private async recover(background: boolean): Promise<void> {
    const run = this.runId;
    if (background) await this.options.yieldToLoop();
    if (run !== this.runId) return;
    await reconcile({
      store: this.store,
      options: this.options,
      runner: this.runner,
      rulesChanged: () => this.rulesChanged(),
      unit: this.unit.bind(this),
      yieldToLoop: background ? this.options.yieldToLoop : null,
      startDispatch: async () => {
        await this.horizon.refill(this.clock.now());
        if (run === this.runId) this.loop.start();
      },
      stopped: () => run !== this.runId,
    });
  }

  private async recoverInBackground(): Promise<void> {
    const run = this.runId;
    for (let tries = 1; run === this.runId; tries++) {
      try {
        await this.recover(true);
        return;
      } catch (error) {
        // A failing store: say so and try again (reconciliation is idempotent: same keys).
        this.events.emit('runtime:error', { error, where: 'recovery' });
        const ms = Math.min(1000 * 2 ** (tries - 1), this.options.maxTimerStepMs);
        await new Promise<void>((resolve) => this.clock.setTimer(this.clock.now() + ms, resolve));
      }
    }
  }

  async stop(options: { drain?: boolean } = {}): Promise<void> {
    this.runId++;
    this.stopped = true;
    this.running = false;
    this.loop.stop();
    this.deps.telephony.onEvent(() => undefined);
    this.runner.stop();
    if (options.drain ?? true) await this.idle();
  }

  async idle(): Promise<void> {
    await this.runner.settled();
  }

  // ---- commands ----------------------------------------------------------------------------

  async schedule(input: NewOccurrence): Promise<OccurrenceRecord> {
    if (typeof input.to !== 'string' || input.to.length === 0)
      throw new EngineError('invalid_occurrence', 'to must be an E.164 number', 'to');
    if (!Number.isFinite(input.scheduledAt))
      throw new EngineError('invalid_occurrence', 'scheduledAt must be an instant', 'scheduledAt');
    const policy = input.policy ? this.checkPolicy(input.policy) : DEFAULT_RETRY_POLICY;
    const record = pendingOccurrence(
      {
        id: input.id ?? this.ids.uuid(),
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
        policy,
        smsFallback: input.smsFallback ?? false,
        backupAlarm: input.backupAlarm ?? false,
      },
      this.clock.now(),
      this.options,
    );
    await this.unit({}, [record.id], (u) => u.addOccurrence(cloneOccurrence(record)));
    return record;
  }

  async cancel(occurrenceId: string): Promise<OccurrenceRecord> {
    let result: OccurrenceRecord | keyof typeof REFUSALS = 'occurrence_not_found';
    await this.unit({ occurrences: [occurrenceId] }, [occurrenceId], (u) => {
      const o = u.occurrence(occurrenceId);
      if (!o) return void (result = 'occurrence_not_found');
      if (isFinishedOccurrence(o.status)) return void (result = 'occurrence_terminal');
      u.cancel(occurrenceId);
      result = o;
    });
    return occurrenceOrThrow(result);
  }

  async amend(occurrenceId: string, patch: OccurrencePatch): Promise<OccurrenceRecord> {
    if (patch.policy) patch = { ...patch, policy: this.checkPolicy(patch.policy) };
    if (patch.scheduledAt !== undefined && !Number.isFinite(patch.scheduledAt)) {
      throw new EngineError('invalid_occurrence', 'scheduledAt must be an instant', 'scheduledAt');
    }
    let result: OccurrenceRecord | keyof typeof REFUSALS = 'occurrence_not_found';
    await this.unit({ occurrences: [occurrenceId] }, [occurrenceId], (u) => {
      const o = u.occurrence(occurrenceId);
      if (!o) return void (result = 'occurrence_not_found');
      if (o.status !== 'pending') return void (result = 'occurrence_not_pending');
      u.amend(occurrenceId, patch);
      result = o;
    });
    return occurrenceOrThrow(result);
  }

  async saveSeries(input: SeriesInput, next: SeriesNext = 'auto'): Promise<SavedSeries> {
    // An empty number is allowed for a series that makes no call (the host keeps a schedule
    // whose number was removed as history); making an occurrence of it throws.
    if (typeof input.to !== 'string')
      throw new EngineError('invalid_series', 'to must be an E.164 number', 'to');
    if (next !== null && typeof next === 'object' && !Number.isFinite(next.at)) {
      throw new EngineError('invalid_series', 'next.at must be an instant', 'next.at');
    }
    const policy = input.policy ? this.checkPolicy(input.policy) : DEFAULT_RETRY_POLICY;
    const now = this.clock.now();
    const record: SeriesRecord = {
      id: input.id ?? this.ids.uuid(),
      accountId: input.accountId,
      phoneNumberId: input.phoneNumberId ?? null,
      to: input.to,
      label: input.label ?? null,
      message: input.message ?? null,
      greetingName: input.greetingName ?? null,
      voice: input.voice ?? null,
      rule: compileRecurrence(input.rule, now, 'rule.'),
      policy,
      smsFallback: input.smsFallback ?? false,
      backupAlarm: input.backupAlarm ?? false,
      enabled: input.enabled ?? true,
      status: 'active',
      nextOccurrenceId: null,
      version: 0,
      createdAt: now,
      updatedAt: now,
      attributes: input.attributes ?? null,
    };
    let result: SaveSeriesResult = { ok: false, code: 'series_not_found' };
    await this.unit({ series: [record.id] }, [record.id], (u) => {
      result = u.saveSeries(cloneSeries(record), next);
    });
    return savedOrThrow(result);
  }

  async skipNext(seriesId: string): Promise<SavedSeries> {
    let result: SaveSeriesResult = { ok: false, code: 'series_not_found' };
    await this.unit({ series: [seriesId] }, [seriesId], (u) => {
      result = u.skipNext(seriesId);
    });
    return savedOrThrow(result);
  }

  async rulesChanged(): Promise<number> {
    const version = zoneRulesVersion();
    let moved = 0;
    for (let after: string | undefined; ;) {
      const page = await this.store.listStaleZoneOccurrences(version, 500, after);
      const ids = page.map((o) => o.id);
      let moves: { occurrence: OccurrenceRecord; from: number }[] = [];
      if (ids.length > 0) {
        await this.unit({ occurrences: ids }, ids, (u) => {
          moves = [];
          for (const id of ids) {
            const m = u.reresolve(id, version);
            if (m) moves.push(m);
          }
        });
      }
      for (const { occurrence: o, from } of moves) {
        moved++;
        this.events.emit('occurrence:reresolved', {
          occurrence: cloneOccurrence(o),
          from,
          version,
        });
      }
      if (page.length < 500) return moved;
      after = ids[ids.length - 1]!;
    }
  }

  async placeCall(input: NewCall): Promise<PlaceCallOutcome> {
    const now = this.clock.now();
    const id = input.id ?? this.ids.uuid();
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
    const script: CallScript =
      input.script ??
      (input.kind === 'test' ? { kind: 'test', greetingName: null } : { kind: 'demo' });
    let refused: RefusalReason | null = null;
    const call: CallToAdmit = {
      accountId: rec.accountId,
      phoneNumberId: rec.phoneNumberId,
      to: rec.to,
      kind: rec.kind,
      occurrenceId: null,
      at: now,
    };
    await this.unit(
      {},
      [id],
      (u) => {
        refused = null;
        // Admission inside the unit of work, so that a host counting calls sees a consistent count.
        const admission = this.deps.accounts?.admit({ ...call, at: u.now });
        if (admission && !admission.ok) {
          refused = admission.reason;
          return;
        }
        u.startStandalone({ ...rec }, script);
      },
      undefined,
      [call],
    );
    if (refused) return { ok: false, reason: refused };
    this.pacer?.consume(now);
    return { ok: true, attempt: { ...rec } };
  }

  private checkPolicy(p: RetryPolicy): RetryPolicy {
    // Resolved once: a policy resolveRetryPolicy returned (frozen) is valid as it is.
    return isResolvedRetryPolicy(p) ? p : resolveRetryPolicy(p, { path: 'policy' });
  }

  // ---- units of work -----------------------------------------------------------------------

  /**
   * One unit of work: load, prepare admission, compute, commit, then re-key and execute. On a
   * version conflict it is computed again from a fresh load; `dropConflicts` (the dispatch
   * loop's, with leases) may first take conflicting rows out of the unit (it answers whether
   * it did), and such a retry does not count against the limit. `calls` are admission calls
   * the unit makes besides its due occurrences (a standalone call).
   */
  private unit(
    keys: LoadKeys,
    lock: readonly string[],
    fn: (u: UnitOfWork) => void,
    dropConflicts?: (conflicts: readonly RowRef[]) => boolean,
    calls: readonly CallToAdmit[] = [],
  ): Promise<void> {
    return this.unitStarting(keys, lock, fn, dropConflicts, calls).then(() => undefined);
  }

  /** The unit of work above, resolving with the work its effects started (calls, hang-ups, texts). */
  private unitStarting(
    keys: LoadKeys,
    lock: readonly string[],
    fn: (u: UnitOfWork) => void,
    dropConflicts?: (conflicts: readonly RowRef[]) => boolean,
    calls: readonly CallToAdmit[] = [],
  ): Promise<Promise<unknown>[]> {
    return this.queue.run(lock, async () => {
      const empty = !keys.occurrences?.length && !keys.attempts?.length && !keys.series?.length;
      for (let tries = 1; ; tries++) {
        const snapshot = empty
          ? { occurrences: [], attempts: [], series: [] }
          : await this.store.load(keys);
        const now = this.clock.now();
        const release = await this.prepareAdmission(snapshot, calls, now);
        try {
          const u = new UnitOfWork(snapshot, now, {
            options: this.options,
            ids: this.ids,
            accounts: this.deps.accounts,
          });
          fn(u);
          const { writes, keys: wheelKeys, changes } = u.finish();
          let wrote = false;
          if (writes.occurrences.length + writes.attempts.length + writes.series.length > 0) {
            // No await between the computation and this call: a store that commits synchronously
            // (SQLite) sees the unit's writes right after its computation.
            // The embedder's writes of this unit (asked here, in the computation's synchronous turn).
            const own = this.deps.unitWrites?.writes(writes, changes) ?? [];
            wrote = own.length > 0;
            const result = await this.store.commit(writes, wrote ? { writes: own } : undefined);
            if (!result.ok) {
              this.counters.conflicts++;
              const inserted = result.conflicts.some((c) =>
                (c.kind === 'occurrence'
                  ? writes.occurrences
                  : c.kind === 'attempt'
                    ? writes.attempts
                    : writes.series
                ).some((w) => w.record.id === c.id && w.expectedVersion === null),
              );
              const dropped =
                !inserted && dropConflicts !== undefined && dropConflicts(result.conflicts);
              if (dropped) tries--;
              const willRetry = !inserted && tries <= CONFLICT_RETRIES;
              this.events.emit('store:conflict', { conflicts: result.conflicts, willRetry });
              if (willRetry) continue;
              throw new EngineError(
                inserted ? 'already_exists' : 'store_conflict',
                inserted
                  ? `${result.conflicts[0]!.kind} ${result.conflicts[0]!.id} already exists`
                  : `the store refused the commit ${tries} times: ${result.conflicts.map((c) => `${c.kind} ${c.id}`).join(', ')} kept changing`,
              );
            }
          }
          this.counters.units++;
          if (wrote) this.deps.unitWrites?.committed?.();
          const after = this.clock.now();
          for (const k of wheelKeys) this.horizon.setKey(k.kind, k.id, k.at, false, after);
          this.notify(changes);
          const started: Promise<unknown>[] = [];
          this.runner.execute(u.effects, started);
          if (!this.loop.ticking) this.loop.arm();
          return started;
        } finally {
          release?.();
        }
      }
    });
  }

  /**
   * Awaits `Accounts.prepare` (when the host has one) with the calls this unit may admit: the
   * given ones and every unfinished occurrence of the snapshot that is due by `now`.
   */
  private async prepareAdmission(
    snapshot: Snapshot,
    given: readonly CallToAdmit[],
    now: EpochMs,
  ): Promise<(() => void) | undefined> {
    const accounts = this.deps.accounts;
    if (!accounts?.prepare) return undefined;
    const calls: CallToAdmit[] = given.map((c) => ({ ...c, at: now }));
    for (const o of snapshot.occurrences) {
      if (o.nextDueAt === null || o.nextDueAt > now || isFinishedOccurrence(o.status)) continue;
      calls.push({
        accountId: o.accountId,
        phoneNumberId: o.phoneNumberId,
        to: o.to,
        kind: nextAttemptKind(o),
        occurrenceId: o.id,
        at: now,
      });
    }
    if (calls.length === 0) return undefined;
    return (await accounts.prepare(calls)) ?? undefined;
  }

  private notify(changes: StatusChange[]): void {
    const occ = this.events.has('occurrence:status');
    const att = this.events.has('attempt:status');
    for (const c of changes) {
      if (c.kind === 'attempt' && c.from === null) this.counters.dispatched++;
      if (c.kind === 'occurrence' && occ)
        this.events.emit('occurrence:status', { occurrence: { ...c.record }, from: c.from });
      if (c.kind === 'attempt' && att)
        this.events.emit('attempt:status', { attempt: { ...c.record }, from: c.from });
    }
  }
}
