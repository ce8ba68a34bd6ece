/**
 * The unit-of-work runner: every change the runtime makes goes through it. One unit loads its
 * rows, prepares admission, computes (a {@link UnitOfWork}), commits once, then re-keys the
 * wheel, reports the status changes and hands the effects to the runner, only after the
 * commit (intent before action). Units on the same rows run one after the other
 * (KeyedQueue); a commit the store refuses because a row changed elsewhere is computed again
 * from a fresh load, so several processes may share one store.
 * @module
 */
import type {
  Accounts,
  CallToAdmit,
  Clock,
  EpochMs,
  Ids,
  LoadKeys,
  RowRef,
  Snapshot,
  Store,
} from '../ports.js';
import { isFinishedOccurrence } from '../machines/status.js';
import type { EffectRunner } from './effect-runner.js';
import { EngineError } from './errors.js';
import type { SafeEmitter } from './events.js';
import type { DueHorizon } from './horizon.js';
import type { StatusChange } from './identity-map.js';
import { KeyedQueue } from './keyed-queue.js';
import type { ResolvedRuntimeOptions } from './options.js';
import { nextAttemptKind } from './record-factories.js';
import type { RuntimeStats, UnitWriter } from './types.js';
import { UnitOfWork } from './unit-of-work.js';

/** Times a unit of work is computed again after the store refused its commit (a row changed meanwhile). */
const CONFLICT_RETRIES = 5;

/**
 * Runs one unit of work (see {@link UnitRunner.run}): `keys` are the rows to load, `lock` the
 * ids whose units run one after the other, `fn` the computation.
 */
export type RunUnit = (...args: UnitArgs) => Promise<void>;

/** The same unit, resolving with the work its effects started (see {@link UnitRunner.runStarting}). */
export type RunUnitStarting = (...args: UnitArgs) => Promise<Promise<unknown>[]>;

/** A unit's arguments (see {@link UnitRunner.run}). */
type UnitArgs = [
  keys: LoadKeys,
  lock: readonly string[],
  fn: (u: UnitOfWork) => void,
  dropConflicts?: (conflicts: readonly RowRef[]) => boolean,
  calls?: readonly CallToAdmit[],
];

/** What the unit runner needs. */
export interface UnitRunnerDeps {
  clock: Clock;
  ids: Ids;
  store: Store;
  options: ResolvedRuntimeOptions;
  events: SafeEmitter;
  horizon: DueHorizon;
  runner: EffectRunner;
  /** The host's admission port, when it has one. */
  accounts: Accounts | undefined;
  /** The embedder's writes committed with each unit, when it has some. */
  unitWrites: UnitWriter | undefined;
  /** A unit committed: arm the dispatch loop's timer for what it keyed (unless a tick runs: it re-arms at its end). */
  armDispatch(): void;
}

/** The runner's counters, part of {@link RuntimeStats}. */
export type UnitCounters = Pick<RuntimeStats, 'dispatched' | 'units' | 'conflicts'>;

/** See the module comment. */
export class UnitRunner {
  /** Units on the same rows run one after the other. */
  private readonly queue = new KeyedQueue();
  readonly counters: UnitCounters = { dispatched: 0, units: 0, conflicts: 0 };

  constructor(private readonly d: UnitRunnerDeps) {}

  /**
   * One unit of work: load, prepare admission, compute, commit, then re-key and execute. On a
   * version conflict it is computed again from a fresh load; `dropConflicts` (the dispatch
   * loop's, with leases) may first take conflicting rows out of the unit (it answers whether
   * it did), and such a retry does not count against the limit. `calls` are admission calls
   * the unit makes besides its due occurrences (a standalone call).
   */
  run(
    keys: LoadKeys,
    lock: readonly string[],
    fn: (u: UnitOfWork) => void,
    dropConflicts?: (conflicts: readonly RowRef[]) => boolean,
    calls: readonly CallToAdmit[] = [],
  ): Promise<void> {
    return this.runStarting(keys, lock, fn, dropConflicts, calls).then(() => undefined);
  }

  /** The unit of work above, resolving with the work its effects started (calls, hang-ups, texts). */
  runStarting(
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
          : await this.d.store.load(keys);
        const now = this.d.clock.now();
        const release = await this.prepareAdmission(snapshot, calls, now);
        try {
          const u = new UnitOfWork(snapshot, now, {
            options: this.d.options,
            ids: this.d.ids,
            accounts: this.d.accounts,
          });
          fn(u);
          const { writes, keys: wheelKeys, changes } = u.finish();
          let wrote = false;
          if (writes.occurrences.length + writes.attempts.length + writes.series.length > 0) {
            // No await between the computation and this call: a store that commits synchronously
            // (SQLite) sees the unit's writes right after its computation.
            // The embedder's writes of this unit (asked here, in the computation's synchronous turn).
            const own = this.d.unitWrites?.writes(writes, changes) ?? [];
            wrote = own.length > 0;
            const result = await this.d.store.commit(writes, wrote ? { writes: own } : undefined);
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
              this.d.events.emit('store:conflict', { conflicts: result.conflicts, willRetry });
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
          if (wrote) this.d.unitWrites?.committed?.();
          const after = this.d.clock.now();
          for (const k of wheelKeys) this.d.horizon.setKey(k.kind, k.id, k.at, false, after);
          this.notify(changes);
          const started: Promise<unknown>[] = [];
          this.d.runner.execute(u.effects, started);
          this.d.armDispatch();
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
    const accounts = this.d.accounts;
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

  /** Counts new attempts and emits the status events someone listens to. */
  private notify(changes: StatusChange[]): void {
    const occ = this.d.events.has('occurrence:status');
    const att = this.d.events.has('attempt:status');
    for (const c of changes) {
      if (c.kind === 'attempt' && c.from === null) this.counters.dispatched++;
      if (c.kind === 'occurrence' && occ)
        this.d.events.emit('occurrence:status', { occurrence: { ...c.record }, from: c.from });
      if (c.kind === 'attempt' && att)
        this.d.events.emit('attempt:status', { attempt: { ...c.record }, from: c.from });
    }
  }
}
