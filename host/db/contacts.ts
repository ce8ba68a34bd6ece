/**
 * Contacts to tell: queries on `contacts` and `schedule_contacts` (migration 0021).
 * The rules are in host/contacts; the texts sent to contacts are in ./contact-texts.ts. The
 * invitation's code is kept here as hash, expiry and wrong tries, and this module is its
 * {@link CodeStore} (the rules are host/verification/code.ts).
 * @module
 */
import { idsIn, type Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';
import {
  afterWrongTry,
  type CodeState,
  type CodeStore,
  type IssuedCode,
} from '../verification/code.js';

/** Stored status (`expired` is derived: a pending contact whose invitation lapsed). */
export type ContactStatus = 'pending' | 'agreed' | 'stopped';

/** One contact, instants as epoch ms. */
export interface Contact {
  id: string;
  /** Insertion order (rowid): breaks ties between equal created_at. */
  seq: number;
  accountId: string;
  name: string;
  e164: string;
  countryCode: string;
  holderName: string;
  status: ContactStatus;
  invitedAt: EpochMs | null;
  invitationExpiresAt: EpochMs | null;
  agreedAt: EpochMs | null;
  agreedBy: 'reply' | 'code' | null;
  stoppedAt: EpochMs | null;
  createdAt: EpochMs;
  updatedAt: EpochMs;
  /** The number is blocked now (joined from phone_blocks). */
  blocked: boolean;
}

interface Row {
  id: string;
  seq: number;
  account_id: string;
  name: string;
  e164: string;
  country_code: string;
  holder_name: string;
  status: ContactStatus;
  invited_at: number | null;
  invitation_expires_at: number | null;
  agreed_at: number | null;
  agreed_by: 'reply' | 'code' | null;
  stopped_at: number | null;
  code_hash: string | null;
  code_salt: string | null;
  code_expires_at: number | null;
  failed_count: number;
  locked_until: number | null;
  created_at: number;
  updated_at: number;
  blocked: number;
}

const SELECT = `SELECT c.*, c.rowid AS seq, CASE WHEN b.e164 IS NULL THEN 0 ELSE 1 END AS blocked
  FROM contacts c LEFT JOIN phone_blocks b ON b.e164 = c.e164`;

const fromRow = (r: Row): Contact => ({
  id: r.id,
  seq: r.seq,
  accountId: r.account_id,
  name: r.name,
  e164: r.e164,
  countryCode: r.country_code,
  holderName: r.holder_name,
  status: r.status,
  invitedAt: r.invited_at,
  invitationExpiresAt: r.invitation_expires_at,
  agreedAt: r.agreed_at,
  agreedBy: r.agreed_by,
  stoppedAt: r.stopped_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  blocked: r.blocked === 1,
});

/** A new contact, before its invitation. */
export interface NewContact {
  id: string;
  accountId: string;
  name: string;
  e164: string;
  countryCode: string;
  holderName: string;
  at: EpochMs;
}

/**
 * Stores a pending contact (its invitation follows: {@link contactCodeStore}'s `save` and
 * {@link markInvited}), unless the account already names the number (`exists`) or has
 * `max` contacts (`full`): checked in the same transaction as the insert.
 */
export async function insertContact(
  db: Db,
  c: NewContact,
  max: number,
): Promise<'inserted' | 'exists' | 'full'> {
  return await db.tx(async (tx) => {
    if (
      await tx.get('SELECT 1 FROM contacts WHERE account_id = ? AND e164 = ?', [
        c.accountId,
        c.e164,
      ])
    )
      return 'exists' as const;
    const n = (await tx.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM contacts WHERE account_id = ?',
      [c.accountId],
    ))!.n;
    if (n >= max) return 'full' as const;
    await tx.run(
      `INSERT INTO contacts (id, account_id, name, e164, country_code, holder_name, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
      [c.id, c.accountId, c.name, c.e164, c.countryCode, c.holderName, c.at, c.at],
    );
    return 'inserted' as const;
  });
}

/** The account's contact with that id. */
export async function getContact(
  db: Db,
  accountId: string,
  id: string,
): Promise<Contact | undefined> {
  const r = await db.get<Row>(`${SELECT} WHERE c.id = ? AND c.account_id = ?`, [id, accountId]);
  return r && fromRow(r);
}

/** The account's contact with that number. */
export async function findContactByE164(
  db: Db,
  accountId: string,
  e164: string,
): Promise<Contact | undefined> {
  const r = await db.get<Row>(`${SELECT} WHERE c.account_id = ? AND c.e164 = ?`, [accountId, e164]);
  return r && fromRow(r);
}

/** A page of the account's contacts, oldest first, strictly after `after`. */
export async function listContacts(
  db: Db,
  accountId: string,
  page: { after: { createdAt: number; seq: number } | null; limit: number },
): Promise<Contact[]> {
  const rows = await db.all<Row>(
    `${SELECT} WHERE c.account_id = @account
       AND (CAST(@afterAt AS BIGINT) IS NULL OR c.created_at > @afterAt OR (c.created_at = @afterAt AND c.rowid > @afterSeq))
     ORDER BY c.created_at, c.rowid LIMIT @limit`,
    {
      account: accountId,
      afterAt: page.after?.createdAt ?? null,
      afterSeq: page.after?.seq ?? 0,
      limit: page.limit,
    },
  );
  return rows.map(fromRow);
}

/** A contact texted about one call, with that text's state (contact_texts). */
export interface ToldContact {
  contact: Contact;
  status: 'pending' | 'sent' | 'failed' | 'skipped';
  reason: string | null;
  sentAt: EpochMs | null;
}

/** The account's contacts texted that one call went unanswered, in the order they were claimed. */
export async function toldOfOccurrence(
  db: Db,
  accountId: string,
  occurrenceId: string,
): Promise<ToldContact[]> {
  const rows = await db.all<
    Row & {
      told_status: ToldContact['status'];
      told_reason: string | null;
      told_sent_at: number | null;
    }
  >(
    `SELECT c.*, c.rowid AS seq, CASE WHEN b.e164 IS NULL THEN 0 ELSE 1 END AS blocked,
            t.status AS told_status, t.reason AS told_reason, t.sent_at AS told_sent_at
       FROM contact_texts t JOIN contacts c ON c.id = t.contact_id LEFT JOIN phone_blocks b ON b.e164 = c.e164
      WHERE t.occurrence_id = ? AND t.account_id = ?
      ORDER BY t.created_at, c.created_at, c.rowid`,
    [occurrenceId, accountId],
  );
  return rows.map((r) => ({
    contact: fromRow(r),
    status: r.told_status,
    reason: r.told_reason,
    sentAt: r.told_sent_at === null ? null : Number(r.told_sent_at),
  }));
}

/** How many contacts the account has. */
export async function countContacts(db: Db, accountId: string): Promise<number> {
  return (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM contacts WHERE account_id = ?', [
    accountId,
  ]))!.n;
}

/** Renames a contact. */
export async function renameContact(db: Db, id: string, name: string, at: EpochMs): Promise<void> {
  await db.run('UPDATE contacts SET name = ?, updated_at = ? WHERE id = ?', [name, at, id]);
}

/** Removes a contact (its rule rows and text history go by cascade). Returns whether it existed. */
export async function deleteContact(db: Db, accountId: string, id: string): Promise<boolean> {
  return (
    (await db.run('DELETE FROM contacts WHERE id = ? AND account_id = ?', [id, accountId]))
      .changes === 1
  );
}

/** Removes every contact of an account at once (account deletion: nothing more is texted). */
export async function deleteAccountContacts(db: Db, accountId: string): Promise<void> {
  await db.run('DELETE FROM contacts WHERE account_id = ?', [accountId]);
}

/**
 * Records a new invitation (its code was saved by {@link contactCodeStore}): the contact is
 * pending again until `expiresAt`, whatever it was (the caller decides whether it may be invited).
 */
export async function markInvited(
  db: Db,
  id: string,
  holderName: string,
  at: EpochMs,
  expiresAt: EpochMs,
): Promise<void> {
  await db.run(
    `UPDATE contacts SET status = 'pending', holder_name = ?, invited_at = ?, invitation_expires_at = ?,
       agreed_at = NULL, agreed_by = NULL, stopped_at = NULL, updated_at = ?
     WHERE id = ?`,
    [holderName, at, expiresAt, at, id],
  );
}

/** Marks a pending contact agreed (its code is used up). Returns whether it changed. */
export async function markAgreed(
  db: Db,
  id: string,
  by: 'reply' | 'code',
  at: EpochMs,
): Promise<boolean> {
  const r = await db.run(
    `UPDATE contacts SET status = 'agreed', agreed_at = ?, agreed_by = ?, code_hash = NULL, code_salt = NULL,
       code_expires_at = NULL, failed_count = 0, locked_until = NULL, updated_at = ?
     WHERE id = ? AND status = 'pending'`,
    [at, by, at, id],
  );
  return r.changes === 1;
}

/** A pending contact whose invitation is still valid, with its code's hash (a reply YES <code> is checked against it). */
export interface ValidInvitation {
  contact: Contact;
  code: { hash: string; salt: string } | null;
}

/** The invitations to `e164` a reply may agree to at `at`: pending, not expired, in every account, newest first. */
export async function validInvitations(
  db: Db,
  e164: string,
  at: EpochMs,
): Promise<ValidInvitation[]> {
  const rows = await db.all<
    Row & { code_hash: string | null; code_salt: string | null; code_expires_at: number | null }
  >(
    `${SELECT} WHERE c.e164 = ? AND c.status = 'pending' AND c.invitation_expires_at > ?
     ORDER BY c.invited_at DESC, c.rowid DESC`,
    [e164, at],
  );
  return rows.map((r) => ({
    contact: fromRow(r),
    code:
      r.code_hash !== null &&
      r.code_salt !== null &&
      (r.code_expires_at === null || Number(r.code_expires_at) > at)
        ? { hash: r.code_hash, salt: r.code_salt }
        : null,
  }));
}

/** A reply agreed to this contact's invitation: agreed unless it stopped being pending meanwhile. The contact, or undefined. */
export async function agreeByReply(
  db: Db,
  contactId: string,
  at: EpochMs,
): Promise<Contact | undefined> {
  return await db.tx(async (tx) => {
    if (!(await markAgreed(tx, contactId, 'reply', at))) return undefined;
    const r = await tx.get<Row>(`${SELECT} WHERE c.id = ?`, [contactId]);
    return r && fromRow(r);
  });
}

/** STOP from `e164`: every contact with that number, in every account, is stopped at once. Returns how many. */
export async function stopContactsByNumber(db: Db, e164: string, at: EpochMs): Promise<number> {
  const r = await db.run(
    `UPDATE contacts SET status = 'stopped', stopped_at = ?, code_hash = NULL, code_salt = NULL, code_expires_at = NULL,
       updated_at = ?
     WHERE e164 = ? AND status <> 'stopped'`,
    [at, at, e164],
  );
  return r.changes;
}

interface CodeRow {
  code_hash: string | null;
  code_salt: string | null;
  code_expires_at: number | null;
  failed_count: number;
  locked_until: number | null;
}

/** The invitation codes, one per contact (key: the contact id). */
export function contactCodeStore(db: Db): CodeStore<string, Db> {
  const find = async (tx: Db, id: string): Promise<CodeState | undefined> => {
    const r = await tx.get<CodeRow>(
      'SELECT code_hash, code_salt, code_expires_at, failed_count, locked_until FROM contacts WHERE id = ?',
      [id],
    );
    return (
      r && {
        codeHash: r.code_hash,
        codeSalt: r.code_salt,
        codeExpiresAt: r.code_expires_at,
        failedCount: r.failed_count,
        lockedUntil: r.locked_until,
      }
    );
  };
  return {
    find: (id) => find(db, id),
    async save(id: string, code: IssuedCode, now: EpochMs) {
      await db.run(
        `UPDATE contacts SET code_hash = ?, code_salt = ?, code_expires_at = ?,
           failed_count = CASE WHEN locked_until IS NOT NULL AND locked_until <= ? THEN 0 ELSE failed_count END,
           locked_until = CASE WHEN locked_until IS NOT NULL AND locked_until <= ? THEN NULL ELSE locked_until END,
           updated_at = ?
         WHERE id = ?`,
        [code.hash, code.salt, code.expiresAt, now, now, now, id],
      );
    },
    async recordWrongTry(id, rules, now) {
      return await db.tx(async (tx) => {
        const state = await find(tx, id);
        const wrong = afterWrongTry(state ?? { failedCount: 0, lockedUntil: null }, rules, now);
        await tx.run(
          `UPDATE contacts SET failed_count = ?, locked_until = ?, updated_at = ?${
            wrong.discardCode ? ', code_hash = NULL, code_salt = NULL, code_expires_at = NULL' : ''
          } WHERE id = ?`,
          [wrong.failedCount, wrong.lockedUntil, now, id],
        );
        return wrong;
      });
    },
    async consume(id, codeHash, tx = db) {
      return (
        (
          await tx.run(
            'UPDATE contacts SET code_hash = NULL, code_salt = NULL WHERE id = ? AND code_hash = ?',
            [id, codeHash],
          )
        ).changes === 1
      );
    },
  };
}

// ---------------------------------------------------------------------------------------------
// A schedule's rule: schedule_contacts

/** A schedule's contacts to tell, as stored. */
export interface TellRule {
  scheduleId: string;
  tellUnconfirmed: boolean;
  /** The named contacts, in the order they were added. */
  contacts: Contact[];
}

/** The rules of these schedules, by schedule id (a schedule without one is absent). */
export async function tellRulesOf(
  db: Db,
  scheduleIds: readonly string[],
): Promise<Map<string, TellRule>> {
  const out = new Map<string, TellRule>();
  if (scheduleIds.length === 0) return out;
  const rows = await db.all<Row & { schedule_id: string; tell_unconfirmed: number }>(
    `SELECT c.*, c.rowid AS seq, CASE WHEN b.e164 IS NULL THEN 0 ELSE 1 END AS blocked, sc.schedule_id, sc.tell_unconfirmed
     FROM schedule_contacts sc JOIN contacts c ON c.id = sc.contact_id LEFT JOIN phone_blocks b ON b.e164 = c.e164
     WHERE sc.schedule_id IN ${idsIn(db)}
     ORDER BY sc.schedule_id, sc.rowid`,
    [JSON.stringify(scheduleIds)],
  );
  for (const r of rows) {
    let rule = out.get(r.schedule_id);
    if (!rule) {
      rule = { scheduleId: r.schedule_id, tellUnconfirmed: r.tell_unconfirmed === 1, contacts: [] };
      out.set(r.schedule_id, rule);
    }
    rule.contacts.push(fromRow(r));
  }
  return out;
}

/** Which of these ids name contacts of the account. */
export async function ownedContactIds(
  db: Db,
  accountId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.all<{ id: string }>(
    `SELECT id FROM contacts WHERE account_id = ? AND id IN ${idsIn(db)}`,
    [accountId, JSON.stringify(ids)],
  );
  return new Set(rows.map((r) => r.id));
}

/** Replaces a schedule's rule (no contacts: no rule). */
export async function replaceTellRule(
  db: Db,
  rule: {
    accountId: string;
    scheduleId: string;
    contactIds: readonly string[];
    tellUnconfirmed: boolean;
  },
  at: EpochMs,
): Promise<void> {
  await db.tx(async (tx) => {
    await tx.run('DELETE FROM schedule_contacts WHERE schedule_id = ?', [rule.scheduleId]);
    for (const contactId of rule.contactIds) {
      await tx.run(
        `INSERT INTO schedule_contacts (schedule_id, contact_id, account_id, tell_unconfirmed, created_at)
         SELECT ?, id, account_id, ?, ? FROM contacts WHERE id = ? AND account_id = ?`,
        [rule.scheduleId, rule.tellUnconfirmed ? 1 : 0, at, contactId, rule.accountId],
      );
    }
  });
}
