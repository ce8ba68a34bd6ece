/**
 * The store's read model: what an embedder's API reads of the engine's records (its series,
 * occurrences and attempts, paged and filtered as an API lists them), and the few writes that
 * are not a unit of work (removing a series that never rang, erasing and purging an account).
 * The runtime never calls these: they are off the dispatch path. Nothing but a store reads or
 * writes the engine's tables (docs/decisions/0021); an embedder reads them through this.
 *
 * A store that commits to a journal (the SQLite store, docs/decisions/0016) applies what a read
 * covers first, so every read sees every commit before it, except where a method says otherwise.
 * Each read is one round trip. Orders are keyset orders, ids bytewise; `seq` is a row's
 * insertion order (SQLite's rowid, a `rowid` identity column on PostgreSQL), the tie-break of
 * two rows made at one instant.
 * @module
 */
import type { EpochMs } from './time/epoch.js';
import type {
  AttemptKind,
  AttemptRecord,
  AttemptStatus,
  OccurrenceRecord,
  OccurrenceStatus,
  SeriesRecord,
  SeriesStatus,
} from './model.js';
import type { Recurrence } from './time/rule-types.js';

/** A page of an account's series (see {@link StoreReads.listSeries}). */
export interface SeriesQuery {
  accountId: string;
  /** Only series in this status; null or absent: every one. */
  status?: SeriesStatus | null;
  /** Strictly after this key in the order: older `createdAt`, or the same and a smaller `seq`. */
  before?: { createdAt: EpochMs; seq: number } | null;
  limit: number;
}

/** What {@link StoreReads.listSeries} answers. */
export interface SeriesPage {
  /** Newest first (`createdAt` descending, then `seq` descending). */
  series: { record: SeriesRecord; seq: number }[];
  /** The occurrences the series name (`nextOccurrenceId`), in no order. */
  occurrences: OccurrenceRecord[];
}

/** A page of an account's occurrences (see {@link StoreReads.listOccurrences}). */
export interface OccurrenceQuery {
  accountId: string;
  status?: OccurrenceStatus | null;
  /** `scheduledAt` at or after this instant. */
  from?: EpochMs | null;
  /** `scheduledAt` before this instant. */
  to?: EpochMs | null;
  /** Strictly after this key (`scheduledAt`, then id). */
  after?: { scheduledAt: EpochMs; id: string } | null;
  limit: number;
}

/** What {@link StoreReads.listOccurrences} answers. */
export interface OccurrencePage {
  /** Soonest first (`scheduledAt`, then id). */
  occurrences: OccurrenceRecord[];
  /** The series of those occurrences (`scheduleId`), in no order. */
  series: SeriesRecord[];
}

/** A page of an account's attempts, newest first (see {@link StoreReads.listAccountAttempts}). */
export interface AttemptQuery {
  accountId: string;
  /** Only attempts of these kinds. */
  kinds: readonly AttemptKind[];
  /** Strictly after this key: older `createdAt`, or the same and a smaller `seq`. */
  before?: { createdAt: EpochMs; seq: number } | null;
  limit: number;
}

/** One account's span of time (see {@link StoreReads.listCallsUsed}). */
export interface AccountWindow {
  accountId: string;
  from: EpochMs;
  /** Exclusive. */
  to: EpochMs;
}

/** What {@link StoreReads.summarizeAccount} answers. */
export interface AccountSummary {
  /** The account's series, and those active. */
  series: number;
  activeSeries: number;
  /** When the newest confirmed attempt of the given kinds ended (or was answered, or last changed). */
  lastConfirmedAt: EpochMs | null;
  /** Confirmed standalone attempts of the standalone kind. */
  standaloneConfirmed: number;
  /** The newest standalone attempt of that kind whose intent was stored. */
  lastStandalone: { createdAt: EpochMs; status: AttemptStatus } | null;
  /** The calls it made in the window asked for, counted as {@link StoreReads.listCallsUsed} does (0 without a window). */
  callsUsed: number;
}

/** What {@link StoreReads.summarizeAccount} reads. */
export interface SummaryQuery {
  accountId: string;
  /** The attempts that count for `lastConfirmedAt`. */
  kinds: readonly AttemptKind[];
  /** The kind of a standalone call (a test call). */
  standaloneKind: AttemptKind;
  /** Count the calls used in [from, to) too. */
  usedIn?: { from: EpochMs; to: EpochMs } | null;
}

/** A row in insertion order, for a data export (see {@link StoreReads.exportOccurrences}). */
export interface Sequenced<R> {
  record: R;
  seq: number;
}

/**
 * One minute's lateness of the first attempts placed in it (see {@link StoreReads.latenessByMinute}):
 * from the attempt's `dueAt` to `requestedAt` (`measure` `requested`) or to `ringingAt`
 * (`ringing`, the attempts that rang), in ms; percentiles by nearest rank.
 */
export interface LatenessMinute {
  /** Start of the minute of `requestedAt`, epoch ms. */
  minute: EpochMs;
  measure: 'requested' | 'ringing';
  count: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** How many were at most the objective's ms late. */
  onTime: number;
}

/** One hour's attempts placed (see {@link StoreReads.attemptsByHour}). */
export interface AttemptHour {
  /** Start of the hour of `requestedAt`, epoch ms. */
  hour: EpochMs;
  placed: number;
  answered: number;
  /** Answered and at most the short call's seconds long. */
  short: number;
  /** Failed attempts by the provider's error code (`unknown` without one). */
  errors: Record<string, number>;
}

/** See the module header. */
export interface StoreReads {
  // ---- series ----
  /** A page of an account's series, with the occurrences they name. */
  listSeries(query: SeriesQuery): Promise<SeriesPage>;
  /** Per account among these, its series and those active (accounts without any are absent). */
  countSeries(
    accountIds: readonly string[],
  ): Promise<Map<string, { series: number; active: number }>>;
  /** Whether an active series, or an unfinished occurrence, of the account calls this phone number id. */
  isPhoneNumberInUse(accountId: string, phoneNumberId: string): Promise<boolean>;

  // ---- occurrences ----
  /** A page of an account's occurrences, with their series. */
  listOccurrences(query: OccurrenceQuery): Promise<OccurrencePage>;
  /** Ids of the account's unfinished occurrences (pending, dispatching, calling, waiting). */
  listUnfinishedOccurrenceIds(accountId: string): Promise<string[]>;
  /**
   * Pending occurrences due before `until` (the overdue ones included), counted per second of
   * `nextDueAt` (epoch seconds), in order. Reads the tables as they are: the SQLite store does
   * not apply its journal first (an operator's tool in another process must not fold it).
   */
  countDueBySecond(until: EpochMs): Promise<{ second: number; count: number }[]>;

  // ---- attempts ----
  /**
   * The attempts of one of the account's occurrences, by `n` (an occurrence's attempts are its
   * account's: the runtime makes them so). Unlike {@link Store.listAttempts}, the SQLite store
   * folds only that account's journal rows first.
   */
  listOccurrenceAttempts(accountId: string, occurrenceId: string): Promise<AttemptRecord[]>;
  /** A page of an account's attempts of some kinds, newest first (`createdAt`, then `seq`). */
  listAccountAttempts(query: AttemptQuery): Promise<Sequenced<AttemptRecord>[]>;
  /** The newest live (requested, ringing, answered) standalone attempt of `kind` of the account to this phone number id. */
  findLiveStandaloneAttempt(
    accountId: string,
    phoneNumberId: string,
    kind: AttemptKind,
  ): Promise<AttemptRecord | null>;
  /**
   * The attempt the provider knows by this call id. Reads the table as it is (the SQLite
   * store does not apply its journal first: a provider's callback must not fold it).
   */
  findAttemptByProviderCallId(callId: string): Promise<AttemptRecord | null>;

  // ---- what an account placed ----
  /**
   * Per account, the attempts of `kinds` created in [from, to) whose intent was stored and that
   * the provider did not refuse or fail (status not `failed`): the calls placed.
   */
  countPlacedAttempts(
    accountIds: readonly string[],
    from: EpochMs,
    to: EpochMs,
    kinds: readonly AttemptKind[],
  ): Promise<Map<string, number>>;
  /**
   * Per window, the calls the account made in it, each as the number it called: its
   * occurrences dispatched in the window one of whose attempts did not fail (the number of the
   * first such attempt), then its standalone attempts of `standaloneKind` placed in it.
   * Accounts with none are absent.
   */
  listCallsUsed(
    windows: readonly AccountWindow[],
    standaloneKind: AttemptKind,
  ): Promise<Map<string, string[]>>;
  /** The occurrences among these one of whose attempts did not fail. */
  occurrencesWithPlacedAttempt(occurrenceIds: readonly string[]): Promise<Set<string>>;
  /** An account's series counts and call facts, and the calls it used in a window, in one read. */
  summarizeAccount(query: SummaryQuery): Promise<AccountSummary>;

  // ---- an operator's figures (the tables as they are: the caller settles first; each a range of one window) ----
  /** Unfinished occurrences being placed or awaiting an answer, per status (dispatching, calling, waiting). */
  countInFlight(): Promise<Partial<Record<OccurrenceStatus, number>>>;
  /**
   * The series held back by a call in flight: active, enabled series whose current occurrence
   * is dispatching, calling or waiting (their next occurrence is made when it finishes).
   */
  listInFlightSeries(): Promise<{ rule: Recurrence; scheduledAt: EpochMs }[]>;
  /** Per minute of `requestedAt` in [from, to), the first attempts' lateness (to the request and to the ring). */
  latenessByMinute(from: EpochMs, to: EpochMs, onTimeMs: number): Promise<LatenessMinute[]>;
  /** Per hour of `scheduledAt` in [from, to), the finished occurrences by status. */
  outcomesByHour(
    from: EpochMs,
    to: EpochMs,
  ): Promise<{ hour: EpochMs; status: OccurrenceStatus; count: number }[]>;
  /** Per hour of `requestedAt` in [from, to), the attempts placed, answered, short and failed. */
  attemptsByHour(from: EpochMs, to: EpochMs, shortSeconds: number): Promise<AttemptHour[]>;
  /** Leases held at `now` on rows with due work, per owner (empty where there are none: SQLite). */
  countLeases(now: EpochMs): Promise<{ owner: string; occurrences: number; until: EpochMs }[]>;

  // ---- an account's rows in insertion order (a data export) ----
  /** The account's series after `afterSeq`, oldest first. */
  exportSeries(
    accountId: string,
    afterSeq: number,
    limit: number,
  ): Promise<Sequenced<SeriesRecord>[]>;
  /** The account's occurrences after `afterSeq`, oldest first, with every attempt of each (by `n`). */
  exportOccurrences(
    accountId: string,
    afterSeq: number,
    limit: number,
  ): Promise<{ occurrences: Sequenced<OccurrenceRecord>[]; attempts: AttemptRecord[] }>;
  /** The account's standalone attempts (no occurrence) after `afterSeq`, oldest first. */
  exportStandaloneAttempts(
    accountId: string,
    afterSeq: number,
    limit: number,
  ): Promise<Sequenced<AttemptRecord>[]>;
}

/**
 * Writes outside a unit of work, each atomic: history is otherwise kept. The caller makes
 * sure the runtime no longer works on the rows (the series turned off, its occurrences
 * finished).
 */
export interface StoreMaintenance {
  /**
   * Removes a series with its occurrences and their attempts when none of its occurrences was
   * dispatched (its first attempt's intent stored); answers whether it removed it (false: it
   * rang, or it does not exist).
   */
  deleteSeries(id: string): Promise<boolean>;
  /**
   * Erases what identifies a person from an account's finished rows: the number, label,
   * message and greeting of its finished occurrences and of its series that are off, those
   * series' attributes (the engine cannot tell what in them is personal), and the number,
   * digits and script of its finished attempts. Unfinished rows are left to the runtime.
   */
  eraseAccount(accountId: string): Promise<void>;
  /** Deletes every series, occurrence and attempt of an account. */
  purgeAccount(accountId: string): Promise<void>;
}
