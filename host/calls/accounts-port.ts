/**
 * The engine's {@link Accounts} port on the host's tables: admission by the rules of
 * `admission.ts`, and key 9 (calls off for the account, the line blocked with reason key_9).
 *
 * Both run while the runtime computes a unit of work, on the same database connection as the
 * Store. The runtime calls `Store.commit` right after the computation without awaiting in
 * between, and the SQLite store commits synchronously, so the admission reads and the
 * unit's writes happen back to back, with no other unit in between. Key 9's writes are
 * idempotent (a unit refused on a conflict is computed again).
 *
 * Why a ledger: the runtime writes a unit's new attempt rows only at its commit, after every
 * admission of the unit was asked. Counting rows alone would let two calls due in the same
 * unit both take the last trial call or the last call of the day. {@link createAccountsPort}
 * therefore also wraps the Store: the calls admitted since the last commit are kept in a
 * ledger, added to what the tables say, and dropped at each commit (then they are rows, or
 * refused).
 * @module
 */
import type { Database } from 'better-sqlite3';
import type { Accounts, Store, StopRequest } from '../../engine/index.js';
import { revokeCalls } from '../db/account-calls.js';
import { blockNumber } from '../db/phone-numbers.js';
import { admitCall, type LedgerEntry } from './admission.js';

/** Options of {@link createAccountsPort}. */
export interface AccountsPortOptions {
  db: Database;
  /** Calls placed per account per UTC day (config WAKEUP_DAILY_CAP). */
  dailyCap: number;
  /** Called after key 9 was recorded (logging). */
  onStop?: (request: StopRequest) => void;
}

/** The port and the Store wrapper that gives each unit of work its ledger. */
export interface AccountsPort {
  accounts: Accounts;
  /** Wraps the runtime's Store: must be the Store the runtime uses for the ledger to work. */
  wrapStore(store: Store): Store;
}

/** Creates the port. */
export function createAccountsPort(options: AccountsPortOptions): AccountsPort {
  const { db, dailyCap } = options;
  let ledger: LedgerEntry[] = [];

  const accounts: Accounts = {
    admit(call) {
      const r = admitCall(db, dailyCap, call, ledger);
      if (!r.ok) return r;
      if (call.accountId !== null)
        ledger.push({ accountId: call.accountId, kind: call.kind, occurrenceId: call.occurrenceId, isNew: r.isNew, weight: r.weight });
      return { ok: true };
    },
    stopCalls(request) {
      if (request.accountId !== null) revokeCalls(db, request.accountId, request.at);
      blockNumber(db, request.to, 'key_9', 'keypad', request.at, `key 9 on call ${request.attemptId}`);
      options.onStop?.(request);
    },
  };

  return {
    accounts,
    wrapStore(store) {
      return {
        load: (keys) => {
          ledger = [];
          return store.load(keys);
        },
        commit: (changes) => {
          ledger = [];
          return store.commit(changes);
        },
        listDue: (query) => store.listDue(query),
        listAttempts: (id) => store.listAttempts(id),
        listUnacknowledgedAttempts: (limit, afterId) => store.listUnacknowledgedAttempts(limit, afterId),
        listPendingFallbacks: (limit, afterId) => store.listPendingFallbacks(limit, afterId),
        listStaleZoneOccurrences: (version, limit, afterId) => store.listStaleZoneOccurrences(version, limit, afterId),
        listSeriesWithoutNext: (limit, afterId) => store.listSeriesWithoutNext(limit, afterId),
      };
    },
  };
}
