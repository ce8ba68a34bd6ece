/**
 * The engine's commits write their webhook events in the same transaction
 * (docs/decisions/0023): a Store wrapper that, when a unit's change set reports events
 * (host/webhooks/events.ts), runs the engine's commit inside a host transaction that also
 * inserts those events into the outbox. Either both are stored or neither: a crash can lose
 * no event of a committed outcome, and a commit the store refuses (a version conflict) records
 * none. A change set that reports nothing (the dispatch loop's intents, ringing, answering)
 * commits exactly as before, without a transaction around it.
 *
 * On SQLite the engine's store runs on the host's connection and its commit becomes a
 * savepoint of the transaction (engine/sqlite/store.ts is written for that); on PostgreSQL the
 * engine's statements issued from the transaction's flow run on its client (host/db/sql.ts,
 * `ambientQueryable`), so the commit statement is part of it.
 * @module
 */
import type { Store } from '../../engine/index.js';
import type { CommitResult } from '../../engine/internals.js';
import type { Db } from '../db/sql.js';
import { recordEvents } from '../db/webhook-outbox.js';
import { changeSetEvents } from './events.js';

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

/**
 * Wraps `store` (the engine's store on `db`): see the module header. `recorded` is called after
 * a commit that stored events (to nudge the delivery worker).
 */
export function withWebhookOutbox(db: Db, store: Store, recorded: () => void): Store {
  return {
    load: (keys) => store.load(keys),
    async commit(changes) {
      const events = changeSetEvents(changes);
      if (events.length === 0) return store.commit(changes);
      for (let run = 1; ; run++) {
        try {
          await db.tx(async (tx) => {
            const result = await store.commit(changes);
            if (!result.ok) throw new Refused(result);
            await recordEvents(tx, events, false);
          });
          recorded();
          return { ok: true };
        } catch (err) {
          if (err instanceof Refused) return err.result;
          const code = (err as { code?: unknown }).code;
          if (run < RUNS && typeof code === 'string' && RUN_AGAIN.has(code)) continue;
          throw err;
        }
      }
    },
    listDue: (query) => store.listDue(query),
    listAttempts: (id) => store.listAttempts(id),
    listUnacknowledgedAttempts: (limit, afterId) => store.listUnacknowledgedAttempts(limit, afterId),
    listPendingFallbacks: (limit, afterId) => store.listPendingFallbacks(limit, afterId),
    listStaleZoneOccurrences: (version, limit, afterId) => store.listStaleZoneOccurrences(version, limit, afterId),
    listSeriesWithoutNext: (limit, afterId) => store.listSeriesWithoutNext(limit, afterId),
    ...(store.settle ? { settle: store.settle.bind(store) } : {}),
  };
}
