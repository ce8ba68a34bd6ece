/**
 * The versions of table rows the SQLite store's loads read (docs/decisions/0028, step 2): a
 * dispatch unit loads its occurrences from the table and commits them a moment later, and the
 * commit's version check would read the same rows again. A version noted here answers that
 * check instead, once.
 *
 * Why a noted version stays true: the store is the only writer of its tables, and it writes a
 * row in three ways only.
 * - A commit appends the row to the journal: every commit forgets the rows it writes
 *   ({@link TableVersions.take}, inside the commit's transaction), and while a row is in the
 *   journal the overlay, not this map, answers for it. A row is noted only when it was not in
 *   the journal, so the fold, which writes only journal rows, never writes a noted one.
 * - The maintenance writes (delete a series, erase or purge an account) write the tables
 *   directly: the store forgets everything before them.
 * - A fold inside a caller's transaction that rolls back brings journal rows back: the store
 *   forgets everything when it restores the overlay.
 * @module
 */

/** Noted versions per row id, for one table; at most `limit` (then it starts over). */
export class TableVersions {
  private readonly seen = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** Notes that the table holds `id` at `version` (read in a load). */
  note(id: string, version: number): void {
    // Rows a unit loads but never writes would stay: start over rather than grow.
    if (this.seen.size >= this.limit) this.seen.clear();
    this.seen.set(id, version);
  }

  /** The noted version of `id`, or undefined; either way `id` is forgotten (it is being written). */
  take(id: string): number | undefined {
    const version = this.seen.get(id);
    if (version !== undefined) this.seen.delete(id);
    return version;
  }

  /** Forgets every row (the tables were written outside a commit). */
  clear(): void {
    this.seen.clear();
  }
}
