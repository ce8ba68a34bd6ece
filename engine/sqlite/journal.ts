/**
 * The dispatch journal of the SQLite store (docs/decisions/0016, 0028): every occurrence and
 * attempt a unit of work writes is appended as one row, keyed by commit order (`seq`) with no
 * secondary index. A row is either a full image (a JSON array in its table's column order) or,
 * for an update whose row before is known, a narrow row: the columns that changed, as
 * `{"b": base, "d": [column, value, …]}`, where `base` is the `seq` of the row's previous
 * journal row it applies to (0: the table's row; a folded base is the table's row too). The tables the API reads are brought up to date from it later ({@link Fold});
 * until then the {@link Overlay} in memory says which rows have newer images than their table,
 * at which version, when they are due and for which account.
 * @module
 */
import type { Database, Statement } from 'better-sqlite3';
import { journal as journalTable } from '../tables/journal.js';
import { renderTable } from '../tables/render.js';
import { ATTEMPT_COLUMNS, OCCURRENCE_COLUMNS } from './rows.js';

/**
 * The journal table, rendered from its definition (engine/tables/journal.ts): created by the
 * store when absent (the service's and an embedder's database alike).
 */
export const JOURNAL_SQL: string = renderTable(journalTable, 'sqlite');

export const OCCURRENCE = 1;
export const ATTEMPT = 2;
export type Kind = typeof OCCURRENCE | typeof ATTEMPT;

/** A row with images newer than its table's. */
export interface Pending {
  /** The newest image's journal row. */
  seq: number;
  version: number;
  /** Due key of the newest image (null: nothing due). */
  at: number | null;
  account: string | null;
  /** The newest image, while the cache has room; else read from the journal by `seq`. */
  row: unknown[] | null;
}

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

/** One second of due keys: entries sorted on demand; removed ones are skipped when read and dropped when many. */
interface Bucket {
  items: { at: number; id: string }[];
  sorted: boolean;
  live: number;
}

/**
 * Ids by due instant, in one-second buckets kept in order, each sorted by (instant, id) when it
 * is read, so that a page of due keys past a cursor costs the page (and a binary search), not a
 * scan of every pending row: a spike, or a restart after one, leaves hundreds of thousands of
 * them, many due in the same second.
 */
export class DueIndex {
  private readonly buckets = new Map<number, Bucket>();
  /** Bucket numbers, ascending. */
  private readonly order: number[] = [];

  add(id: string, at: number): void {
    const b = Math.floor(at / 1000);
    let bucket = this.buckets.get(b);
    if (!bucket) {
      this.buckets.set(b, (bucket = { items: [], sorted: true, live: 0 }));
      this.order.splice(this.position(b), 0, b);
    }
    const last = bucket.items[bucket.items.length - 1];
    if (last && (last.at > at || (last.at === at && last.id > id))) bucket.sorted = false;
    bucket.items.push({ at, id });
    bucket.live++;
  }

  /** Forgets `id` at `at` (its entry is skipped by `current` until the bucket is compacted). */
  remove(id: string, at: number, current: (id: string) => number | null | undefined): void {
    const b = Math.floor(at / 1000);
    const bucket = this.buckets.get(b);
    if (!bucket) return;
    if (--bucket.live <= 0) {
      this.buckets.delete(b);
      this.order.splice(this.position(b), 1);
    } else if (bucket.items.length > 64 && bucket.items.length > 2 * bucket.live) {
      bucket.items = bucket.items.filter((x) => x.id !== id && current(x.id) === x.at);
    }
  }

  /**
   * Entries with (at, id) after (`from`, `fromId`) and `at` ≤ `until`, in order, whose key is still
   * `current(id)`, until at least `limit` are given (the rest of the last bucket read too).
   */
  *range(
    from: number,
    fromId: string,
    until: number,
    limit: number,
    current: (id: string) => number | null | undefined,
  ): Generator<{ at: number; id: string }> {
    const last = Math.floor(until / 1000);
    let given = 0;
    // An id removed and added again at the same instant stands twice until its bucket is compacted.
    const seen = new Set<string>();
    for (
      let i = this.position(Math.floor(from / 1000));
      i < this.order.length && this.order[i]! <= last && given < limit;
      i++
    ) {
      const bucket = this.buckets.get(this.order[i]!)!;
      if (!bucket.sorted) {
        bucket.items.sort((x, y) => x.at - y.at || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
        bucket.sorted = true;
      }
      const items = bucket.items;
      let lo = 0;
      let hi = items.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const x = items[mid]!;
        if (x.at < from || (x.at === from && x.id <= fromId)) lo = mid + 1;
        else hi = mid;
      }
      for (let k = lo; k < items.length && given < limit; k++) {
        const x = items[k]!;
        if (x.at > until) break;
        if (current(x.id) !== x.at || seen.has(x.id)) continue;
        seen.add(x.id);
        given++;
        yield x;
      }
    }
  }

  clear(): void {
    this.buckets.clear();
    this.order.length = 0;
  }

  /** Index of the first bucket number ≥ b. */
  private position(b: number): number {
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.order[mid]! < b) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** An account's journal rows: `seqs` from `head` on. */
interface AccountRows {
  seqs: number[];
  head: number;
}

/** The key of rows without an account (standalone calls of nobody's) in {@link Overlay.accounts}. */
export const NO_ACCOUNT = '\u0000';

/**
 * Rows with unfolded images, by kind and id, and the journal rows of each account (a read of an
 * account folds just those; one with none needs nothing). `cacheLimit` bounds the images kept
 * in memory.
 */
export class Overlay {
  readonly occurrences = new Map<string, Pending>();
  readonly attempts = new Map<string, Pending>();
  /** Due keys of the pending rows, per kind. */
  readonly due = { occurrences: new DueIndex(), attempts: new DueIndex() };
  /** Journal rows per account ({@link NO_ACCOUNT} for rows without one), oldest first. */
  private readonly byAccount = new Map<string, AccountRows>();
  /** Journal rows in all. */
  rows = 0;
  private cached = 0;

  constructor(private readonly cacheLimit: number) {}

  map(kind: Kind): Map<string, Pending> {
    return kind === OCCURRENCE ? this.occurrences : this.attempts;
  }

  private dueIndex(kind: Kind): DueIndex {
    return kind === OCCURRENCE ? this.due.occurrences : this.due.attempts;
  }

  get size(): number {
    return this.occurrences.size + this.attempts.size;
  }

  /** Notes a journal row appended at `seq`. */
  add(
    kind: Kind,
    id: string,
    seq: number,
    version: number,
    at: number | null,
    account: string | null,
    row: unknown[] | null,
  ): void {
    const map = this.map(kind);
    const old = map.get(id);
    const keep =
      row !== null && (this.cached < this.cacheLimit || (old !== undefined && old.row !== null));
    const due = this.dueIndex(kind);
    const oldAt = old ? old.at : null;
    if (old) {
      if (old.row !== null && !keep) this.cached--;
      if (old.row === null && keep) this.cached++;
      old.seq = seq;
      old.version = version;
      old.at = at;
      old.row = keep ? row : null;
    } else {
      if (keep) this.cached++;
      map.set(id, { seq, version, at, account, row: keep ? row : null });
    }
    if (oldAt !== at) {
      if (oldAt !== null) due.remove(id, oldAt, (x) => map.get(x)?.at);
      if (at !== null) due.add(id, at);
    }
    this.rows++;
    const key = account ?? NO_ACCOUNT;
    const rows = this.byAccount.get(key);
    if (rows) rows.seqs.push(seq);
    else this.byAccount.set(key, { seqs: [seq], head: 0 });
  }

  /** The journal rows (`seq`) of an account (null: rows without one), oldest first. */
  rowsOf(account: string | null): readonly number[] {
    const rows = this.byAccount.get(account ?? NO_ACCOUNT);
    return rows ? rows.seqs.slice(rows.head) : [];
  }

  /** Notes a journal row folded (or removed): the row leaves the overlay when it was its newest image. */
  folded(kind: Kind, id: string, seq: number, account: string | null): void {
    const map = this.map(kind);
    const p = map.get(id);
    if (p && p.seq === seq) {
      if (p.row !== null) this.cached--;
      map.delete(id);
      if (p.at !== null) this.dueIndex(kind).remove(id, p.at, (x) => map.get(x)?.at);
    }
    this.rows--;
    const key = account ?? NO_ACCOUNT;
    const rows = this.byAccount.get(key);
    if (!rows) return;
    // Rows leave in commit order (the oldest first, or all of an account's at once): the head.
    if (rows.seqs[rows.head] === seq) rows.head++;
    else {
      const i = rows.seqs.indexOf(seq, rows.head);
      if (i >= 0) rows.seqs.splice(i, 1);
    }
    if (rows.head === rows.seqs.length) this.byAccount.delete(key);
    else if (rows.head > 64 && rows.head * 2 > rows.seqs.length) {
      rows.seqs = rows.seqs.slice(rows.head);
      rows.head = 0;
    }
  }

  clear(): void {
    this.occurrences.clear();
    this.attempts.clear();
    this.due.occurrences.clear();
    this.due.attempts.clear();
    this.byAccount.clear();
    this.rows = 0;
    this.cached = 0;
  }
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

  /** The newest image of a pending row of `kind`. */
  image(kind: Kind, id: string, p: Pending): unknown[] {
    if (p.row !== null) return p.row;
    const image = this.imageOf(kind, id, p.seq);
    if (image === undefined) throw new Error(`engine_journal: row ${p.seq} is missing`);
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
