/**
 * The dispatch journal of the SQLite store (docs/decisions/0016): every occurrence and attempt
 * a unit of work writes is appended as one row, the row's full image in its table's column
 * order, keyed by commit order (`seq`) with no secondary index. The tables the API reads are
 * brought up to date from it later (./fold.ts); until then the overlay in memory
 * (./overlay.ts) says which rows have newer images than their table, at which version, when
 * they are due and for which account.
 * @module
 */
import type { Database, Statement } from 'better-sqlite3';
import { journal as journalTable } from '../tables/journal.js';
import { renderTable } from '../tables/render.js';
import type { Kind, Overlay, PendingRows } from './overlay.js';

/**
 * The journal table, rendered from its definition (engine/tables/journal.ts): created by the
 * store when absent (the service's and an embedder's database alike).
 */
export const JOURNAL_SQL: string = renderTable(journalTable, 'sqlite');

/** One row to append. */
export interface Entry {
  kind: Kind;
  id: string;
  version: number;
  at: number | null;
  account: string | null;
  row: unknown[];
}

/** Rows per INSERT statement, largest first (6 parameters each). */
const CHUNKS = [256, 64, 16, 4, 1] as const;

/** Appends entries to the journal and reads images back. */
export class Journal {
  private readonly inserts = new Map<number, Statement<unknown[]>>();
  private readonly imageAt: Statement<[number]>;

  constructor(private readonly db: Database) {
    db.exec(JOURNAL_SQL);
    for (const size of CHUNKS) {
      const values = Array.from({ length: size }, () => '(?, ?, ?, ?, ?, ?)').join(', ');
      this.inserts.set(
        size,
        db.prepare(
          `INSERT INTO engine_journal (kind, id, version, due_at, account_id, image) VALUES ${values}`,
        ),
      );
    }
    this.imageAt = db
      .prepare<[number]>('SELECT image FROM engine_journal WHERE seq = ?')
      .pluck(true);
  }

  /**
   * Appends `entries` in order (inside the caller's transaction) and answers the journal key
   * (`seq`) of each. The overlay is told only once the transaction has committed
   * ({@link Journal.note}): a rolled-back append leaves it as it was.
   * Consecutive rows of one statement get consecutive keys: the statement's last key tells them.
   */
  append(entries: readonly Entry[]): number[] {
    const seqs = new Array<number>(entries.length);
    let i = 0;
    for (const size of CHUNKS) {
      const stmt = this.inserts.get(size)!;
      while (entries.length - i >= size) {
        const params: unknown[] = new Array(size * 6);
        for (let k = 0; k < size; k++) {
          const e = entries[i + k]!;
          const p = k * 6;
          params[p] = e.kind;
          params[p + 1] = e.id;
          params[p + 2] = e.version;
          params[p + 3] = e.at;
          params[p + 4] = e.account;
          params[p + 5] = JSON.stringify(e.row);
        }
        const last = Number(stmt.run(params).lastInsertRowid);
        for (let k = 0; k < size; k++) seqs[i + k] = last - size + 1 + k;
        i += size;
      }
    }
    return seqs;
  }

  /** Notes committed `entries` (appended at `seqs`) in `overlay`. */
  static note(entries: readonly Entry[], seqs: readonly number[], overlay: Overlay): void {
    for (let k = 0; k < entries.length; k++) {
      const e = entries[k]!;
      overlay.add(e.kind, e.id, seqs[k]!, e.version, e.at, e.account, e.row);
    }
  }

  /** The newest image of the pending row at `slot` of `rows`: cached, or read from the journal. */
  image(rows: PendingRows, slot: number): unknown[] {
    const cached = rows.imageAt(slot);
    if (cached !== null) return cached;
    const seq = rows.seqAt(slot);
    const text = this.imageAt.get(seq) as string | undefined;
    if (text === undefined) throw new Error(`engine_journal: row ${seq} is missing`);
    return JSON.parse(text) as unknown[];
  }

  /** Rebuilds `overlay` from the journal (at open: the rows a stop or a crash left unfolded). */
  restore(overlay: Overlay): void {
    overlay.clear();
    const rows = this.db
      .prepare('SELECT seq, kind, id, version, due_at, account_id FROM engine_journal ORDER BY seq')
      .raw(true)
      .iterate() as IterableIterator<[number, Kind, string, number, number | null, string | null]>;
    for (const [seq, kind, id, version, at, account] of rows)
      overlay.add(kind, id, seq, version, at, account, null);
  }
}
