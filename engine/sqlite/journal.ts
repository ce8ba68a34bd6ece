/**
 * The dispatch journal of the SQLite store (docs/decisions/0016, 0028): every occurrence and
 * attempt a unit of work writes is appended as one row, keyed by commit order (`seq`) with no
 * secondary index. A row is either a full image (a JSON array in its table's column order) or,
 * for an update whose row before is known, a narrow row: the columns that changed, as
 * `{"b": base, "d": [column, value, …]}`, where `base` is the `seq` of the row's previous
 * journal row it applies to (0: the table's row; a folded base is the table's row too). The
 * tables the API reads are brought up to date from it later (./fold.ts); until then the
 * overlay in memory (./overlay.ts) says which rows have newer images than their table, at which
 * version, when they are due and for which account.
 * @module
 */
import type { Database, Statement } from 'better-sqlite3';
import { journal as journalTable } from '../tables/journal.js';
import { renderTable } from '../tables/render.js';
import { type Kind, OCCURRENCE, type Overlay } from './overlay.js';
import { ATTEMPT_COLUMNS, OCCURRENCE_COLUMNS } from './rows.js';

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
  /** The row's whole new image (kept in the overlay's cache). */
  row: unknown[];
  /**
   * A narrow row: the `seq` of the row's journal row it applies to (0: the table's row) and the
   * changed columns as `[column, value, …]`; absent, `row` is appended whole.
   */
  narrow?: { base: number; changes: unknown[] };
}

/** A narrow journal row as stored (see the module comment). */
interface NarrowRow {
  b: number;
  d: unknown[];
}

/** `base` with a narrow row's `changes` applied (a new array). */
export function patch(base: readonly unknown[], changes: readonly unknown[]): unknown[] {
  const row = base.slice();
  for (let k = 0; k < changes.length; k += 2) row[changes[k] as number] = changes[k + 1];
  return row;
}

/** The stored text of an entry. */
function text(e: Entry): string {
  return e.narrow
    ? JSON.stringify({ b: e.narrow.base, d: e.narrow.changes } satisfies NarrowRow)
    : JSON.stringify(e.row);
}

/** A journal row's parsed text: a full image (an array) or a narrow row. */
export function parseImage(text: string): unknown[] | NarrowRow {
  return JSON.parse(text) as unknown[] | NarrowRow;
}

/** Rows per INSERT statement, largest first (6 parameters each). */
const CHUNKS = [256, 64, 16, 4, 1] as const;

/** Appends entries to the journal and reads images back. */
export class Journal {
  private readonly inserts = new Map<number, Statement<unknown[]>>();
  private readonly imageAt: Statement<[number]>;
  /** A table's row by id, per kind (the base of a narrow row): prepared on first use. */
  private readonly tableRow: (Statement<[string]> | null)[] = [null, null];

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
      .prepare<[number]>('SELECT id, image FROM engine_journal WHERE seq = ?')
      .raw(true);
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
          params[p + 5] = text(e);
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

  /** The newest image of a pending row of `kind`: `overlay`'s, or read from the journal. */
  image(kind: Kind, id: string, overlay: Overlay): unknown[] {
    const pending = overlay.pending(kind);
    const cached = pending.imageOf(id);
    if (cached !== null) return cached;
    const seq = pending.seqOf(id)!;
    const image = this.imageOf(kind, id, seq);
    if (image === undefined) throw new Error(`engine_journal: row ${seq} is missing`);
    return image;
  }

  /** The image at `seq`: a narrow row onto the one before it (the table's once that was folded). */
  private imageOf(kind: Kind, id: string, seq: number): unknown[] | undefined {
    const stored = this.read(id, seq);
    if (stored === undefined) return undefined;
    if (Array.isArray(stored)) return stored;
    const before =
      (stored.b > 0 ? this.imageOf(kind, id, stored.b) : undefined) ?? this.row(kind, id);
    if (before === undefined) throw new Error(`engine_journal: the row before ${seq} is missing`);
    return patch(before, stored.d);
  }

  /** The journal row at `seq`, when it is `id`'s (a folded row's `seq` may be given again). */
  private read(id: string, seq: number): unknown[] | NarrowRow | undefined {
    const row = this.imageAt.get(seq) as [string, string] | undefined;
    return row === undefined || row[0] !== id ? undefined : parseImage(row[1]);
  }

  private row(kind: Kind, id: string): unknown[] | undefined {
    let stmt = this.tableRow[kind - 1];
    if (!stmt) {
      const [table, columns] =
        kind === OCCURRENCE
          ? ['occurrences', OCCURRENCE_COLUMNS]
          : (['attempts', ATTEMPT_COLUMNS] as const);
      stmt = this.db
        .prepare<[string]>(`SELECT ${columns.join(', ')} FROM ${table} WHERE id = ?`)
        .raw(true);
      this.tableRow[kind - 1] = stmt;
    }
    return stmt.get(id) as unknown[] | undefined;
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
