/**
 * The fold (docs/decisions/0016): applies journal rows to the `occurrences` and `attempts`
 * tables and removes them from the journal, in one transaction per call. Of several images of
 * one row only the newest is written, and only when its version is newer than the table's; a
 * row whose table row exists is updated in the columns that changed only (SQLite rewrites every
 * index whose columns appear in SET, changed or not). Occurrences go before attempts (an
 * attempt's occurrence is always journaled before it).
 * @module
 */
import type { Database, Statement } from 'better-sqlite3';
import type { Kind, Overlay } from './overlay.js';
import { ATTEMPT_COLUMNS, OCCURRENCE_COLUMNS } from './rows.js';

/** A journal row as the fold reads it. */
type JournalRow = [seq: number, kind: Kind, id: string, account: string | null, image: string];

interface Table {
  name: string;
  columns: readonly string[];
  current: Statement<[string]>;
  insert: Statement<unknown[]>;
  updates: Map<number, Statement<unknown[]>>;
}

function table(db: Database, name: string, columns: readonly string[]): Table {
  return {
    name,
    columns,
    current: db
      .prepare<[string]>(
        `SELECT ${columns.join(', ')} FROM ${name} WHERE id IN (SELECT value FROM json_each(?))`,
      )
      .raw(true),
    insert: db.prepare(
      `INSERT INTO ${name} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    ),
    updates: new Map(),
  };
}

/** The version column's position in a row image (the same in both tables' column lists). */
const OCC_VERSION = OCCURRENCE_COLUMNS.indexOf('version');
const ATT_VERSION = ATTEMPT_COLUMNS.indexOf('version');

/** See the module comment. */
export class Fold {
  private readonly occurrences: Table;
  private readonly attempts: Table;
  private readonly head: Statement<[number]>;
  private readonly bySeq: Statement<[string]>;
  private readonly dropUpTo: Statement<[number]>;
  private readonly dropSeqs: Statement<[string]>;
  private readonly chunk: (limit: number) => JournalRow[];
  private readonly some: (seqs: string) => JournalRow[];

  constructor(
    private readonly db: Database,
    private readonly overlay: Overlay,
  ) {
    this.occurrences = table(db, 'occurrences', OCCURRENCE_COLUMNS);
    this.attempts = table(db, 'attempts', ATTEMPT_COLUMNS);
    const cols = 'seq, kind, id, account_id, image';
    this.head = db
      .prepare<[number]>(`SELECT ${cols} FROM engine_journal ORDER BY seq LIMIT ?`)
      .raw(true);
    this.bySeq = db
      .prepare<[string]>(
        `SELECT ${cols} FROM engine_journal WHERE seq IN (SELECT value FROM json_each(?)) ORDER BY seq`,
      )
      .raw(true);
    this.dropUpTo = db.prepare<[number]>('DELETE FROM engine_journal WHERE seq <= ?');
    this.dropSeqs = db.prepare<[string]>(
      'DELETE FROM engine_journal WHERE seq IN (SELECT value FROM json_each(?))',
    );
    this.chunk = db.transaction((limit: number) => {
      const rows = this.head.all(limit) as JournalRow[];
      if (rows.length === 0) return rows;
      this.apply(rows);
      this.dropUpTo.run(rows[rows.length - 1]![0]);
      return rows;
    });
    this.some = db.transaction((seqs: string) => {
      const rows = this.bySeq.all(seqs) as JournalRow[];
      if (rows.length === 0) return rows;
      this.apply(rows);
      this.dropSeqs.run(seqs);
      return rows;
    });
  }

  /** Folds the oldest `limit` journal rows; returns how many. Not inside another transaction. */
  oldest(limit: number): number {
    return this.overlay.rows === 0 ? 0 : this.done(this.chunk(limit));
  }

  /** Folds every journal row of these accounts (null: rows without one), in one transaction; returns how many. */
  accounts(accounts: Iterable<string | null>): number {
    const seqs: number[] = [];
    for (const account of new Set(accounts))
      for (const seq of this.overlay.rowsOf(account)) seqs.push(seq);
    return seqs.length === 0 ? 0 : this.done(this.some(JSON.stringify(seqs)));
  }

  /** After the transaction committed: the folded rows leave the overlay. */
  private done(rows: JournalRow[]): number {
    for (const [seq, kind, id, account] of rows) this.overlay.folded(kind, id, seq, account);
    return rows.length;
  }

  private apply(rows: JournalRow[]): void {
    const newest = [new Map<string, unknown[]>(), new Map<string, unknown[]>()];
    for (const [, kind, id, , image] of rows)
      newest[kind - 1]!.set(id, JSON.parse(image) as unknown[]);
    this.write(this.occurrences, newest[0]!, OCC_VERSION);
    this.write(this.attempts, newest[1]!, ATT_VERSION);
  }

  private write(t: Table, images: Map<string, unknown[]>, versionAt: number): void {
    if (images.size === 0) return;
    const current = new Map<string, unknown[]>();
    for (const row of t.current.all(JSON.stringify([...images.keys()])) as unknown[][])
      current.set(row[0] as string, row);
    for (const [id, image] of images) {
      const before = current.get(id);
      if (!before) t.insert.run(image);
      else if ((before[versionAt] as number) < (image[versionAt] as number))
        this.update(t, before, image);
    }
  }

  /** Writes the columns of `after` that differ from `before` (one statement per set of columns, prepared once). */
  private update(t: Table, before: unknown[], after: unknown[]): void {
    let mask = 0;
    const values: unknown[] = [];
    for (let i = 1; i < t.columns.length; i++) {
      if (before[i] !== after[i]) {
        mask += 2 ** i;
        values.push(after[i]);
      }
    }
    if (mask === 0) return;
    let stmt = t.updates.get(mask);
    if (!stmt) {
      const set = t.columns
        .filter((_, i) => i > 0 && Math.floor(mask / 2 ** i) % 2 === 1)
        .map((c) => `${c} = ?`);
      stmt = this.db.prepare(`UPDATE ${t.name} SET ${set.join(', ')} WHERE id = ?`);
      t.updates.set(mask, stmt);
    }
    values.push(after[0]);
    stmt.run(values);
  }
}
