/**
 * Rows of one account for GET /me/export, read in keyset batches (by rowid) so that memory
 * stays flat whatever the account's size, and so that no statement stays open while the
 * response waits on the network (better-sqlite3 allows one open iterator per connection).
 *
 * Rows are given as stored, with instants (`*_at` columns and `scheduled_at` etc.) as ISO
 * strings and JSON columns parsed; secret columns are never selected (see {@link SECTIONS}).
 * @module
 */
import type { Db } from './sql.js';
import {
  ATTEMPT_COLUMNS,
  attemptToRow,
  OCCURRENCE_COLUMNS,
  occurrenceToRow,
} from '../../engine/sqlite/index.js';
import { engineReads } from './engine-store.js';

type Row = Record<string, unknown>;

/** One exported kind of row: its key in the document, table, owner filter and left-out columns. */
export interface ExportSection {
  key: string;
  table: string;
  /** SQL condition on `account_id = ?` (the account id is bound once). */
  where: string;
  /** Columns never exported (secrets, hashes, parts of tokens). */
  omit: readonly string[];
  /** Adds derived fields (e.g. an API key's prefix). */
  extra?: (row: Row) => Row;
}

/**
 * The flat sections of the host's tables, in document order (the engine's rows, read through
 * the engine, come apart: occurrences with their attempts, schedules, calls).
 */
export const SECTIONS: readonly ExportSection[] = [
  {
    key: 'phone_numbers',
    table: 'phone_numbers',
    where: 'account_id = ?',
    omit: ['code_hash', 'code_salt'],
  },
  {
    key: 'api_keys',
    table: 'api_keys',
    where: 'account_id = ?',
    omit: ['key_hash', 'lookup'],
    extra: (r) => ({ prefix: `wuk_${String(r.lookup)}` }),
  },
  {
    key: 'sessions',
    table: 'sessions',
    where: 'account_id = ?',
    omit: ['token_hash', 'csrf_hash', 'lookup'],
  },
  {
    key: 'identity_links',
    table: 'idp_links',
    where: 'account_id = ?',
    omit: ['refresh_token_sealed'],
  },
  { key: 'devices', table: 'devices', where: 'account_id = ?', omit: ['push_token_hash'] },
  // Outbound webhooks: where the account's events go; the signing secrets never leave.
  {
    key: 'webhook_endpoints',
    table: 'webhook_endpoints',
    where: 'account_id = ?',
    omit: ['secret', 'previous_secret'],
  },
  // Contacts to tell: the invitation code's hash never leaves.
  { key: 'contacts', table: 'contacts', where: 'account_id = ?', omit: ['code_hash', 'code_salt'] },
  { key: 'schedule_contacts', table: 'schedule_contacts', where: 'account_id = ?', omit: [] },
  { key: 'contact_texts', table: 'contact_texts', where: 'account_id = ?', omit: [] },
];

const JSON_COLUMNS = new Set([
  'offsets_minutes',
  'days_of_week',
  'skip_dates',
  'retry_policy',
  'scopes',
  'event_types',
]);
const INSTANT_COLUMNS = /(_at|_until|^scheduled_at|^series_base)$/;

function present(raw: Row, omit: readonly string[], extra?: (row: Row) => Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(raw)) {
    if (
      k === '_rowid' ||
      k === 'rowid' ||
      k === 'lease_owner' ||
      k === 'lease_until' ||
      omit.includes(k)
    )
      continue;
    if (typeof v === 'number' && INSTANT_COLUMNS.test(k))
      out[k] = new Date(v).toISOString().replace('.000Z', 'Z');
    else if (typeof v === 'string' && JSON_COLUMNS.has(k)) out[k] = safeJson(v);
    else out[k] = v;
  }
  return extra ? { ...out, ...extra(raw) } : out;
}

function safeJson(v: string): unknown {
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** Batches of a section's rows, as exported. */
export async function* sectionBatches(
  db: Db,
  section: ExportSection,
  accountId: string,
  batchSize = 500,
): AsyncGenerator<Row[]> {
  let after = 0;
  const text = `SELECT rowid AS _rowid, * FROM ${section.table} WHERE ${section.where} AND rowid > ? ORDER BY rowid LIMIT ?`;
  for (;;) {
    const rows = await db.all<Row>(text, [accountId, after, batchSize]);
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!._rowid as number;
    yield rows.map((r) => present(r, section.omit, section.extra));
    if (rows.length < batchSize) return;
  }
}

/** An engine record as the row its table stores, by column name (as SQLite holds it: flags 0 and 1, JSON as text). */
function engineRow(columns: readonly string[], values: readonly unknown[]): Row {
  const row: Row = {};
  columns.forEach((c, i) => (row[c] = values[i]));
  return row;
}

/** Batches of the account's occurrences, each with its attempts (by number), read through the engine. */
export async function* occurrenceBatches(
  db: Db,
  accountId: string,
  batchSize = 200,
): AsyncGenerator<Row[]> {
  for (let after = 0; ;) {
    const { occurrences, attempts } = await engineReads(db).exportOccurrences(
      accountId,
      after,
      batchSize,
    );
    if (occurrences.length === 0) return;
    after = occurrences[occurrences.length - 1]!.seq;
    const byOccurrence = new Map<string, Row[]>();
    for (const a of attempts) {
      const list = byOccurrence.get(a.occurrenceId!) ?? [];
      list.push(present(engineRow(ATTEMPT_COLUMNS, attemptToRow(a)), ['script']));
      byOccurrence.set(a.occurrenceId!, list);
    }
    yield occurrences.map(({ record }) => ({
      ...present(engineRow(OCCURRENCE_COLUMNS, occurrenceToRow(record)), []),
      attempts: byOccurrence.get(record.id) ?? [],
    }));
    if (occurrences.length < batchSize) return;
  }
}

/** Batches of the account's standalone calls (test calls), read through the engine. */
export async function* standaloneCallBatches(
  db: Db,
  accountId: string,
  batchSize = 500,
): AsyncGenerator<Row[]> {
  for (let after = 0; ;) {
    const rows = await engineReads(db).exportStandaloneAttempts(accountId, after, batchSize);
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.seq;
    yield rows.map(({ record }) =>
      present(engineRow(ATTEMPT_COLUMNS, attemptToRow(record)), ['script']),
    );
    if (rows.length < batchSize) return;
  }
}

/** Rows built elsewhere (a feature's own, such as the schedules), presented as exported. */
export function exportedRows(rows: readonly Row[]): Row[] {
  return rows.map((r) => present(r, []));
}
