/**
 * Rows of one account for GET /me/export, read in keyset batches (by rowid) so that memory
 * stays flat whatever the account's size, and so that no statement stays open while the
 * response waits on the network (better-sqlite3 allows one open iterator per connection).
 *
 * Rows are given as stored, with instants (`*_at` columns and `scheduled_at` etc.) as ISO
 * strings and JSON columns parsed; secret columns are never selected (see {@link SECTIONS}).
 * @module
 */
import { idsIn, type Db } from './sql.js';
import { settleEngine } from './engine-store.js';

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

/** The flat sections, in document order (occurrences with their attempts are read separately). */
export const SECTIONS: readonly ExportSection[] = [
  { key: 'phone_numbers', table: 'phone_numbers', where: 'account_id = ?', omit: ['code_hash', 'code_salt'] },
  { key: 'schedules', table: 'schedules', where: 'account_id = ?', omit: [] },
  { key: 'calls', table: 'attempts', where: 'account_id = ? AND occurrence_id IS NULL', omit: ['script'] },
  {
    key: 'api_keys',
    table: 'api_keys',
    where: 'account_id = ?',
    omit: ['key_hash', 'lookup'],
    extra: (r) => ({ prefix: `wuk_${String(r.lookup)}` }),
  },
  { key: 'sessions', table: 'sessions', where: 'account_id = ?', omit: ['token_hash', 'csrf_hash', 'lookup'] },
  { key: 'identity_links', table: 'idp_links', where: 'account_id = ?', omit: ['refresh_token_sealed'] },
  { key: 'devices', table: 'devices', where: 'account_id = ?', omit: ['push_token_hash'] },
  // Outbound webhooks: where the account's events go; the signing secrets never leave.
  { key: 'webhook_endpoints', table: 'webhook_endpoints', where: 'account_id = ?', omit: ['secret', 'previous_secret'] },
];

const JSON_COLUMNS = new Set(['offsets_minutes', 'days_of_week', 'skip_dates', 'retry_policy', 'scopes', 'event_types']);
const INSTANT_COLUMNS = /(_at|_until|^scheduled_at|^series_base)$/;

function present(raw: Row, omit: readonly string[], extra?: (row: Row) => Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k === '_rowid' || k === 'rowid' || k === 'lease_owner' || k === 'lease_until' || omit.includes(k)) continue;
    if (typeof v === 'number' && INSTANT_COLUMNS.test(k)) out[k] = new Date(v).toISOString().replace('.000Z', 'Z');
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
export async function* sectionBatches(db: Db, section: ExportSection, accountId: string, batchSize = 500): AsyncGenerator<Row[]> {
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

/** Batches of the account's occurrences, each with its attempts (by number). */
export async function* occurrenceBatches(db: Db, accountId: string, batchSize = 200): AsyncGenerator<Row[]> {
  await settleEngine(db, { accounts: [accountId] });
  let after = 0;
  const occ = 'SELECT rowid AS _rowid, * FROM occurrences WHERE account_id = ? AND rowid > ? ORDER BY rowid LIMIT ?';
  // The batch's ids travel as one JSON array.
  const att = `SELECT * FROM attempts WHERE occurrence_id IN ${idsIn(db)} ORDER BY occurrence_id, n`;
  for (;;) {
    const rows = await db.all<Row>(occ, [accountId, after, batchSize]);
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!._rowid as number;
    const byOccurrence = new Map<string, Row[]>();
    for (const a of await db.all<Row>(att, [JSON.stringify(rows.map((r) => r.id))])) {
      const list = byOccurrence.get(a.occurrence_id as string) ?? [];
      list.push(present(a, ['script']));
      byOccurrence.set(a.occurrence_id as string, list);
    }
    yield rows.map((r) => ({ ...present(r, []), attempts: byOccurrence.get(r.id as string) ?? [] }));
    if (rows.length < batchSize) return;
  }
}
