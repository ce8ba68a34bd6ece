/**
 * The host's writes of one engine unit of work, in the transaction of its commit: a Store
 * wrapper that asks, at each commit, what the host must write with it (the credits admission
 * took, key 9's calls turned off and line blocked, the webhook events an outcome reports) and,
 * when there is anything, runs the engine's commit and those writes in one host transaction.
 * Either both are stored or neither: a crash loses no credit spent, no key 9 and no event of a
 * committed unit, and a commit the store refuses (a version conflict) writes nothing. A unit
 * with nothing to write (the dispatch loop's intents, ringing, answering: the hot path)
 * commits exactly as before, without a transaction around it.
 *
 * On SQLite the engine's store runs on the host's connection and its commit becomes a
 * savepoint of the transaction (engine/sqlite/store.ts is written for that); on PostgreSQL the
 * engine's statements issued from the transaction's flow run on its client (host/db/sql.ts,
 * `ambientQueryable`), so the commit statement is part of it (docs/decisions/0023).
 * @module
 */
import type { Store } from '../../engine/index.js';
import type { ChangeSet, CommitResult } from '../../engine/internals.js';
import type { Db } from './sql.js';

/** One write of the host, made in the transaction `tx` of a unit's commit. */
export type UnitWrite = (tx: Db) => Promise<unknown>;

/** Thrown inside the transaction to roll it back when the store refused the commit. */
class Refused extends Error {
  constructor(readonly result: CommitResult) {
    super('commit refused');
  }
}

/**
 * PostgreSQL errors after which the whole transaction runs again: the engine's store retries
 * its statement after a unique violation (a concurrent insert) or a deadlock, which inside a
 * transaction fails with "current transaction is aborted" (25P02) instead.
 */
const RUN_AGAIN = new Set(['23505', '25P02', '40P01']);
const RUNS = 5;

/** A Store that does what `store` does: the base of a wrapper that replaces some methods. */
export function delegateStore(store: Store): Store {
  return {
    load: (keys) => store.load(keys),
    commit: (changes) => store.commit(changes),
    listDue: (query) => store.listDue(query),
    listAttempts: (id) => store.listAttempts(id),
    listUnacknowledgedAttempts: (limit, afterId) => store.listUnacknowledgedAttempts(limit, afterId),
    listPendingFallbacks: (limit, afterId) => store.listPendingFallbacks(limit, afterId),
    listStaleZoneOccurrences: (version, limit, afterId) => store.listStaleZoneOccurrences(version, limit, afterId),
    listSeriesWithoutNext: (limit, afterId) => store.listSeriesWithoutNext(limit, afterId),
    ...(store.settle ? { settle: store.settle.bind(store) } : {}),
  };
}

/**
 * Wraps `store` (the engine's store on `db`): see the module header. `writesOf` is asked once
 * per commit; `committed` is called after a commit that wrote something.
 */
export function withUnitWrites(
  db: Db,
  store: Store,
  writesOf: (changes: ChangeSet) => readonly UnitWrite[],
  committed?: () => void,
): Store {
  return {
    ...delegateStore(store),
    async commit(changes) {
      const writes = writesOf(changes);
      if (writes.length === 0) return store.commit(changes);
      for (let run = 1; ; run++) {
        try {
          await db.tx(async (tx) => {
            const result = await store.commit(changes);
            if (!result.ok) throw new Refused(result);
            for (const write of writes) await write(tx);
          });
          committed?.();
          return { ok: true };
        } catch (err) {
          if (err instanceof Refused) return err.result;
          const code = (err as { code?: unknown }).code;
          if (run < RUNS && typeof code === 'string' && RUN_AGAIN.has(code)) continue;
          throw err;
        }
      }
    },
  };
}
