/**
 * The Store port and the types of its unit of work: which rows a unit loads ({@link LoadKeys},
 * {@link Snapshot}), what it commits ({@link ChangeSet}, {@link RowWrite}) and what the store
 * answers ({@link CommitResult}), the due queries of the timer wheel, and the embedder's own
 * writes made in a commit's transaction. `Store` is public (an embedder picks or writes one);
 * the unit-of-work types are for a store's author, exported through `@wakeup/engine/internals`
 * with no promise between versions (decision 0005: their shape moves).
 * @module
 */
import type { EpochMs } from './time/epoch.js';
import type { AttemptRecord, OccurrenceRecord, SeriesRecord } from './model.js';

/** A reference to something the timer wheel must wake up for. */
export interface DueRef {
  kind: 'occurrence' | 'attempt';
  id: string;
  /** The instant (an occurrence's `nextDueAt` or a standalone attempt's `deadlineAt`). */
  at: EpochMs;
}

/** Keyset cursor for {@link Store.listDue}: strictly after (at, kind, id). */
export interface DueCursor {
  at: EpochMs;
  kind: 'occurrence' | 'attempt';
  id: string;
}

/** What {@link Store.listDue} returns. */
export interface DueQuery {
  /** Everything due at or before this instant. */
  until: EpochMs;
  /** At most this many rows. */
  limit: number;
  /** Strictly after this key. */
  after?: DueCursor;
  /**
   * Claim the rows for one process until `until` (a store shared by several processes:
   * `SELECT … FOR UPDATE SKIP LOCKED`, then set the lease and bump the `version` of each row
   * whose owner changes, so rows leased by another live process are skipped and a process
   * that wakes from a pause after its lease expired and another process claimed the row finds
   * its commit refused: the version is the fencing value).
   * A store used by one process may ignore it. An owner re-claiming its own rows extends the
   * lease without a new version, so it does not fence out its own units in flight.
   */
  lease?: {
    owner: string;
    /** When the lease expires. */
    until: EpochMs;
    /** The claimer's "now": leases that expire at or before it are free. A store without it uses its own clock. */
    now?: EpochMs;
  };
}

/** Which rows a unit of work needs (see {@link Store.load} for what comes with them). */
export interface LoadKeys {
  occurrences?: readonly string[];
  attempts?: readonly string[];
  series?: readonly string[];
}

/** Rows loaded for one unit of work; absent ids are simply missing. */
export interface Snapshot {
  occurrences: OccurrenceRecord[];
  attempts: AttemptRecord[];
  series: SeriesRecord[];
}

/** One row to write: `expectedVersion` null inserts, a number updates the row read at that version. */
export interface RowWrite<R> {
  /** The row as it must be stored, `version` included (the engine sets it to expectedVersion + 1, or 1). */
  record: R;
  /** The version the unit read (the stored row must still be at it), or null for a new row. */
  expectedVersion: number | null;
}

/** Everything one unit of work writes, committed all together or not at all. */
export interface ChangeSet {
  /** Occurrences inserted or updated. */
  occurrences: RowWrite<OccurrenceRecord>[];
  /** Attempts inserted or updated. */
  attempts: RowWrite<AttemptRecord>[];
  /** Series inserted or updated. */
  series: RowWrite<SeriesRecord>[];
}

/** Names a row in a conflict. */
export interface RowRef {
  kind: 'occurrence' | 'attempt' | 'series';
  id: string;
}

/**
 * What a read is about to look at (see {@link Store.settle}): the rows of these accounts (null:
 * rows without an account), and of the accounts these occurrences and attempts belong to.
 * Absent: every row.
 */
export interface SettleScope {
  accounts?: readonly (string | null)[];
  occurrences?: readonly string[];
  attempts?: readonly string[];
}

/** The store's answer to {@link Store.commit}. */
export type CommitResult = { ok: true } | { ok: false; conflicts: RowRef[] };

/**
 * One write of the embedder's own, made by the store inside a unit's commit transaction, on the
 * store's own connection `tx` (a better-sqlite3 `Database` for the SQLite store, the node-postgres
 * client holding the transaction for the PostgreSQL store, nothing for the memory store). It
 * runs after the unit's version checks and row writes; when it throws (or its promise rejects)
 * the whole unit is rolled back and `commit` rejects with that error.
 */
export type StoreWrite<Tx = unknown> = (tx: Tx) => unknown;

/** Options of {@link Store.commit}. */
export interface CommitOptions<Tx = unknown> {
  /**
   * Writes of the embedder's own that must be stored with the unit or not at all (credits
   * spent, outbound events): run in order inside the commit's transaction, only when no row
   * conflicts (a refused commit runs none of them). Docs: docs/decisions/0025.
   */
  writes?: readonly StoreWrite<Tx>[];
}

/**
 * Store: durable state of series, occurrences and attempts, shaped for a networked database.
 *
 * A unit of work of the runtime makes a bounded number of round trips whatever the number of
 * rows it handles: one `load` of every row it needs, one `commit` of every row it changed
 * (a dispatch batch of 512 occurrences is one load and one commit). Nothing is held open
 * between the two: concurrency is optimistic. Every record carries a `version`; a commit
 * writes a row only if its stored version still equals the version the unit read, and
 * otherwise refuses the WHOLE commit, naming the conflicting rows; the runtime reloads and
 * retries. The same check is the fencing of leased claims ({@link DueQuery.lease}), so
 * several processes may share one store, and a provider's webhook may be applied by any of
 * them (it loads the attempt by its id, which is also the idempotency key).
 *
 * Promises:
 * - `load(keys)`: the named rows plus, in the same read: for each occurrence its live attempt
 *   (`liveAttemptId`) and its series (`scheduleId`); for each attempt its occurrence (with
 *   that occurrence's live attempt and series); for each series its `nextOccurrenceId`
 *   occurrence (with its live attempt). One consistent read; unknown ids are left out.
 * - `commit(changes, { writes })`: atomic and all-or-nothing. An insert (`expectedVersion` null)
 *   whose id exists, or an update whose row is missing or at another version, is a conflict:
 *   nothing is written, no write is run, and the conflicting rows are named. The `writes` run
 *   in the same transaction after the rows; one that throws rolls everything back and the
 *   promise rejects with its error. Other failures reject the promise too.
 * - Records read back equal records written (every field, arrays included); the store never
 *   hands out an object through which a caller could change stored state, nor keeps one it
 *   was given.
 * - Listing methods are keyset-paged and make one round trip per page.
 *
 * Leaves out: accounts and phone numbers (the host's tables), holding locks across round trips,
 * listing for an API and deleting rows (history is kept): a store that serves an API answers
 * those through its read model and maintenance writes (`StoreReads`, `StoreMaintenance` in
 * engine/reads.ts), which the runtime never calls.
 */
export interface Store<Tx = unknown> {
  /** One round trip: the rows a unit of work needs (see the promises above). */
  load(keys: LoadKeys): Promise<Snapshot>;
  /**
   * One round trip (or one transaction, with `options.writes`): writes a unit's changes
   * atomically, with the caller's writes in the same transaction, or refuses them all on a
   * version conflict. A store never joins a transaction its caller opened: what must commit
   * with the unit is passed here, explicitly.
   */
  commit(changes: ChangeSet, options?: CommitOptions<Tx>): Promise<CommitResult>;
  /**
   * Everything due at or before `until`: occurrences by `nextDueAt` and standalone attempts
   * (occurrenceId null) by `deadlineAt`, ordered by (at, kind, id) with kind 'attempt' before
   * 'occurrence', strictly after `after` when given, at most `limit` rows.
   */
  listDue(query: DueQuery): Promise<DueRef[]>;
  /**
   * Attempts whose intent is stored but the provider's acceptance is not (status
   * `requested`, `providerCallId` null), ordered by id, strictly after `afterId`.
   * Reconciliation at start places them again with the same idempotency key.
   */
  listUnacknowledgedAttempts(limit: number, afterId?: string): Promise<AttemptRecord[]>;
  /** The attempts of one occurrence, by `n` ascending (for embedders and tests; the runtime does not need it). */
  listAttempts(occurrenceId: string): Promise<AttemptRecord[]>;
  /**
   * Pending occurrences resolved from a wall time under zone rules other than `version`
   * (`tzdataVersion` not null and different), by id: re-resolved when the rules change.
   */
  listStaleZoneOccurrences(
    version: string,
    limit: number,
    afterId?: string,
  ): Promise<OccurrenceRecord[]>;
  /** Occurrences whose fallback text is decided but not known sent (`fallbackState` 'pending'), by id. */
  listPendingFallbacks(limit: number, afterId?: string): Promise<OccurrenceRecord[]>;
  /**
   * Active, enabled series whose `nextOccurrenceId` is null or names an occurrence that is
   * missing or finished (a crash between two steps, or a series written without its
   * occurrence), by id. The runtime's start-up reconciliation gives each its next occurrence.
   */
  listSeriesWithoutNext(limit: number, afterId?: string): Promise<SeriesRecord[]>;
  /**
   * A store that commits to a journal and brings its tables up to date later (the SQLite
   * store, docs/decisions/0016) applies now what a read of its tables by someone else than the
   * store (the host's API, its admission counts) would miss: some accounts' rows, or every row.
   * The store's own methods never need it. Absent: the tables are always up to date.
   */
  settle?(scope?: SettleScope): Promise<void>;
}
