/**
 * The engine's {@link Accounts} port on the host's tables: admission by the rules of
 * host/entitlement/admission.ts, and key 9 (calls off for the account, the line blocked with reason key_9).
 *
 * The runtime awaits `prepare` after each unit's load, with every call the unit may admit
 * (one unit at a time holds the facts, until the runtime releases it at the unit's end):
 * it reads the facts admission needs ({@link prepareAdmission}: accounts, blocked numbers,
 * usage, calls placed today, occurrences counted) into a per-unit cache, and `admit` answers
 * synchronously from that cache and the ledger. The writes `admit` and `stopCalls` make
 * (credits taken, calls revoked, the number blocked by key 9, its `calls.revoked` webhook
 * event) are queued and handed over by {@link AccountsPort.unitWrites} at the unit's commit,
 * which the engine's store makes in the commit's transaction (docs/decisions/0025); a unit
 * refused by a conflict writes none of them (it is computed again, with a new `prepare`).
 *
 * Why a ledger: the runtime writes a unit's new attempt rows only at its commit, after every
 * admission of the unit was asked. Counting rows alone would let two calls due in the same
 * unit both take the last trial call or the last call of the day. The calls admitted since the
 * unit's `prepare` are therefore kept in a ledger, added to what the cache says, and dropped
 * when the unit's writes are taken at its commit (then they are rows, or refused: the next
 * `prepare` waits for the unit's end).
 * @module
 */
import type { Db } from '../db/sql.js';
import type { Accounts, StopRequest } from '../../engine/index.js';
import type { UnitWrite } from '../db/engine-store.js';
import { revokeCalls } from '../db/account-calls.js';
import { blockNumber } from '../db/phone-numbers.js';
import { spendCreditsMany, type CreditSpend } from '../db/credits.js';
import { recordEvent } from '../db/webhook-outbox.js';
import { isoInstant } from '../instant.js';
import {
  admitCall,
  prepareAdmission,
  type AdmissionFacts,
  type LedgerEntry,
} from '../entitlement/admission.js';

/** Options of {@link createAccountsPort}. */
export interface AccountsPortOptions {
  db: Db;
  /** Calls placed per account per UTC day (config WAKEUP_DAILY_CAP). */
  dailyCap: number;
  /** Called after key 9 was recorded (logging). */
  onStop?: (request: StopRequest) => void;
}

/** The port, and the writes of the unit it admitted. */
export interface AccountsPort {
  accounts: Accounts;
  /**
   * The writes of the unit being committed, taken: asked once per commit by the runtime's unit
   * writer (host/wiring/calls.ts), which also ends the unit's ledger (its calls are rows now, or refused).
   */
  unitWrites(): UnitWrite[];
}

/** Creates the port. */
export function createAccountsPort(options: AccountsPortOptions): AccountsPort {
  const { db, dailyCap } = options;
  // The unit's admitted calls, by account.
  let ledger = new Map<string, LedgerEntry[]>();
  const empty = (): AdmissionFacts => ({
    accounts: new Map(),
    blocked: new Set(),
    usage: new Map(),
    placedToday: new Map(),
    counted: new Set(),
  });
  let facts = empty();
  let turn: Promise<void> = Promise.resolve();
  // Writes of the unit being computed, made in its commit's transaction: the credits its calls
  // took (one statement for all of them), then key 9's.
  let spends: CreditSpend[] = [];
  let queued: UnitWrite[] = [];

  const accounts: Accounts = {
    // One prepared unit at a time: `facts` belongs to the unit between its prepare and its
    // release (units on other rows run concurrently, e.g. a webhook's beside the dispatch loop's).
    async prepare(calls) {
      const previous = turn;
      let release!: () => void;
      turn = new Promise<void>((resolve) => (release = resolve));
      await previous;
      // A new unit (or one computed again after a conflict): nothing admitted yet.
      ledger = new Map();
      spends = [];
      queued = [];
      try {
        facts = await prepareAdmission(db, calls);
      } catch (err) {
        release();
        throw err;
      }
      return () => {
        facts = empty();
        release();
      };
    },
    admit(call) {
      const r = admitCall(facts, dailyCap, call, ledger);
      if (!r.ok) return r;
      if (r.spend) {
        const { accountId, credits, ref, at } = r.spend;
        spends.push({ accountId, calls: credits, ref, at });
      }
      if (call.accountId !== null) {
        const entry: LedgerEntry = {
          accountId: call.accountId,
          kind: call.kind,
          occurrenceId: call.occurrenceId,
          isNew: r.isNew,
          weight: r.weight,
          credits: r.spend?.credits ?? 0,
        };
        const mine = ledger.get(call.accountId);
        if (mine) mine.push(entry);
        else ledger.set(call.accountId, [entry]);
      }
      return { ok: true };
    },
    stopCalls(request) {
      const { accountId, to, at, attemptId } = request;
      queued.push(async (tx) => {
        if (accountId !== null && (await revokeCalls(tx, accountId, at))) {
          // Outbound webhooks: in the transaction that turns the calls off; once per call (its id is the key).
          await recordEvent(tx, {
            accountId,
            type: 'calls.revoked',
            key: `calls.revoked:${attemptId}`,
            at,
            data: {
              calls_revoked_at: isoInstant(at),
              call_id: attemptId,
              occurrence_id: request.occurrenceId,
              phone_number_id: request.phoneNumberId,
            },
          });
        }
        await blockNumber(tx, to, 'key_9', 'keypad', at, `key 9 on call ${attemptId}`);
      });
      // Later admissions of the same unit see the account's calls off and the line blocked.
      if (accountId !== null) {
        const account = facts.accounts.get(accountId);
        if (account)
          facts.accounts.set(accountId, {
            ...account,
            callsRevokedAt: account.callsRevokedAt ?? at,
          });
      }
      facts.blocked.add(to);
      options.onStop?.(request);
    },
  };

  return {
    accounts,
    unitWrites() {
      const writes = queued;
      queued = [];
      if (spends.length > 0) {
        const taken = spends;
        spends = [];
        writes.unshift((tx) => spendCreditsMany(tx, taken));
      }
      if (ledger.size > 0) ledger = new Map();
      return writes;
    },
  };
}
