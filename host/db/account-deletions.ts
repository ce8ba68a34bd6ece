/**
 * Account deletion in the database: the deletion record, anonymisation and the purge.
 *
 * - {@link markAccountDeleted} (one transaction, with the caller's other writes): the
 *   account row gets `deleted_at` and loses its personal data (e-mail replaced by a unique
 *   placeholder so that the address can sign up again, names, zone, onboarding flags),
 *   every session ends, every API key is revoked, the devices, the webhook endpoints
 *   (with their queued events) and the contacts to tell (with their rules and texts) are removed, and the deletion record is written.
 * - {@link scrubAccountCalls}: numbers, labels and messages leave the phone numbers, and
 *   through the engine its series, occurrences and finished attempts (run once the calls are
 *   cancelled, so that the runtime does not write a stored occurrence back over the scrub).
 * - {@link purgeAccount}: deletes every row the account owns: the engine's (series,
 *   occurrences, attempts) through the engine, then the account row, which takes by cascade
 *   what references it (sessions, API keys, numbers, codes, the identity link and tables later
 *   features add with ON DELETE CASCADE). Safe to run twice.
 * @module
 */
import type { Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';
import { engineReads, engineStore } from './engine-store.js';
import { deleteAccountWebhooks } from './webhook-endpoints.js';
import { deleteAccountContacts } from './contacts.js';

/** One deletion record. */
export interface AccountDeletion {
  accountId: string;
  deletedAt: EpochMs;
  purgeAt: EpochMs;
  callsStopped: boolean;
  idpRevoke: 'none' | 'pending' | 'done' | 'failed';
  purgedAt: EpochMs | null;
}

interface Row {
  account_id: string;
  deleted_at: number;
  purge_at: number;
  calls_stopped: number;
  idp_revoke: AccountDeletion['idpRevoke'];
  purged_at: number | null;
}

const fromRow = (r: Row): AccountDeletion => ({
  accountId: r.account_id,
  deletedAt: r.deleted_at,
  purgeAt: r.purge_at,
  callsStopped: r.calls_stopped === 1,
  idpRevoke: r.idp_revoke,
  purgedAt: r.purged_at,
});

/** The placeholder that replaces a deleted account's e-mail address (unique, never deliverable). */
export function deletedEmail(accountId: string): string {
  return `deleted-${accountId}@deleted.invalid`;
}

/** Marks the account deleted and anonymises it (see the module header). Call inside a transaction. */
export async function markAccountDeleted(
  db: Db,
  accountId: string,
  at: { now: EpochMs; purgeAt: EpochMs; idpRevoke: AccountDeletion['idpRevoke'] },
): Promise<void> {
  await db.run(
    `UPDATE accounts SET deleted_at = ?, updated_at = ?, email = ?, display_name = '', greeting_name = NULL,
       home_timezone = NULL, onboarding_state = '{}', marketing_opt_in = 0, digest_opt_in = 0
     WHERE id = ? AND deleted_at IS NULL`,
    [at.now, at.now, deletedEmail(accountId), accountId],
  );
  await db.run(
    `UPDATE sessions SET ended_at = ?, end_reason = 'account_deleted' WHERE account_id = ? AND ended_at IS NULL`,
    [at.now, accountId],
  );
  await db.run(
    'UPDATE api_keys SET revoked_at = ?, name = ? WHERE account_id = ? AND revoked_at IS NULL',
    [at.now, '', accountId],
  );
  await db.run('DELETE FROM deletion_codes WHERE account_id = ?', [accountId]);
  // Device names, models and reported zones are personal data; the app sessions bound to them ended above.
  await db.run('DELETE FROM devices WHERE account_id = ?', [accountId]);
  // Webhook endpoints (URLs, secrets) and their queued events go at once: nothing more is sent.
  await deleteAccountWebhooks(db, accountId);
  // Contacts are other people's numbers: gone at once (with their rules and texts), so none is texted again.
  await deleteAccountContacts(db, accountId);
  await db.run(
    `INSERT INTO account_deletions (account_id, deleted_at, purge_at, calls_stopped, idp_revoke) VALUES (?, ?, ?, 0, ?)
     ON CONFLICT (account_id) DO NOTHING`,
    [accountId, at.now, at.purgeAt, at.idpRevoke],
  );
}

/** Ids of the account's unfinished occurrences (pending, dispatching, calling, waiting). */
export async function unfinishedOccurrenceIds(db: Db, accountId: string): Promise<string[]> {
  return await engineReads(db).listUnfinishedOccurrenceIds(accountId);
}

/**
 * Removes numbers, labels and messages from the account's phone numbers and, through the
 * engine, from its finished occurrences and attempts and its series that are off (those still
 * live are left to the purge: the runtime rewrites their rows), and records that its calls are
 * stopped.
 */
export async function scrubAccountCalls(db: Db, accountId: string, now: EpochMs): Promise<void> {
  await engineStore(db).eraseAccount(accountId);
  await db.tx(async (tx) => {
    await tx.run(
      `UPDATE phone_numbers SET e164 = '', label = '', code_hash = NULL, code_salt = NULL, code_expires_at = NULL,
         deleted_at = COALESCE(deleted_at, ?), updated_at = ?
       WHERE account_id = ?`,
      [now, now, accountId],
    );
    await tx.run('UPDATE account_deletions SET calls_stopped = 1 WHERE account_id = ?', [
      accountId,
    ]);
  });
}

/** Records the outcome of revoking the identity-provider token. */
export async function setIdpRevoke(
  db: Db,
  accountId: string,
  state: AccountDeletion['idpRevoke'],
): Promise<void> {
  await db.run('UPDATE account_deletions SET idp_revoke = ? WHERE account_id = ?', [
    state,
    accountId,
  ]);
}

/** The deletion record of an account. */
export async function findAccountDeletion(
  db: Db,
  accountId: string,
): Promise<AccountDeletion | undefined> {
  const r = await db.get<Row>('SELECT * FROM account_deletions WHERE account_id = ?', [accountId]);
  return r && fromRow(r);
}

/** Deletions not yet purged, soonest purge first. */
export async function openAccountDeletions(db: Db): Promise<AccountDeletion[]> {
  return (
    await db.all<Row>('SELECT * FROM account_deletions WHERE purged_at IS NULL ORDER BY purge_at')
  ).map(fromRow);
}

/** Deletes every row the account owns (see the module header); idempotent. */
export async function purgeAccount(db: Db, accountId: string, now: EpochMs): Promise<void> {
  // The engine's rows first (its series, occurrences and attempts): a purge cut short is run again.
  await engineStore(db).purgeAccount(accountId);
  await db.tx(async (tx) => {
    await tx.run('DELETE FROM idempotency_keys WHERE scope = ?', [`account:${accountId}`]);
    // Events recorded since the deletion (its calls' cancellations) were never sent: no endpoint is left.
    await tx.run('DELETE FROM webhook_outbox WHERE account_id = ?', [accountId]);
    await tx.run('DELETE FROM accounts WHERE id = ?', [accountId]);
    await tx.run(
      'UPDATE account_deletions SET purged_at = COALESCE(purged_at, ?) WHERE account_id = ?',
      [now, accountId],
    );
  });
}
