/**
 * The rows the PostgreSQL store's loads read, kept by id so that a commit of a row at the
 * version it was read at can send only the columns that changed (./commit-sql.ts). The commit
 * checks that version under a row lock, so the columns it does not send are still what the
 * load read; every writer of these tables bumps the version.
 *
 * Bounded: a row is dropped when a commit writes it, and the oldest row goes when the limit is
 * reached (a row loaded and never written). A row not found here is sent whole.
 * @module
 */

/** The loaded rows of one table: values in the mapper's column order, as the load read them. */
export class LoadedRows {
  private readonly rows = new Map<string, unknown[]>();

  constructor(
    /** Where the `version` column is in a row. */
    private readonly versionAt: number,
    /** How many rows are kept at most. */
    private readonly limit: number,
  ) {}

  /** Keeps a row read by a load (its id first), replacing what was kept for that id. */
  note(values: unknown[]): void {
    const id = values[0] as string;
    if (!this.rows.delete(id) && this.rows.size >= this.limit) {
      const oldest = this.rows.keys().next();
      if (!oldest.done) this.rows.delete(oldest.value);
    }
    this.rows.set(id, values);
  }

  /** The row with this id as read at `version`, dropped from the kept rows; undefined when not kept at that version. */
  take(id: string, version: number): unknown[] | undefined {
    const values = this.rows.get(id);
    if (values === undefined) return undefined;
    this.rows.delete(id);
    return Number(values[this.versionAt]) === version ? values : undefined;
  }
}
