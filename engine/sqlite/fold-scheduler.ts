/**
 * When the SQLite store folds its journal into the tables (docs/decisions/0016): in the
 * background, in slices of at most `sliceMs` each followed by as long a pause (so it takes at
 * most half of the event loop), once the store has had no commit for `idleMs` (or between
 * commits when the journal passes `maxRows`); all of it, a slice at a time, for a settle
 * without a scope; the rows of some accounts at once for a settle with one. It also restores
 * the overlay when a fold inside a caller's transaction was rolled back. The fold itself (what
 * one fold transaction writes) is ./fold.ts.
 * @module
 */
import type { Database, Statement } from 'better-sqlite3';
import type { SettleScope } from '../ports.js';
import type { Fold } from './fold.js';
import type { Journal } from './journal.js';
import type { Overlay, PendingRows } from './overlay.js';
import type { StoreStatements } from './statements.js';

/** Journal rows one fold transaction takes at most (a slice runs several while time is left). */
const FOLD_CHUNK = 256;
/** A slice's length when the background fold is off (settles still fold in slices). */
const DEFAULT_SLICE_MS = 8;

/** The background fold's timing (see `SqliteStoreOptions.fold`), or null when it is off. */
export type FoldTiming = { sliceMs: number; idleMs: number; maxRows: number } | null;

/** Schedules the fold of one store's journal; see the module comment. */
export class FoldScheduler {
  /** Why the last background fold failed, or null. */
  error: unknown = null;
  /** How often the overlay was rebuilt from the journal since open: a settle inside a caller's transaction that rolled back. */
  restores = 0;
  /** Called when the overlay is rebuilt: the tables are back as they were before the fold. */
  onRestore: () => void = () => {};
  private lastCommitAt = -Infinity;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  // A fold inside a transaction of the caller's (a read's settle) is a savepoint: if the caller
  // rolls back, the overlay forgot rows that are back. The next call then reads it again.
  private nested = false;
  private readonly sliceMs: number;

  constructor(
    private readonly db: Database,
    private readonly overlay: Overlay,
    private readonly journal: Journal,
    private readonly fold: Fold,
    private readonly q: Pick<StoreStatements, 'occAccounts' | 'attAccounts'>,
    private readonly timing: FoldTiming,
    private readonly now: () => number,
  ) {
    this.sliceMs = timing?.sliceMs ?? DEFAULT_SLICE_MS;
    this.schedule(0);
  }

  /** Rebuilds the overlay when a fold inside a caller's transaction was rolled back with it. */
  check(): void {
    if (this.nested && !this.db.inTransaction) {
      this.nested = false;
      this.restores++;
      this.journal.restore(this.overlay);
      this.onRestore();
    }
  }

  /** After a commit: the background fold waits for `idleMs` without one. */
  committed(): void {
    this.lastCommitAt = this.now();
    this.schedule(this.timing?.idleMs ?? 0);
  }

  /** Folds the oldest rows for up to `sliceMs`; false when there was nothing to do or the connection was busy. */
  slice(sliceMs: number = this.sliceMs): boolean {
    if (this.db.inTransaction || !this.db.open) return false;
    this.check();
    if (this.overlay.rows === 0) return false;
    const end = this.now() + sliceMs;
    do this.fold.oldest(FOLD_CHUNK);
    while (this.overlay.rows > 0 && this.now() < end);
    return true;
  }

  /** Folds everything, a slice at a time, yielding to the event loop between slices. */
  async settleAll(): Promise<void> {
    this.check();
    while (this.overlay.rows > 0) {
      this.slice();
      if (this.overlay.rows > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Folds the journal rows of `scope` (see the Store port's `settle`), synchronously. */
  settleScope(scope: SettleScope): void {
    this.check();
    if (this.overlay.rows === 0) return;
    if (this.db.inTransaction) this.nested = true; // folded inside the caller's transaction: see check()
    const accounts: (string | null)[] = [...(scope.accounts ?? [])];
    const owner = (
      ids: readonly string[] | undefined,
      pending: PendingRows,
      stmt: Statement<[string]>,
    ) => {
      if (!ids?.length) return;
      const ask: string[] = [];
      for (const id of ids) {
        const account = pending.accountOf(id);
        if (account !== undefined) accounts.push(account);
        else ask.push(id);
      }
      if (ask.length > 0)
        for (const [account] of stmt.all(JSON.stringify(ask)) as [string | null][])
          accounts.push(account);
    };
    owner(scope.occurrences, this.overlay.occurrences, this.q.occAccounts);
    owner(scope.attempts, this.overlay.attempts, this.q.attAccounts);
    this.fold.accounts(accounts);
  }

  /** Stops the background fold. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(delayMs: number): void {
    const timing = this.timing;
    if (!timing || this.closed || this.timer || this.overlay.rows === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const idle = this.now() - this.lastCommitAt >= timing.idleMs;
      try {
        if (idle || this.overlay.rows >= timing.maxRows) this.slice(timing.sliceMs);
        this.error = null;
      } catch (error) {
        // The journal keeps the rows: try again later, and say why meanwhile.
        this.error = error;
        this.schedule(1000);
        return;
      }
      // At most half of the event loop while other work runs (a start-up, a restart's recovery):
      // after a slice the next waits as long as the slice took at most.
      this.schedule(idle ? timing.sliceMs : timing.idleMs);
    }, delayMs);
    this.timer.unref();
  }
}
