/**
 * The `engine_journal` table of the SQLite store (docs/decisions/0016): one row per occurrence
 * or attempt image a unit of work writes, keyed by commit order, with no secondary index.
 * @module
 */
import type { Table } from './define.js';

export const journal: Table = {
  name: 'engine_journal',
  only: 'sqlite',
  columns: [
    {
      name: 'seq',
      type: 'int64',
      primaryKey: true,
      note: 'commit order; the journal holds exactly the rows not yet folded',
    },
    { name: 'kind', type: 'int', note: '1 occurrence, 2 attempt' },
    { name: 'id', type: 'text' },
    { name: 'version', type: 'int64' },
    {
      name: 'due_at',
      type: 'epoch_ms',
      nullable: true,
      note: "the row's due key: an occurrence's next_due_at, a standalone attempt's deadline_at",
    },
    { name: 'account_id', type: 'text', nullable: true },
    { name: 'image', type: 'json', note: "JSON array: the row in its table's column order" },
  ],
  indexes: [],
};
