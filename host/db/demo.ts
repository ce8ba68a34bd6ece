/**
 * Demo requests (migration 0009): one row per demo code sent to a number, with the code's
 * hash, its wrong-code counter and the demo call placed with it. Counting queries for the
 * daily caps read the same rows, so a cap counts exactly the codes sent.
 * @module
 */
import type { Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';
import { afterWrongTry, type CodeRules } from '../verification/code.js';

/** One demo request. */
export interface DemoRequest {
  id: string;
  e164: string;
  prefix: string;
  utcDay: string;
  codeHash: string;
  codeSalt: string;
  expiresAt: EpochMs;
  failedCount: number;
  endedAt: EpochMs | null;
  sent: boolean;
  callId: string | null;
  calledAt: EpochMs | null;
  calledDay: string | null;
  createdAt: EpochMs;
}

interface Row {
  id: string;
  e164: string;
  prefix: string;
  utc_day: string;
  code_hash: string;
  code_salt: string;
  expires_at: number;
  failed_count: number;
  ended_at: number | null;
  sent: number;
  call_id: string | null;
  called_at: number | null;
  called_day: string | null;
  created_at: number;
}

function toRequest(r: Row): DemoRequest {
  return {
    id: r.id,
    e164: r.e164,
    prefix: r.prefix,
    utcDay: r.utc_day,
    codeHash: r.code_hash,
    codeSalt: r.code_salt,
    expiresAt: r.expires_at,
    failedCount: r.failed_count,
    endedAt: r.ended_at,
    sent: r.sent === 1,
    callId: r.call_id,
    calledAt: r.called_at,
    calledDay: r.called_day,
    createdAt: r.created_at,
  };
}

/** What a new request stores. */
export interface NewDemoRequest {
  id: string;
  e164: string;
  prefix: string;
  utcDay: string;
  codeHash: string;
  codeSalt: string;
  expiresAt: EpochMs;
  createdAt: EpochMs;
}

/** Stores a request (before its text is sent). */
export async function insertDemoRequest(db: Db, r: NewDemoRequest): Promise<void> {
  await db.run(
    `INSERT INTO demo_requests (id, e164, prefix, utc_day, code_hash, code_salt, expires_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [r.id, r.e164, r.prefix, r.utcDay, r.codeHash, r.codeSalt, r.expiresAt, r.createdAt],
  );
}

/** Records that the provider accepted the code's text. */
export async function markDemoCodeSent(db: Db, id: string): Promise<void> {
  await db.run('UPDATE demo_requests SET sent = 1 WHERE id = ?', [id]);
}

/** Codes sent in the UTC day `utcDay`: everywhere, to one country prefix, to one number. */
export async function countDemoCodes(
  db: Db,
  utcDay: string,
  prefix: string,
  e164: string,
): Promise<{ all: number; prefix: number; number: number }> {
  const r = (await db.get<{ all_n: number; prefix_n: number | null; number_n: number | null }>(
    `SELECT COUNT(*) AS all_n, SUM(CASE WHEN prefix = ? THEN 1 ELSE 0 END) AS prefix_n, SUM(CASE WHEN e164 = ? THEN 1 ELSE 0 END) AS number_n
     FROM demo_requests WHERE utc_day = ?`,
    [prefix, e164, utcDay],
  ))!;
  return { all: r.all_n, prefix: r.prefix_n ?? 0, number: r.number_n ?? 0 };
}

/** Texts the provider accepted in the UTC day `utcDay` (for operators and the fraud test). */
export async function countDemoTextsSent(db: Db, utcDay: string): Promise<number> {
  return (await db.get<{ n: number }>(
    'SELECT COUNT(*) AS n FROM demo_requests WHERE utc_day = ? AND sent = 1',
    [utcDay],
  ))!.n;
}

/** The request of `e164` whose demo call was placed in the UTC day `utcDay`, if any. */
export async function findCalledRequest(
  db: Db,
  e164: string,
  utcDay: string,
): Promise<DemoRequest | undefined> {
  const r = await db.get<Row>(
    'SELECT * FROM demo_requests WHERE e164 = ? AND called_day = ? LIMIT 1',
    [e164, utcDay],
  );
  return r && toRequest(r);
}

/** The newest request of `e164` that may still take a code: not ended, not used for a call, not expired. */
export async function findLiveRequest(
  db: Db,
  e164: string,
  now: EpochMs,
): Promise<DemoRequest | undefined> {
  const r = await db.get<Row>(
    `SELECT * FROM demo_requests
     WHERE e164 = ? AND ended_at IS NULL AND call_id IS NULL AND expires_at > ?
     ORDER BY created_at DESC, rowid DESC LIMIT 1`,
    [e164, now],
  );
  return r && toRequest(r);
}

/**
 * Counts one wrong code against a request by the rules of host/verification/code.ts
 * ({@link afterWrongTry}): the `maxWrongTries`-th ends it. Returns the new count.
 */
export async function recordDemoWrongCode(
  db: Db,
  id: string,
  rules: CodeRules,
  now: EpochMs,
): Promise<number> {
  return await db.tx(async (tx) => {
    const r = await tx.get<{ failed_count: number }>(
      'SELECT failed_count FROM demo_requests WHERE id = ?',
      [id],
    );
    if (!r) return rules.maxWrongTries;
    const wrong = afterWrongTry({ failedCount: r.failed_count, lockedUntil: null }, rules, now);
    await tx.run(
      `UPDATE demo_requests SET failed_count = ?${wrong.discardCode ? ', ended_at = ?' : ''} WHERE id = ?`,
      [wrong.failedCount, ...(wrong.discardCode ? [now] : []), id],
    );
    return wrong.failedCount;
  });
}

/** Records the demo call placed with a request. */
export async function recordDemoCall(
  db: Db,
  id: string,
  callId: string,
  at: EpochMs,
  utcDay: string,
): Promise<void> {
  await db.run('UPDATE demo_requests SET call_id = ?, called_at = ?, called_day = ? WHERE id = ?', [
    callId,
    at,
    utcDay,
    id,
  ]);
}

/** Undoes {@link recordDemoCall} when the call could not be placed. */
export async function clearDemoCall(db: Db, id: string): Promise<void> {
  await db.run(
    'UPDATE demo_requests SET call_id = NULL, called_at = NULL, called_day = NULL WHERE id = ?',
    [id],
  );
}
