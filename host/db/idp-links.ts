/**
 * Identity-provider links: the subject an account is linked to and its sealed refresh token.
 * @module
 */
import type { Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';

/** One account's link. */
export interface IdpLink {
  accountId: string;
  subject: string;
  refreshTokenSealed: Buffer | null;
}

interface Row {
  account_id: string;
  subject: string;
  refresh_token_sealed: Buffer | null;
}

const fromRow = (r: Row): IdpLink => ({
  accountId: r.account_id,
  subject: r.subject,
  refreshTokenSealed: r.refresh_token_sealed,
});

/** The link of an account. */
export async function findIdpLink(db: Db, accountId: string): Promise<IdpLink | undefined> {
  const r = await db.get<Row>('SELECT * FROM idp_links WHERE account_id = ?', [accountId]);
  return r && fromRow(r);
}

/** The link holding a subject (any account). */
export async function findIdpLinkBySubject(db: Db, subject: string): Promise<IdpLink | undefined> {
  const r = await db.get<Row>('SELECT * FROM idp_links WHERE subject = ?', [subject]);
  return r && fromRow(r);
}

/** Links the account to `subject` (or keeps the link) and stores the sealed token. */
export async function saveIdpLink(
  db: Db,
  accountId: string,
  subject: string,
  sealed: Buffer | null,
  now: EpochMs,
): Promise<void> {
  await db.run(
    `INSERT INTO idp_links (account_id, subject, refresh_token_sealed, linked_at, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (account_id) DO UPDATE SET refresh_token_sealed = COALESCE(excluded.refresh_token_sealed, idp_links.refresh_token_sealed),
       updated_at = excluded.updated_at`,
    [accountId, subject, sealed, now, now],
  );
}

/** Forgets the refresh token once revoked (the subject stays until the purge). */
export async function clearIdpToken(db: Db, accountId: string, now: EpochMs): Promise<void> {
  await db.run(
    'UPDATE idp_links SET refresh_token_sealed = NULL, updated_at = ? WHERE account_id = ?',
    [now, accountId],
  );
}
