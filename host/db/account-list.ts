/**
 * Operator queries over all accounts (`admin accounts`): one row per live account with its
 * counts, oldest first. Deleted (anonymized) accounts are left out.
 * @module
 */
import type { Db } from './sql.js';
import { engineReads } from './engine-store.js';
import type { EpochMs } from '../../engine/index.js';

/** One listed account. */
export interface AccountListRow {
  id: string;
  email: string;
  createdAt: EpochMs;
  trialEndsAt: EpochMs;
  callsRevoked: boolean;
  phoneNumbers: number;
  schedules: number;
}

/** Live accounts, oldest first. */
export async function listAccounts(db: Db): Promise<AccountListRow[]> {
  const rows = await db.all<{
    id: string;
    email: string;
    created_at: number;
    trial_ends_at: number;
    calls_revoked_at: number | null;
    phone_numbers: number;
  }>(
    `SELECT a.id, a.email, a.created_at, a.trial_ends_at, a.calls_revoked_at,
              (SELECT COUNT(*) FROM phone_numbers p WHERE p.account_id = a.id) AS phone_numbers
         FROM accounts a WHERE a.deleted_at IS NULL ORDER BY a.created_at, a.id`,
  );
  // The schedules are the engine's series: counted through its read model.
  const series = await engineReads(db).countSeries(rows.map((r) => r.id));
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    createdAt: r.created_at,
    trialEndsAt: r.trial_ends_at,
    callsRevoked: r.calls_revoked_at !== null,
    phoneNumbers: r.phone_numbers,
    schedules: series.get(r.id)?.series ?? 0,
  }));
}
