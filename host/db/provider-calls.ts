/**
 * The ledger of provider calls (migration 0017): which attempt each call this service created
 * belongs to, and one placement to a number at a time across every host on the database.
 *
 * The Twilio-compatible adapter (host/adapters/twilio/telephony.ts) makes `placeCall`
 * idempotent by listing the provider's calls to the number before it dials and adopting one
 * that is the attempt's own. That is sound only if no other placement to the number runs
 * between the list and the record of what was created: in one process the adapter queues
 * them; across hosts (PostgreSQL) {@link createPlacementLedger}'s `exclusive` holds a lock row
 * per number for the list, the create and the record. Without it two hosts (a restarted one
 * reconciling an attempt that a live one is placing) could each list, find nothing and dial.
 *
 * The lock is a row, not an advisory lock, so that a placement holds no database connection
 * while it waits on the provider. It lapses after {@link PLACEMENT_LOCK_TTL_MS} (longer than
 * the list and the create together, each bounded by the client's timeout) so that a host that
 * dies holding it delays that number only; a host paused for longer than that while holding
 * it could overlap the next holder, the one case the ledger does not cover.
 *
 * A fresh placement (no earlier request for its attempt) does not list the provider's
 * calls: inside the number's lock it asks `placedFor` whether a recovery (which lists, then
 * notes `sending` before its create) already placed the attempt; only then does it list.
 *
 * A create whose outcome is unknown (the client timed out, the connection dropped) may still
 * be carried out by the provider after we gave up on it: a retry that listed the calls at
 * once would not see it and would dial again. So when the placement asked to `hold` the
 * number before its create and then failed, the lock is kept (by this process's id) for
 * {@link UNKNOWN_OUTCOME_HOLD_MS}; the retry waits for it and then finds the call in the list.
 * A placement that finds its number locked for longer than {@link LOCK_WAIT_MS} (such a hold,
 * or the lock of a process that died while placing) is deferred: it throws the engine's
 * `PlacementDeferred`, and the runtime gives its slot to other calls and asks again later.
 * The locks are taken on SQLite too (one process, but the same rule for its own retries).
 * @module
 */
import { randomUUID } from 'node:crypto';
import { PlacementDeferred } from '../../engine/index.js';
import type { PlacementLedger } from '../ports/telephony.js';
import type { Db } from './sql.js';
import { engineReads } from './engine-store.js';

/** A number's placement lock lapses this long after it was taken. */
export const PLACEMENT_LOCK_TTL_MS = 30_000;
/** After a create with an unknown outcome, the number stays locked this long. */
export const UNKNOWN_OUTCOME_HOLD_MS = 20_000;
/**
 * How long a placement waits for its number's lock before it is deferred
 * (`PlacementDeferred`): another placement to the number is over well within it.
 */
export const LOCK_WAIT_MS = 1_000;
/** A deferred placement is asked again within this long (sooner when the lock lapses sooner). */
const DEFER_AT_MOST_MS = 5_000;
/**
 * The `call_sid` prefix of a row that says a placement which looked up first is sending a
 * create for its key (`sending`): a fresh placement of that key then looks up too, instead of
 * dialling on the ledger's word alone (migration 0018 indexes the key).
 */
const SENDING = 'sending:';
/** Recorded calls are kept this long (the adapter looks back 30 minutes). */
export const PROVIDER_CALL_TTL_MS = 86_400_000;

/** The two times the ledger reads. */
export interface LedgerTime {
  /** The host's clock: the records' times, and when a deferred placement is asked again. */
  now: () => number;
  /**
   * Real wall time, for the locks: they wait out real network requests, and a virtual clock
   * (dev mode) may stand still. The root passes the system clock's `realTime`.
   */
  realTime: () => number;
}

/** The ledger on `db`. */
export function createPlacementLedger(
  db: Db,
  time: LedgerTime,
  options: { unknownOutcomeHoldMs?: number; lockWaitMs?: number } = {},
): PlacementLedger {
  const { now, realTime } = time;
  const holdMs = options.unknownOutcomeHoldMs ?? UNKNOWN_OUTCOME_HOLD_MS;
  const lockWaitMs = options.lockWaitMs ?? LOCK_WAIT_MS;
  const owner = randomUUID();
  let recorded = 0;

  // Locks run on real time, not the host's clock: they wait out real network requests (and a
  // virtual clock, in dev mode, may stand still).
  const tryLock = async (e164: string): Promise<boolean> => {
    const t = realTime();
    const row = await db.get(
      `INSERT INTO placement_locks (e164, owner, until) VALUES (?, ?, ?)
       ON CONFLICT (e164) DO UPDATE SET owner = excluded.owner, until = excluded.until
       WHERE placement_locks.until <= ?
       RETURNING owner`,
      [e164, owner, t + PLACEMENT_LOCK_TTL_MS, t],
    );
    return row !== undefined;
  };

  return {
    async exclusive(to, fn) {
      // Another placement to the number runs: it is over in a moment, so wait a little. A lock
      // still there after that is a create's outcome being waited out, or a dead process's
      // lock lapsing: the placement is deferred (the runtime asks again later and meanwhile
      // gives its slot to calls to other numbers).
      const deadline = realTime() + lockWaitMs;
      for (let wait = 10; !(await tryLock(to)); wait = Math.min(wait * 2, 500)) {
        if (realTime() >= deadline) {
          const row = await db.get<{ until: number | string }>(
            'SELECT until FROM placement_locks WHERE e164 = ?',
            [to],
          );
          const left = row ? Number(row.until) - realTime() : 0;
          throw new PlacementDeferred(
            now() + Math.min(Math.max(left, 50), DEFER_AT_MOST_MS),
            'the number is locked by another placement',
          );
        }
        await new Promise((r) => setTimeout(r, wait / 2 + Math.random() * wait));
      }
      let sent = false;
      let keep = false;
      try {
        return await fn(() => (sent = true));
      } catch (err) {
        if (sent) {
          keep = true;
          await db.run('UPDATE placement_locks SET until = ? WHERE e164 = ? AND owner = ?', [
            realTime() + holdMs,
            to,
            owner,
          ]);
        }
        throw err;
      } finally {
        if (!keep)
          await db.run('DELETE FROM placement_locks WHERE e164 = ? AND owner = ?', [to, owner]);
      }
    },

    async ownerOf(callSid) {
      const row = await db.get<{ k: string }>(
        'SELECT idempotency_key AS k FROM provider_calls WHERE call_sid = ?',
        [callSid],
      );
      // A call placed before the ledger kept it: the attempt the engine stored it on.
      return (
        row?.k ??
        (await engineReads(db).findAttemptByProviderCallId(callSid))?.idempotencyKey ??
        null
      );
    },

    async placedFor(idempotencyKey) {
      const rows = await db.all<{ sid: string }>(
        'SELECT call_sid AS sid FROM provider_calls WHERE idempotency_key = ?',
        [idempotencyKey],
      );
      const real = rows.find((r) => !r.sid.startsWith(SENDING));
      return real ? { callSid: real.sid } : rows.length > 0 ? 'unknown' : null;
    },

    async sending(idempotencyKey) {
      await db.run(
        'INSERT INTO provider_calls (call_sid, idempotency_key, created_at) VALUES (?, ?, ?) ON CONFLICT (call_sid) DO NOTHING',
        [`${SENDING}${idempotencyKey}`, idempotencyKey, now()],
      );
    },

    async unended(since, limit) {
      const rows = await db.all<{ sid: string; k: string }>(
        `SELECT p.call_sid AS sid, p.idempotency_key AS k FROM provider_calls p
         WHERE p.created_at >= ? AND p.call_sid NOT LIKE 'sending:%'
           AND NOT EXISTS (SELECT 1 FROM webhook_events e WHERE e.event_key = 'call:' || p.call_sid || ':ended')
         ORDER BY p.created_at LIMIT ?`,
        [since, limit],
      );
      return rows.map((r) => ({ callSid: r.sid, idempotencyKey: r.k }));
    },

    async record(callSid, idempotencyKey) {
      const t = now();
      await db.run(
        'INSERT INTO provider_calls (call_sid, idempotency_key, created_at) VALUES (?, ?, ?) ON CONFLICT (call_sid) DO NOTHING',
        [callSid, idempotencyKey, t],
      );
      if (++recorded % 100 === 0) {
        await db.run(
          'DELETE FROM provider_calls WHERE call_sid IN (SELECT call_sid FROM provider_calls WHERE created_at <= ? ORDER BY created_at LIMIT 1000)',
          [t - PROVIDER_CALL_TTL_MS],
        );
      }
    },
  };
}
