/**
 * Sessions: app sessions (token `wus_…`, sent as Bearer or X-Session-Token) and web sessions
 * (cookie `sessionid` = `wuw_…`, with a CSRF token). Only hashes are stored.
 * @module
 */
import { unprefixed, type Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';
import { accountOfRow, type Account, type AccountRow } from './accounts.js';

/** One stored session. */
export interface Session {
  id: string;
  accountId: string;
  kind: 'app' | 'web';
  lookup: string;
  tokenHash: string;
  csrfHash: string | null;
  installationId: string | null;
  createdAt: EpochMs;
  lastUsedAt: EpochMs;
  endedAt: EpochMs | null;
}

interface Row {
  id: string;
  account_id: string;
  kind: 'app' | 'web';
  lookup: string;
  token_hash: string;
  csrf_hash: string | null;
  installation_id: string | null;
  created_at: number;
  last_used_at: number;
  ended_at: number | null;
}

const fromRow = (r: Row): Session => ({
  id: r.id,
  accountId: r.account_id,
  kind: r.kind,
  lookup: r.lookup,
  tokenHash: r.token_hash,
  csrfHash: r.csrf_hash,
  installationId: r.installation_id,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  endedAt: r.ended_at,
});

/** Stores a new session. */
export async function insertSession(
  db: Db,
  s: Pick<
    Session,
    'id' | 'accountId' | 'kind' | 'lookup' | 'tokenHash' | 'csrfHash' | 'installationId'
  >,
  now: EpochMs,
): Promise<void> {
  await db.run(
    `INSERT INTO sessions (id, account_id, kind, lookup, token_hash, csrf_hash, installation_id, created_at, last_used_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [s.id, s.accountId, s.kind, s.lookup, s.tokenHash, s.csrfHash, s.installationId, now, now],
  );
}

/** The session whose token has this lookup part (ended ones included). */
export async function findSessionByLookup(db: Db, lookup: string): Promise<Session | undefined> {
  const r = await db.get<Row>('SELECT * FROM sessions WHERE lookup = ?', [lookup]);
  return r && fromRow(r);
}

/**
 * The session whose token has this lookup part (ended ones included) and its live account
 * (undefined when deleted), in one statement: what every request with a session reads.
 */
export async function findSessionWithAccount(
  db: Db,
  lookup: string,
): Promise<{ session: Session; account: Account | undefined } | undefined> {
  const r = await db.get<AccountRow & Record<`s_${keyof Row}`, unknown>>(
    `SELECT a.*, s.id AS s_id, s.account_id AS s_account_id, s.kind AS s_kind, s.lookup AS s_lookup, s.token_hash AS s_token_hash,
            s.csrf_hash AS s_csrf_hash, s.installation_id AS s_installation_id, s.created_at AS s_created_at,
            s.last_used_at AS s_last_used_at, s.ended_at AS s_ended_at
     FROM sessions s LEFT JOIN accounts a ON a.id = s.account_id AND a.deleted_at IS NULL
     WHERE s.lookup = ?`,
    [lookup],
  );
  if (!r) return undefined;
  const session = fromRow(unprefixed<Row>(r, 's_'));
  return { session, account: r.id === null ? undefined : accountOfRow(r) };
}

/** Records a use (sliding expiry). */
export async function touchSession(db: Db, id: string, now: EpochMs): Promise<void> {
  await db.run('UPDATE sessions SET last_used_at = ? WHERE id = ? AND ended_at IS NULL', [now, id]);
}

/** Ends one session (logout). Returns false when it had already ended. */
export async function endSession(
  db: Db,
  id: string,
  reason: string,
  now: EpochMs,
): Promise<boolean> {
  return (
    (
      await db.run(
        'UPDATE sessions SET ended_at = ?, end_reason = ? WHERE id = ? AND ended_at IS NULL',
        [now, reason, id],
      )
    ).changes === 1
  );
}

/**
 * Ends every live app session bound to an installation (device deleted or evicted).
 * Returns how many ended.
 */
export async function endSessionsOfInstallation(
  db: Db,
  accountId: string,
  installationId: string,
  reason: string,
  now: EpochMs,
): Promise<number> {
  return (
    await db.run(
      `UPDATE sessions SET ended_at = ?, end_reason = ?
     WHERE account_id = ? AND installation_id = ? AND ended_at IS NULL`,
      [now, reason, accountId, installationId],
    )
  ).changes;
}

/** Ends every live session of an account (account deletion). */
export async function endSessionsOfAccount(
  db: Db,
  accountId: string,
  reason: string,
  now: EpochMs,
): Promise<number> {
  return (
    await db.run(
      'UPDATE sessions SET ended_at = ?, end_reason = ? WHERE account_id = ? AND ended_at IS NULL',
      [now, reason, accountId],
    )
  ).changes;
}

/** The session with this id (ended ones included). */
export async function findSessionById(db: Db, id: string): Promise<Session | undefined> {
  const r = await db.get<Row>('SELECT * FROM sessions WHERE id = ?', [id]);
  return r && fromRow(r);
}

/** Binds an app session made without installation_id to one (POST /devices). Returns whether it was bound. */
export async function bindSessionToInstallation(
  db: Db,
  id: string,
  installationId: string,
): Promise<boolean> {
  return (
    (
      await db.run(
        `UPDATE sessions SET installation_id = ? WHERE id = ? AND kind = 'app' AND installation_id IS NULL AND ended_at IS NULL`,
        [installationId, id],
      )
    ).changes === 1
  );
}
