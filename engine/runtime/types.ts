/**
 * The runtime's public types: what it needs (deps), the commands' inputs and results, and
 * the {@link Runtime} interface itself.
 * @module
 */
import type {
  Accounts,
  ChangeSet,
  Clock,
  EpochMs,
  Ids,
  Messaging,
  RefusalReason,
  Store,
  StoreWrite,
  Telephony,
} from '../ports.js';
import type {
  AttemptKind,
  AttemptRecord,
  CallScript,
  DerivationSource,
  OccurrenceRecord,
  RetryPolicy,
  SeriesRecord,
} from '../model.js';
import type { RecurrenceInput } from '../time/rule-types.js';
import type { RuntimeEventMap, RuntimeListener } from './events.js';
import type { StatusChange } from './identity-map.js';
import type { ResolvedRuntimeOptions, RuntimeOptions } from './options.js';

export type { StatusChange };

/**
 * The embedder's own writes of each unit of work (credits spent, outbound events), which the
 * store makes in the unit's commit transaction: both are stored, or neither.
 * `Tx` is the store's connection type (see {@link StoreWrite}).
 */
export interface UnitWriter<Tx = unknown> {
  /**
   * The writes of the unit whose `changes` are about to be committed: asked once per commit,
   * synchronously right after the unit's computation (so what the Accounts port queued during
   * that computation is this unit's). A commit the store refuses runs none of them, and the
   * unit is computed and asked again. `statuses` are the unit's changes of status (a new row's
   * from null), for writes that follow a transition rather than every write of a row.
   */
  writes(changes: ChangeSet, statuses: readonly StatusChange[]): readonly StoreWrite<Tx>[];
  /** Called after a commit that stored some writes (to wake a worker that sends them). */
  committed?(): void;
}

/** What the runtime needs from its embedder. */
export interface RuntimeDeps<Tx = unknown> {
  /**
   * The only source of now and of timers: `systemClock({ now: Date.now })` for real time,
   * `VirtualClock` from engine/sim in tests. The engine reads no clock of its own.
   */
  clock: Clock;
  /**
   * Makes the ids of new occurrences, attempts and series, and the default lease owner's name:
   * `{ uuid: () => crypto.randomUUID() }` for random ones. The engine makes no randomness of its own.
   */
  ids: Ids;
  /** Where series, occurrences and attempts are kept: `MemoryStore`, `createSqliteStore`, `createPostgresStore`, or your own. */
  store: Store<Tx>;
  /** Writes of the embedder's own made in each unit's commit transaction (see {@link UnitWriter}). */
  unitWrites?: UnitWriter<Tx>;
  /** Places the calls and reports their progress; the runtime sets its event handler in `start()`. */
  telephony: Telephony;
  /** Needed for fallback texts; without it, a decided fallback stays `pending`. */
  messaging?: Messaging;
  /** The host's account rules (admission, key 9). Without it every call is admitted and key 9 only ends the occurrence. */
  accounts?: Accounts;
  /** Tuning; every field has a default (see {@link RuntimeOptions}). */
  options?: RuntimeOptions;
}

/**
 * A new occurrence. Everything the runtime needs to place its calls is copied into the row
 * (number, script fields, policy): dispatch never reads the host's other tables.
 */
export interface NewOccurrence {
  /** Defaults to a new id from the Ids port. */
  id?: string;
  /** The schedule it belongs to, or null; stored as is (it does not make it a series' current occurrence). */
  scheduleId?: string | null;
  /** The account it belongs to (the host's id, shown to the Accounts port). */
  accountId: string;
  /** The host's phone number row, or null. */
  phoneNumberId?: string | null;
  /** E.164 number to call (and to text on fallback). */
  to: string;
  /** The instant the first attempt rings (epoch ms). */
  scheduledAt: EpochMs;
  /** How `scheduledAt` was derived. @defaultValue 'one_off' */
  derivationSource?: DerivationSource;
  /** Short name of the call, shown by the host and quoted by the default fallback text. */
  label?: string | null;
  /** Spoken note. */
  message?: string | null;
  /** Name the call greets; null for a neutral greeting. */
  greetingName?: string | null;
  /** Voice identifier passed in the call script; null for the provider's default. */
  voice?: string | null;
  /** IANA zone the instant was chosen in (for display; the engine works on the instant). */
  timezone?: string | null;
  /** Validated against the bounds. @defaultValue DEFAULT_RETRY_POLICY */
  policy?: RetryPolicy;
  /** Send a text when the occurrence ends missed, unconfirmed or failed. @defaultValue false */
  smsFallback?: boolean;
  /** Turn the app backup alarm on (it rings `backupAlarmDelaySeconds` after the call's instant). @defaultValue false */
  backupAlarm?: boolean;
}

/**
 * Fields of a pending occurrence that {@link Runtime.amend} may change.
 *
 * @example
 * const amended = await runtime.amend(occurrence.id, { scheduledAt: occurrence.scheduledAt + 10 * 60_000, label: 'Later' });
 * // rejects with EngineError occurrence_not_found, or occurrence_not_pending once it rang
 */
export type OccurrencePatch = Partial<
  Pick<
    OccurrenceRecord,
    | 'scheduledAt'
    | 'derivationSource'
    | 'to'
    | 'phoneNumberId'
    | 'label'
    | 'message'
    | 'greetingName'
    | 'voice'
    | 'timezone'
    | 'policy'
    | 'smsFallback'
    | 'backupAlarm'
    | 'localDate'
    | 'tzdataVersion'
  >
>;

/**
 * A series to create or replace with {@link Runtime.saveSeries}: the rule and every field its
 * occurrences copy. Missing optional fields take their defaults (not the stored values).
 */
export interface SeriesInput {
  /** Defaults to a new id from the Ids port. The host uses its schedule's id. */
  id?: string;
  /** The account it belongs to (the host's id, shown to the Accounts port). */
  accountId: string;
  /** The host's phone number row, or null. */
  phoneNumberId?: string | null;
  /** E.164 number to call (and to text on fallback). */
  to: string;
  /**
   * When it rings: `weekly(...)`, `once(...)`, `inMinutes(...)` or a rule written by hand;
   * checked and completed by `compileRecurrence` at the runtime's now (errors name
   * `rule.<field>`).
   */
  rule: RecurrenceInput;
  /** Short name of the call, copied to every occurrence. */
  label?: string | null;
  /** Spoken note. */
  message?: string | null;
  /** Name the calls greet; null for a neutral greeting. */
  greetingName?: string | null;
  /** Voice identifier for the calls' script; null for the provider's default. */
  voice?: string | null;
  /** Validated against the bounds. @defaultValue DEFAULT_RETRY_POLICY */
  policy?: RetryPolicy;
  /** Every occurrence sends a text when it ends missed, unconfirmed or failed. @defaultValue false */
  smsFallback?: boolean;
  /** Every occurrence has the app backup alarm on. @defaultValue false */
  backupAlarm?: boolean;
  /** False turns the series off: its pending occurrence is cancelled and no other is made. @defaultValue true */
  enabled?: boolean;
  /** The embedder's own fields, stored with the series and never read ({@link SeriesRecord.attributes}). @defaultValue null */
  attributes?: string | null;
}

/**
 * What {@link Runtime.saveSeries} does to the series' current occurrence.
 * - `'auto'` (default): the engine decides from the rule: the pending occurrence is moved to
 *   the rule's first call after now (or cancelled when none remains; a new one is made when
 *   none is stored); an occurrence already ringing or between attempts is left to finish.
 * - `'keep'`: leave the current occurrence as it is (the next one follows the new rule).
 * - `{ at }`: the current call rings at this instant (amend the pending one, or make one
 *   with `occurrenceId`); refused with `occurrence_in_progress` when the current occurrence is
 *   no longer pending.
 * - `null`: no current call: the pending one is cancelled, or the one between attempts (its
 *   remaining retries and snoozes); refused with `occurrence_in_progress` while it is being
 *   placed or rings.
 *
 * @example
 * await runtime.saveSeries(input); // 'auto': the current call follows the new rule
 * await runtime.saveSeries(input, 'keep'); // the current call stays as it is
 * await runtime.saveSeries(input, { at: clock.now() + 30 * 60_000, source: 'moved' }); // the current call rings in 30 minutes
 */
export type SeriesNext =
  'auto' | 'keep' | null | { at: EpochMs; source?: DerivationSource; occurrenceId?: string };

/** What {@link Runtime.saveSeries} and {@link Runtime.skipNext} stored: the series and its current occurrence. */
export interface SavedSeries {
  /** The series as stored. */
  series: SeriesRecord;
  /** Its current (unfinished) occurrence, or null when it has none (disabled, completed). */
  occurrence: OccurrenceRecord | null;
}

/**
 * A series step's outcome inside a unit of work: {@link SavedSeries}, or the refusal the
 * runtime throws as an `EngineError` with that code.
 * @internal
 */
export type SaveSeriesResult =
  | ({ ok: true } & SavedSeries)
  | { ok: false; code: 'occurrence_in_progress' | 'series_not_found' | 'not_recurring' };

/**
 * A standalone call (test or demo), placed now.
 *
 * @example
 * const r = await runtime.placeCall({ kind: 'test', accountId, to: '+14155550123' });
 * if (!r.ok) console.log(r.reason); // refused by the Accounts port, e.g. daily_cap_reached
 */
export interface NewCall {
  /** Defaults to a new id from the Ids port; it is the attempt's id and idempotency key. */
  id?: string;
  /** `test` or `demo`. */
  kind: Extract<AttemptKind, 'test' | 'demo'>;
  /** The account it is for, shown to the Accounts port; null or absent for none. */
  accountId?: string | null;
  /** The host's phone number row, or null. */
  phoneNumberId?: string | null;
  /** E.164 number to call. */
  to: string;
  /** What the call says. @defaultValue a test or demo script with no greeting name */
  script?: CallScript;
  /** Seconds the phone may ring. @defaultValue 45 */
  ringTimeoutSeconds?: number;
}

/** Result of {@link Runtime.placeCall}. */
export type PlaceCallOutcome =
  { ok: true; attempt: AttemptRecord } | { ok: false; reason: RefusalReason };

/** Counters for benchmarks and health pages. */
export interface RuntimeStats {
  /** Attempts whose intent this runtime committed. */
  dispatched: number;
  /** Units of work committed. */
  units: number;
  /** Commits the store refused on a version conflict (each computed again). */
  conflicts: number;
  /** Entries in the timer wheel now: rows due within the horizon (with leases, those this runtime claimed). */
  wheelSize: number;
  /** Calls waiting in the pacing queue for their start (0 without `pacing.callsPerSecond`). */
  paced: number;
  /** Work the runtime awaits now (port calls and the recording of their answers): what `idle()` waits for. */
  inFlight: number;
  /** Hits and misses of the memoised machine steps; counted per process (every runtime in it shares them). */
  memo: { occurrence: { hits: number; misses: number }; attempt: { hits: number; misses: number } };
}

/** Options of `Runtime.start`. */
export interface StartOptions {
  /**
   * Resolve once the runtime takes provider events and commands, and run the start-up
   * recovery in the background, yielding to the event loop between its pages: reconciliation
   * (its calls wait in the runner's line like any other), the zone-rules check, the horizon's
   * first fill and the dispatch loop, then series repair. Safe because every
   * step is a version-checked unit of work and an attempt is placed only with its idempotency
   * key (docs/decisions/0014). `idle()` waits for the recovery; a failure is emitted as
   * `runtime:error` (where `recovery`) and the recovery tried again with backoff.
   * @defaultValue false: start() resolves after the recovery and the first fill.
   */
  background?: boolean;
}

/** The running engine. Create with {@link createRuntime}. */
export interface Runtime {
  /**
   * Reconciles unfinished work, loads the near horizon and starts the timer. With
   * `background` it resolves at once, ready for events and commands, and the recovery runs
   * on (see {@link StartOptions}).
   */
  start(options?: StartOptions): Promise<void>;
  /**
   * Stops the timer and ignores later events. With `drain` (default) waits for effects in
   * flight; `drain: false` abandons them (what a crash does; tests use it).
   */
  stop(options?: { drain?: boolean }): Promise<void>;
  /** Stores a new pending occurrence and arms it (one commit). Rejects with EngineError `already_exists` when the id is taken. */
  schedule(input: NewOccurrence): Promise<OccurrenceRecord>;
  /**
   * Cancels an occurrence; a live call is hung up. Resolves to the occurrence as it was before.
   * Rejects with EngineError `occurrence_not_found`, or `occurrence_terminal` when it is finished.
   */
  cancel(occurrenceId: string): Promise<OccurrenceRecord>;
  /**
   * Changes a pending occurrence (instant, number, texts, policy) and re-arms it. Resolves to
   * the occurrence as it was before. Rejects with EngineError `occurrence_not_found`,
   * `occurrence_not_pending` once it rang, or `invalid_occurrence` (with `field`) for a bad patch.
   */
  amend(occurrenceId: string, patch: OccurrencePatch): Promise<OccurrenceRecord>;
  /**
   * Creates or replaces a series and sets its current occurrence (see {@link SeriesNext}),
   * in one unit of work. From then on the engine keeps one unfinished occurrence per active,
   * enabled series: the unit that finishes or cancels it creates the next one, and start-up
   * reconciliation repairs a series left without one. Rejects with EngineError
   * `invalid_rule`, `invalid_timezone` or `timezone_not_allowed` (field `rule.<field>`),
   * `invalid_series`, or `occurrence_in_progress` (see {@link SeriesNext}).
   */
  saveSeries(input: SeriesInput, next?: SeriesNext): Promise<SavedSeries>;
  /**
   * Skips the next call of a weekly series: its local date joins the skip dates and the
   * pending occurrence moves to the following call, in one unit of work. Rejects with
   * EngineError `series_not_found`, or `not_recurring` for a one-off.
   */
  skipNext(seriesId: string): Promise<SavedSeries>;
  /**
   * The zone rules changed (see `useZoneRulesSource`): pending occurrences resolved under
   * another version are resolved again from their series' wall time, each with an
   * `occurrence:reresolved` notice; occurrences being placed, ringing or between attempts are
   * never moved. Also done at `start()`. Resolves to the number of occurrences moved.
   */
  rulesChanged(): Promise<number>;
  /** Places a standalone test or demo call now (admission by the Accounts port). */
  placeCall(input: NewCall): Promise<PlaceCallOutcome>;
  /** Resolves when no effect, provider answer or event is in flight. */
  idle(): Promise<void>;
  /** Subscribes to a runtime event; returns the unsubscribe function. */
  on<K extends keyof RuntimeEventMap>(name: K, listener: RuntimeListener<K>): () => void;
  /** The counters at this moment (a new object at each read). */
  readonly stats: RuntimeStats;
  /** The options in force, every default applied (validated by `createRuntime`, which throws EngineError `invalid_option`). */
  readonly options: ResolvedRuntimeOptions;
}
