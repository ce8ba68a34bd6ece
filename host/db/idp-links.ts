/**
 * Identity-provider links: the subject an account is linked to and its sealed refresh token.
 * @module
 */
import type { Database } from 'better-sqlite3';
import type { EpochMs } from '../../engine/index.js';
import { sql } from './statements.js';

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

const fromRow = (r: Row): IdpLink => ({ accountId: r.account_id, subject: r.subject, refreshTokenSealed: r.refresh_token_sealed });

/** The link of an account. */
export function findIdpLink(db: Database, accountId: string): IdpLink | undefined {
  const r = sql<Row>(db, 'SELECT * FROM idp_links WHERE account_id = ?').get(accountId);
  return r && fromRow(r);
}

/** The link holding a subject (any account). */
export function findIdpLinkBySubject(db: Database, subject: string): IdpLink | undefined {
  const r = sql<Row>(db, 'SELECT * FROM idp_links WHERE subject = ?').get(subject);
  return r && fromRow(r);
}

/** Links the account to `subject` (or keeps the link) and stores the sealed token. */
export function saveIdpLink(db: Database, accountId: string, subject: string, sealed: Buffer | null, now: EpochMs): void {
  sql(
    db,
    `INSERT INTO idp_links (account_id, subject, refresh_token_sealed, linked_at, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (account_id) DO UPDATE SET refresh_token_sealed = COALESCE(excluded.refresh_token_sealed, refresh_token_sealed),
       updated_at = excluded.updated_at`,
  ).run(accountId, subject, sealed, now, now);
}

/** Forgets the refresh token once revoked (the subject stays until the purge). */
export function clearIdpToken(db: Database, accountId: string, now: EpochMs): void {
  sql(db, 'UPDATE idp_links SET refresh_token_sealed = NULL, updated_at = ? WHERE account_id = ?').run(now, accountId);
}
