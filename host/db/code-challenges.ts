/**
 * Code challenges kept one row per key: `email_sign_in` (per address) and `deletion_codes`
 * (per account), each holding the current code's hash, its expiry and the wrong-try count and
 * lock. The two tables have the same columns but their key; this module is the
 * {@link CodeStore} of both (the rules are host/verification/code.ts). Codes themselves are
 * never stored.
 * @module
 */
import type { Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';
import { afterWrongTry, type CodeState, type CodeStore } from '../verification/code.js';

/** The tables of per-key challenges, with their key column (fixed names, never input). */
const TABLES = { email_sign_in: 'email', deletion_codes: 'account_id' } as const;

interface Row {
  code_hash: string | null;
  code_salt: string | null;
  code_expires_at: number | null;
  failed_count: number;
  locked_until: number | null;
}

const toState = (r: Row): CodeState => ({
  codeHash: r.code_hash,
  codeSalt: r.code_salt,
  codeExpiresAt: r.code_expires_at,
  failedCount: r.failed_count,
  lockedUntil: r.locked_until,
});

/** The store of one challenge table. */
export function challengeStore(db: Db, table: keyof typeof TABLES): CodeStore<string, Db> {
  const key = TABLES[table];
  const find = async (tx: Db, id: string) => {
    const r = await tx.get<Row>(`SELECT * FROM ${table} WHERE ${key} = ?`, [id]);
    return r && toState(r);
  };
  return {
    find: (id) => find(db, id),

    async save(id, code, now) {
      await db.run(
        `INSERT INTO ${table} (${key}, code_hash, code_salt, code_expires_at, failed_count, locked_until, updated_at)
         VALUES (?, ?, ?, ?, 0, NULL, ?)
         ON CONFLICT (${key}) DO UPDATE SET
           code_hash = excluded.code_hash, code_salt = excluded.code_salt, code_expires_at = excluded.code_expires_at,
           failed_count = CASE WHEN ${table}.locked_until IS NOT NULL AND ${table}.locked_until <= excluded.updated_at THEN 0 ELSE ${table}.failed_count END,
           locked_until = CASE WHEN ${table}.locked_until IS NOT NULL AND ${table}.locked_until <= excluded.updated_at THEN NULL ELSE ${table}.locked_until END,
           updated_at = excluded.updated_at`,
        [id, code.hash, code.salt, code.expiresAt, now],
      );
    },

    async recordWrongTry(id, rules, now) {
      return await db.tx(async (tx) => {
        await tx.run(
          `INSERT INTO ${table} (${key}, failed_count, updated_at) VALUES (?, 0, ?) ON CONFLICT (${key}) DO NOTHING`,
          [id, now],
        );
        const wrong = afterWrongTry((await find(tx, id))!, rules, now);
        await tx.run(
          `UPDATE ${table} SET failed_count = ?, locked_until = ?, updated_at = ?${
            wrong.discardCode ? ', code_hash = NULL, code_salt = NULL, code_expires_at = NULL' : ''
          } WHERE ${key} = ?`,
          [wrong.failedCount, wrong.lockedUntil, now, id],
        );
        return wrong;
      });
    },

    async consume(id, codeHash, tx = db) {
      return (
        (await tx.run(`DELETE FROM ${table} WHERE ${key} = ? AND code_hash = ?`, [id, codeHash]))
          .changes === 1
      );
    },
  };
}

/**
 * Removes sign-in challenge rows that hold no usable code and no running lock and have not
 * changed since `idleBefore` (at most 1,000 a call): what is left of wrong guesses at
 * addresses that never asked for a code, of used codes' locks, and of expired codes.
 */
export async function pruneIdleChallenges(
  db: Db,
  idleBefore: EpochMs,
  now: EpochMs,
): Promise<number> {
  return (
    await db.run(
      `DELETE FROM email_sign_in WHERE email IN (
       SELECT email FROM email_sign_in
       WHERE updated_at < ?
         AND (code_hash IS NULL OR code_expires_at IS NULL OR code_expires_at <= ?)
         AND (locked_until IS NULL OR locked_until <= ?)
       LIMIT 1000)`,
      [idleBefore, now, now],
    )
  ).changes;
}
