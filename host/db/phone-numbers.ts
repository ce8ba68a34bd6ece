/**
 * Phone numbers and number blocks: queries on `phone_numbers`, `phone_blocks` and
 * `phone_block_events` (migration 0003). Every function takes the database handle; every
 * change touching several rows runs in one transaction.
 * @module
 */
import { idsIn, type Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';
import { engineReads } from './engine-store.js';
import { recordNumberEvent } from './webhook-outbox.js';
import { afterWrongTry, type CodeRules, type WrongTry } from '../verification/code.js';

/** Why a number is blocked (PhoneNumberOut.blocked_reason). */
export type BlockReason = 'stop' | 'complaint' | 'manual' | 'key_9';
/** Who or what changed a block (audit trail). */
export type BlockSource = 'sms' | 'operator' | 'keypad' | 'verification' | 'provider';

/** One phone number with its block, instants as epoch ms. */
export interface PhoneNumber {
  id: string;
  /** Insertion order (rowid): breaks ties between equal created_at (the virtual clock stands still). */
  seq: number;
  accountId: string;
  e164: string;
  label: string;
  countryCode: string;
  type: string;
  isPrimary: boolean;
  verifiedAt: EpochMs | null;
  verificationExpiresAt: EpochMs | null;
  lastTestCallAt: EpochMs | null;
  lastConfirmedAt: EpochMs | null;
  codeHash: string | null;
  codeSalt: string | null;
  codeChannel: 'sms' | 'call' | null;
  codeExpiresAt: EpochMs | null;
  failedCount: number;
  lockedUntil: EpochMs | null;
  createdAt: EpochMs;
  updatedAt: EpochMs;
  /** The line's block, joined from phone_blocks; null when not blocked. */
  block: { reason: BlockReason; blockedAt: EpochMs } | null;
}

interface Row {
  id: string;
  seq: number;
  account_id: string;
  e164: string;
  label: string;
  country_code: string;
  type: string;
  is_primary: number;
  verified_at: number | null;
  verification_expires_at: number | null;
  last_test_call_at: number | null;
  last_confirmed_at: number | null;
  code_hash: string | null;
  code_salt: string | null;
  code_channel: 'sms' | 'call' | null;
  code_expires_at: number | null;
  failed_count: number;
  locked_until: number | null;
  created_at: number;
  updated_at: number;
  block_reason: BlockReason | null;
  blocked_at: number | null;
}

const SELECT = `SELECT p.*, p.rowid AS seq, b.reason AS block_reason, b.blocked_at AS blocked_at
  FROM phone_numbers p LEFT JOIN phone_blocks b ON b.e164 = p.e164`;

const fromRow = (r: Row): PhoneNumber => ({
  id: r.id,
  seq: r.seq,
  accountId: r.account_id,
  e164: r.e164,
  label: r.label,
  countryCode: r.country_code,
  type: r.type,
  isPrimary: r.is_primary === 1,
  verifiedAt: r.verified_at,
  verificationExpiresAt: r.verification_expires_at,
  lastTestCallAt: r.last_test_call_at,
  lastConfirmedAt: r.last_confirmed_at,
  codeHash: r.code_hash,
  codeSalt: r.code_salt,
  codeChannel: r.code_channel,
  codeExpiresAt: r.code_expires_at,
  failedCount: r.failed_count,
  lockedUntil: r.locked_until,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  block:
    r.block_reason !== null && r.blocked_at !== null
      ? { reason: r.block_reason, blockedAt: r.blocked_at }
      : null,
});

/** What {@link insertPhoneNumber} needs. */
export interface NewPhoneNumber {
  id: string;
  accountId: string;
  e164: string;
  label: string;
  countryCode: string;
  type: string;
  at: EpochMs;
}

/**
 * Adds a number to an account; the account's first number becomes its primary. Throws a
 * SQLite constraint error when the account already holds that number.
 */
export async function insertPhoneNumber(db: Db, n: NewPhoneNumber): Promise<PhoneNumber> {
  return await db.tx(async (tx) => {
    const hasPrimary = await tx.get(
      'SELECT 1 FROM phone_numbers WHERE account_id = ? AND is_primary = 1 AND deleted_at IS NULL',
      [n.accountId],
    );
    await tx.run(
      `INSERT INTO phone_numbers (id, account_id, e164, label, country_code, type, is_primary, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [n.id, n.accountId, n.e164, n.label, n.countryCode, n.type, hasPrimary ? 0 : 1, n.at, n.at],
    );
    return (await getPhoneNumber(tx, n.accountId, n.id))!;
  });
}

/** The account's number with that id (not deleted), or undefined (also for another account's). */
export async function getPhoneNumber(
  db: Db,
  accountId: string,
  id: string,
): Promise<PhoneNumber | undefined> {
  const r = await db.get<Row>(
    `${SELECT} WHERE p.id = ? AND p.account_id = ? AND p.deleted_at IS NULL`,
    [id, accountId],
  );
  return r && fromRow(r);
}

/** The ids of the account's numbers that are not deleted. */
export async function livePhoneNumberIds(db: Db, accountId: string): Promise<Set<string>> {
  const rows = await db.all<{ id: string }>(
    'SELECT id FROM phone_numbers WHERE account_id = ? AND deleted_at IS NULL',
    [accountId],
  );
  return new Set(rows.map((r) => r.id));
}

/** The id of the account's primary (not deleted) phone number, if any. */
export async function primaryPhoneNumberId(db: Db, accountId: string): Promise<string | undefined> {
  const r = await db.get<{ id: string }>(
    'SELECT id FROM phone_numbers WHERE account_id = ? AND is_primary = 1 AND deleted_at IS NULL',
    [accountId],
  );
  return r?.id;
}

/** The account's primary (not deleted) number, if any: the number a call without phone_number_id rings. */
export async function getPrimaryPhoneNumber(
  db: Db,
  accountId: string,
): Promise<PhoneNumber | undefined> {
  const r = await db.get<Row>(
    `${SELECT} WHERE p.account_id = ? AND p.is_primary = 1 AND p.deleted_at IS NULL`,
    [accountId],
  );
  return r && fromRow(r);
}

/** The account's (not deleted) number with that e164. */
export async function findPhoneNumberByE164(
  db: Db,
  accountId: string,
  e164: string,
): Promise<PhoneNumber | undefined> {
  const r = await db.get<Row>(
    `${SELECT} WHERE p.account_id = ? AND p.e164 = ? AND p.deleted_at IS NULL`,
    [accountId, e164],
  );
  return r && fromRow(r);
}

/** Position after which a page starts: the last item of the previous page. */
export interface PhoneNumberCursor {
  createdAt: EpochMs;
  seq: number;
}

/** A page of the account's numbers in creation order; `limit + 1` rows are read to tell whether more follow. */
export async function listPhoneNumbers(
  db: Db,
  accountId: string,
  page: { after: PhoneNumberCursor | null; limit: number },
): Promise<{ items: PhoneNumber[]; more: boolean }> {
  const rows = await db.all<Row>(
    `${SELECT} WHERE p.account_id = @account AND p.deleted_at IS NULL
       AND (CAST(@createdAt AS BIGINT) IS NULL OR p.created_at > @createdAt OR (p.created_at = @createdAt AND p.rowid > @seq))
     ORDER BY p.created_at, p.rowid LIMIT @limit`,
    {
      account: accountId,
      createdAt: page.after?.createdAt ?? null,
      seq: page.after?.seq ?? 0,
      limit: page.limit + 1,
    },
  );
  return { items: rows.slice(0, page.limit).map(fromRow), more: rows.length > page.limit };
}

/** Makes `id` the account's only primary number. */
export async function setPrimary(
  db: Db,
  accountId: string,
  id: string,
  at: EpochMs,
): Promise<void> {
  await db.tx(async (tx) => {
    await tx.run(
      'UPDATE phone_numbers SET is_primary = 0, updated_at = ? WHERE account_id = ? AND is_primary = 1 AND id <> ?',
      [at, accountId, id],
    );
    await tx.run(
      'UPDATE phone_numbers SET is_primary = 1, updated_at = ? WHERE id = ? AND account_id = ?',
      [at, id, accountId],
    );
  });
}

/** Sets the label. */
export async function setLabel(db: Db, id: string, label: string, at: EpochMs): Promise<void> {
  await db.run('UPDATE phone_numbers SET label = ?, updated_at = ? WHERE id = ?', [label, at, id]);
}

/**
 * Removes a number (soft delete: calls in history still name it). Schedules left on it
 * (disabled or finished ones; an active one makes the number in use) keep their history
 * with no number. When it was the primary, the account's oldest remaining number becomes
 * primary.
 */
export async function deletePhoneNumber(
  db: Db,
  accountId: string,
  id: string,
  at: EpochMs,
): Promise<void> {
  await db.tx(async (tx) => {
    const was = await tx.get<{ is_primary: number }>(
      'SELECT is_primary FROM phone_numbers WHERE id = ? AND account_id = ? AND deleted_at IS NULL',
      [id, accountId],
    );
    if (!was) return;
    await tx.run(
      `UPDATE phone_numbers SET deleted_at = ?, is_primary = 0, code_hash = NULL, code_salt = NULL, code_expires_at = NULL, updated_at = ?
       WHERE id = ?`,
      [at, at, id],
    );
    if (was.is_primary === 1) {
      await tx.run(
        `UPDATE phone_numbers SET is_primary = 1, updated_at = ?
         WHERE id = (SELECT id FROM phone_numbers WHERE account_id = ? AND deleted_at IS NULL ORDER BY created_at, rowid LIMIT 1)`,
        [at, accountId],
      );
    }
  });
}

/** Stores a new verification code (replacing any earlier one). */
export async function storeCode(
  db: Db,
  id: string,
  code: { hash: string; salt: string; channel: 'sms' | 'call'; expiresAt: EpochMs },
  at: EpochMs,
): Promise<void> {
  await db.run(
    'UPDATE phone_numbers SET code_hash = ?, code_salt = ?, code_channel = ?, code_expires_at = ?, updated_at = ? WHERE id = ?',
    [code.hash, code.salt, code.channel, code.expiresAt, at, id],
  );
}

/**
 * Counts a wrong code by the rules of host/verification/code.ts ({@link afterWrongTry}: a
 * lock that has run out is forgotten first; the `maxWrongTries`-th wrong code locks). A lock
 * invalidates the outstanding code: after it, a new code is needed. Returns the state after.
 */
export async function recordWrongCode(
  db: Db,
  id: string,
  at: EpochMs,
  rules: CodeRules,
): Promise<WrongTry> {
  return await db.tx(async (tx) => {
    const r = await tx.get<{ failed_count: number; locked_until: number | null }>(
      'SELECT failed_count, locked_until FROM phone_numbers WHERE id = ?',
      [id],
    );
    if (!r) return { failedCount: 0, lockedUntil: null, discardCode: false };
    const wrong = afterWrongTry(
      { failedCount: r.failed_count, lockedUntil: r.locked_until },
      rules,
      at,
    );
    await tx.run(
      `UPDATE phone_numbers SET failed_count = ?, locked_until = ?, updated_at = ?${
        wrong.discardCode ? ', code_hash = NULL, code_expires_at = NULL' : ''
      } WHERE id = ?`,
      [wrong.failedCount, wrong.lockedUntil, at, id],
    );
    return wrong;
  });
}

/**
 * Marks the number verified until `expiresAt`, uses up the code and clears the wrong-code
 * count. When the line was blocked by key 9, the block is lifted (the spec's "owner verifies
 * the number with a code").
 */
export async function markVerified(
  db: Db,
  id: string,
  at: EpochMs,
  expiresAt: EpochMs,
): Promise<PhoneNumber | undefined> {
  return await db.tx(async (tx) => {
    await tx.run(
      // The code's hash and expiry are kept: the code is used up (verified_at is after it was
      // sent), and a repeat of it is recognised as such (host/phone/verification.ts).
      `UPDATE phone_numbers SET verified_at = ?, verification_expires_at = ?, failed_count = 0, locked_until = NULL, updated_at = ?
       WHERE id = ?`,
      [at, expiresAt, at, id],
    );
    const r = await tx.get<Row>(`${SELECT} WHERE p.id = ?`, [id]);
    if (r?.block_reason === 'key_9') await unblockNumber(tx, r.e164, ['key_9'], 'verification', at);
    const after = await tx.get<Row>(`${SELECT} WHERE p.id = ?`, [id]);
    return after && fromRow(after);
  });
}

/** Records a test call placed to the number (GET shows last_test_call_at). */
export async function setLastTestCallAt(db: Db, id: string, at: EpochMs): Promise<void> {
  await db.run('UPDATE phone_numbers SET last_test_call_at = ?, updated_at = ? WHERE id = ?', [
    at,
    at,
    id,
  ]);
}

/**
 * Records a call confirmed on the number (key 1) at `at`, unless it already shows a later one
 * (two calls confirmed in units that commit out of order).
 */
export async function setLastConfirmedAt(db: Db, id: string, at: EpochMs): Promise<void> {
  await db.run(
    `UPDATE phone_numbers SET last_confirmed_at = ?, updated_at = ?
      WHERE id = ? AND (last_confirmed_at IS NULL OR last_confirmed_at < ?)`,
    [at, at, id, at],
  );
}

/** Current block of a line, or undefined. */
export async function getBlock(
  db: Db,
  e164: string,
): Promise<{ reason: BlockReason; note: string | null; blockedAt: EpochMs } | undefined> {
  const r = await db.get<{ reason: BlockReason; note: string | null; blocked_at: number }>(
    'SELECT reason, note, blocked_at FROM phone_blocks WHERE e164 = ?',
    [e164],
  );
  return r && { reason: r.reason, note: r.note, blockedAt: r.blocked_at };
}

/** Whether calls and texts to `e164` are refused. */
export async function isBlocked(db: Db, e164: string): Promise<boolean> {
  return (await db.get('SELECT 1 FROM phone_blocks WHERE e164 = ?', [e164])) !== undefined;
}

/** The blocked lines among these numbers, in one statement. */
export async function blockedAmong(db: Db, numbers: readonly string[]): Promise<Set<string>> {
  if (numbers.length === 0) return new Set();
  const rows = await db.all<{ e164: string }>(
    `SELECT e164 FROM phone_blocks WHERE e164 IN ${idsIn(db)}`,
    [JSON.stringify(numbers)],
  );
  return new Set(rows.map((r) => r.e164));
}

/**
 * Which reason wins when a blocked line is blocked again: an operator's block (complaint,
 * manual) is never downgraded to one the owner can lift; STOP outranks key 9 (START, not a
 * code, must lift a STOP).
 */
const RANK: Record<BlockReason, number> = { key_9: 0, stop: 1, manual: 2, complaint: 2 };

/**
 * Blocks a line (idempotent). Returns the reason in force afterwards, which stays the
 * stronger of the existing and the new one (see RANK).
 */
export async function blockNumber(
  db: Db,
  e164: string,
  reason: BlockReason,
  source: BlockSource,
  at: EpochMs,
  note: string | null = null,
): Promise<BlockReason> {
  return await db.tx(async (tx) => {
    const current = await getBlock(tx, e164);
    if (current && RANK[current.reason] >= RANK[reason] && !(current.reason === reason && note))
      return current.reason;
    await tx.run(
      `INSERT INTO phone_blocks (e164, reason, note, blocked_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (e164) DO UPDATE SET reason = excluded.reason, note = excluded.note, blocked_at = excluded.blocked_at`,
      [e164, reason, note, at],
    );
    await tx.run(
      'INSERT INTO phone_block_events (e164, action, reason, source, note, at) VALUES (?, ?, ?, ?, ?, ?)',
      [e164, 'block', reason, source, note, at],
    );
    // Outbound webhooks: each account holding the line hears of it, in this transaction.
    await recordNumberEvent(tx, { e164, type: 'phone_number.blocked', reason, source, at });
    return reason;
  });
}

/**
 * Lifts a line's block when its reason is one of `reasons` (START lifts only `stop`; a
 * verification only `key_9`; an operator any). Returns whether a block was lifted.
 */
export async function unblockNumber(
  db: Db,
  e164: string,
  reasons: readonly BlockReason[],
  source: BlockSource,
  at: EpochMs,
  note: string | null = null,
): Promise<boolean> {
  return await db.tx(async (tx) => {
    const current = await getBlock(tx, e164);
    if (!current || !reasons.includes(current.reason)) return false;
    await tx.run('DELETE FROM phone_blocks WHERE e164 = ?', [e164]);
    await tx.run(
      'INSERT INTO phone_block_events (e164, action, reason, source, note, at) VALUES (?, ?, ?, ?, ?, ?)',
      [e164, 'unblock', current.reason, source, note, at],
    );
    await recordNumberEvent(tx, {
      e164,
      type: 'phone_number.unblocked',
      reason: current.reason,
      source,
      at,
    });
    return true;
  });
}

/** Block history of a line, oldest first (for the admin CLI). */
export async function listBlockEvents(
  db: Db,
  e164: string,
): Promise<
  Array<{ action: string; reason: string; source: string; note: string | null; at: EpochMs }>
> {
  return await db.all<{
    action: string;
    reason: string;
    source: string;
    note: string | null;
    at: number;
  }>(
    'SELECT action, reason, source, note, at FROM phone_block_events WHERE e164 = ? ORDER BY at, id',
    [e164],
  );
}

/**
 * Whether an enabled wake-up call still rings the number (DELETE answers 409 number_in_use):
 * an enabled, active schedule on it (a paused recurring one included: it rings again later),
 * or an unfinished occurrence on it (pending, dispatching, calling or waiting).
 */
export async function numberInUse(db: Db, phoneNumberId: string): Promise<boolean> {
  const owner = await db.get<{ account_id: string }>(
    'SELECT account_id FROM phone_numbers WHERE id = ?',
    [phoneNumberId],
  );
  return (
    owner !== undefined &&
    (await engineReads(db).isPhoneNumberInUse(owner.account_id, phoneNumberId))
  );
}
