/**
 * The engine's {@link Accounts} port on the host's tables: admission by the rules of
 * `admission.ts`, and key 9 (calls off for the account, the line blocked with reason key_9).
 *
 * Both run inside the runtime's unit of work, on the same database connection as the Store,
 * so what they write commits or rolls back with the attempt.
 *
 * Why a ledger: the runtime writes a unit's new attempt rows only at its commit, after every
 * admission of the unit was asked. Counting rows alone would let two calls due in the same
 * unit both take the last trial call or the last call of the day. {@link createAccountsPort}
 * therefore also wraps the Store: each outermost unit of work gets a fresh ledger of the
 * calls admitted in it, added to what the tables say.
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
  let ledger: LedgerEntry[] | null = null;

  const accounts: Accounts = {
    admit(call) {
      const r = admitCall(db, dailyCap, call, ledger ?? []);
      if (!r.ok) return r;
      if (call.accountId !== null)
        ledger?.push({ accountId: call.accountId, kind: call.kind, occurrenceId: call.occurrenceId, isNew: r.isNew, weight: r.weight });
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
        transact(fn) {
          // A nested unit joins the outer one's ledger (and its transaction, as a savepoint).
          if (ledger !== null) return store.transact(fn);
          ledger = [];
          try {
            return store.transact(fn);
          } finally {
            ledger = null;
          }
        },
      };
    },
  };
}
