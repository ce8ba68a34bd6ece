/**
 * The operator's audit log (`ops_audit`, migration 0024): one row per operator action, listed
 * newest first (GET /ops/audit).
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import type { Db } from './sql.js';

/** What an operator did. */
export type AuditAction =
  | 'block_number'
  | 'unblock_number'
  | 'enable_webhook_endpoint'
  | 'cancel_occurrence'
  | 'redeliver_webhook';

/** One entry. */
export interface AuditEntry {
  id: string;
  at: EpochMs;
  accountId: string;
  email: string;
  action: AuditAction;
  target: string;
  detail: Record<string, unknown>;
}

type Row = {
  seq: number | string;
  id: string;
  at: number | string;
  account_id: string;
  email: string;
  action: AuditAction;
  target: string;
  detail: string;
};

/** Records one action. */
export async function insertAudit(db: Db, e: AuditEntry): Promise<void> {
  await db.run(
    'INSERT INTO ops_audit (id, at, account_id, email, action, target, detail) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [e.id, e.at, e.accountId, e.email, e.action, e.target, JSON.stringify(e.detail)],
  );
}

/** Entries recorded before the one numbered `beforeSeq` (null: from the newest), newest first. */
export async function listAudit(
  db: Db,
  limit: number,
  beforeSeq: number | null,
): Promise<(AuditEntry & { seq: number })[]> {
  const rows = await db.all<Row>(
    'SELECT * FROM ops_audit WHERE seq < ? ORDER BY seq DESC LIMIT ?',
    [beforeSeq ?? Number.MAX_SAFE_INTEGER, limit],
  );
  return rows.map((r) => ({
    seq: Number(r.seq),
    id: r.id,
    at: Number(r.at),
    accountId: r.account_id,
    email: r.email,
    action: r.action,
    target: r.target,
    detail: JSON.parse(r.detail) as Record<string, unknown>,
  }));
}
