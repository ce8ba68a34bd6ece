/**
 * Runs async work one at a time per key: in this process ({@link createKeyedQueue}, SQLite,
 * where one process owns the database), or across every host on one PostgreSQL
 * ({@link createPgKeyedQueues}).
 *
 * Code checks await a slow hash before they count a wrong guess; without a queue, many
 * guesses sent at once would all pass the lock check before the first wrong one is counted,
 * and a "5 wrong codes lock" rule would not hold. Sign-in (per address), account deletion
 * (per account), the demo call (per number) and phone verification (per number) queue their
 * checks here, each on a queue with a stable name from {@link KeyedQueues}.
 *
 * On PostgreSQL a run holds a session-level advisory lock,
 * `pg_advisory_lock(hashtextextended(name || ':' || key, 0))`, on a client of a small pool of
 * its own, taken before `fn` starts and always unlocked in `finally` (a client whose unlock
 * fails is destroyed, which ends its session and so the lock). Chosen over a
 * transaction-level lock because `fn` runs its own statements and transactions on the main
 * pool: a transaction held open around it would sit idle in transaction for the whole slow
 * hash. The lock pool is separate from the main pool so that lock holders waiting for the
 * main pool can never starve it (every main client held by a lock waiter, and the holder's
 * `fn` waiting for one). Within a process runs of one key first queue in memory, so one key
 * takes at most one lock client per process. Two different keys may hash alike (64 bits):
 * they then merely run one at a time.
 * @module
 */
import type pg from 'pg';
import { loadPg, type PostgresDb } from '../db/sql.js';

/** A queue keyed by string: `run(key, fn)` starts `fn` once every earlier `fn` of that key settled. */
export interface KeyedQueue {
  run<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

/** Makes the named queues of one app; `close()` frees what they hold (the lock pool). */
export interface KeyedQueues {
  /** The queue named `name` (stable across hosts: it scopes the keys); the same for the same name. */
  queue(name: string): KeyedQueue;
  close(): Promise<void>;
}

/** Creates an empty keyed queue; keys are forgotten once their last task settles. */
export function createKeyedQueue(): KeyedQueue {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run(key, fn) {
      const previous = tails.get(key) ?? Promise.resolve();
      const run = previous.then(fn, fn);
      const settled = run.catch(() => undefined);
      tails.set(key, settled);
      void settled.then(() => {
        if (tails.get(key) === settled) tails.delete(key);
      });
      return run;
    },
  };
}

/** Queues in process memory (SQLite). */
export function createMemoryKeyedQueues(): KeyedQueues {
  const queues = new Map<string, KeyedQueue>();
  return {
    queue(name) {
      let q = queues.get(name);
      if (!q) queues.set(name, (q = createKeyedQueue()));
      return q;
    },
    close: () => Promise.resolve(),
  };
}

/** At most this many runs of different keys hold an advisory lock at once in one process. */
export const LOCK_POOL_SIZE = 8;

/**
 * Queues across hosts on `db` (see the module header). `lockPool` replaces the pool of
 * {@link LOCK_POOL_SIZE} clients made from `db.pool`'s options (tests pass their own).
 */
export function createPgKeyedQueues(db: PostgresDb, lockPool?: pg.Pool): KeyedQueues {
  const pool = lockPool ?? new (loadPg().Pool)({ ...db.pool.options, max: LOCK_POOL_SIZE });
  if (!lockPool) pool.on('error', () => undefined);
  const withLock = async <T>(lockKey: string, fn: () => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [lockKey]);
    } catch (err) {
      client.release(true);
      throw err;
    }
    try {
      return await fn();
    } finally {
      try {
        await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lockKey]);
        client.release();
      } catch {
        // Destroying the client ends its session, and with it the lock.
        client.release(true);
      }
    }
  };
  const queues = new Map<string, KeyedQueue>();
  return {
    queue(name) {
      let q = queues.get(name);
      if (!q) {
        const local = createKeyedQueue();
        q = { run: (key, fn) => local.run(key, () => withLock(`${name}:${key}`, fn)) };
        queues.set(name, q);
      }
      return q;
    },
    async close() {
      if (!lockPool) await pool.end();
    },
  };
}
