/**
 * The built-in payment simulator's own records (table `sim_payment_sessions`, migration
 * 0008): its hosted checkouts and portal sessions, as a real provider keeps them on its side.
 * @module
 */
import type { Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';

/** One simulated hosted session. */
export interface SimSession {
  id: string;
  kind: 'checkout' | 'portal';
  accountId: string;
  customerId: string;
  planCode: string | null;
  successUrl: string;
  cancelUrl: string | null;
  status: 'open' | 'paid' | 'expired';
  createdAt: EpochMs;
  expiresAt: EpochMs;
}

interface Row {
  id: string;
  kind: 'checkout' | 'portal';
  account_id: string;
  customer_id: string;
  plan_code: string | null;
  success_url: string;
  cancel_url: string | null;
  status: 'open' | 'paid' | 'expired';
  created_at: number;
  expires_at: number;
}

/** Stores a session. */
export async function insertSimSession(db: Db, s: Omit<SimSession, 'status'>): Promise<void> {
  await db.run(
    `INSERT INTO sim_payment_sessions (id, kind, account_id, customer_id, plan_code, success_url, cancel_url, status, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?, ?)`,
    [
      s.id,
      s.kind,
      s.accountId,
      s.customerId,
      s.planCode,
      s.successUrl,
      s.cancelUrl,
      s.createdAt,
      s.expiresAt,
    ],
  );
}

/** The session with this id. */
export async function findSimSession(db: Db, id: string): Promise<SimSession | undefined> {
  const r = await db.get<Row>('SELECT * FROM sim_payment_sessions WHERE id = ?', [id]);
  return r
    ? {
        id: r.id,
        kind: r.kind,
        accountId: r.account_id,
        customerId: r.customer_id,
        planCode: r.plan_code,
        successUrl: r.success_url,
        cancelUrl: r.cancel_url,
        status: r.status,
        createdAt: r.created_at,
        expiresAt: r.expires_at,
      }
    : undefined;
}

/** Marks an open checkout paid; false when it was not open. */
export async function markSimSessionPaid(db: Db, id: string): Promise<boolean> {
  return (
    (
      await db.run(
        `UPDATE sim_payment_sessions SET status = 'paid' WHERE id = ? AND status = 'open'`,
        [id],
      )
    ).changes === 1
  );
}
