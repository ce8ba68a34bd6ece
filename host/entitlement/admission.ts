/**
 * The account rules that decide whether a call may be placed now, shared by the engine's
 * Accounts port (asked just before each attempt's intent is stored, inside its unit of work)
 * and by the HTTP checks that answer before anything is stored.
 *
 * In order, a call is refused when:
 * 1. `calls_revoked`: the account's calls are off (key 9; POST /me/resume-calls turns them on),
 *    or the account is gone;
 * 2. `number_blocked`: the line is blocked (STOP, complaint, manual block, key 9);
 * 3. `no_entitlement`: the call would count as a new wake-up call (a first attempt, a test
 *    call, or any attempt of an occurrence none of whose attempts was placed yet) and nothing
 *    pays for it: not the subscription's calls of the period (a Tier B call uses the plan's
 *    multiplier), not the trial's, not pack credits (usage.ts). A call paid with
 *    credits takes them here, in the same unit of work as the attempt (a refused or failed
 *    call does not give them back). Retries and snoozes of a counted call are free;
 * 4. `daily_cap_reached`: the account placed `dailyCap` calls (every attempt and test call)
 *    in the current UTC day.
 * Demo calls (no account) are refused only for a blocked number; their own limits live with
 * the demo.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { AttemptKind, CallToAdmit, EpochMs, RefusalReason } from '../../engine/index.js';
import { findAccountTerms, type Account, type AccountTerms } from '../db/accounts.js';
import { countCallsPlacedBy, occurrencesCounted } from '../db/account-calls.js';
import { blockedAmong } from '../db/phone-numbers.js';
import { planOf } from './plan.js';
import { callWeight } from './tier.js';
import { problem, type AppError } from '../errors.js';
import { secondsToUtcMidnight, utcDay } from './daily-cap.js';
import { usageState, usageStates } from './usage.js';
import type { UsageState } from './state.js';

/** A call admitted earlier in the same unit of work, not yet visible in the tables. */
export interface LedgerEntry {
  accountId: string;
  kind: AttemptKind;
  occurrenceId: string | null;
  /** It counted as a new wake-up call of usage. */
  isNew: boolean;
  /** Included calls it used (the Tier B multiplier, or 1); 0 when paid with credits or not new. */
  weight?: number;
  /** Pack credits it took. */
  credits?: number;
}

/** The calls admitted earlier in the same unit of work, by account id (each account's in order). */
export type Ledger = ReadonlyMap<string, readonly LedgerEntry[]>;

const NO_ENTRIES: readonly LedgerEntry[] = [];
const NO_LEDGER: Ledger = new Map();

/**
 * The answer of {@link admitCall}; `isNew` says whether the call counts as a new wake-up call,
 * `weight` how many of the period's included calls it used.
 */
export type Admission =
  { ok: true; isNew: boolean; weight: number } | { ok: false; reason: RefusalReason };

const WAKE_UP_KINDS = new Set<AttemptKind>(['first', 'retry', 'snooze']);

/**
 * What admission reads from the database for a set of calls, read ahead by
 * {@link prepareAdmission} (the engine's `Accounts.prepare`), so that {@link admitCall}
 * decides synchronously while the runtime computes a unit of work.
 */
export interface AdmissionFacts {
  /** What admission reads of each account ({@link AccountTerms}); null when it is gone. */
  accounts: Map<string, AccountTerms | null>;
  blocked: Set<string>;
  /** Usage state per instant `at`, then per account. */
  usage: Map<EpochMs, Map<string, UsageState>>;
  /** Calls placed in a UTC day, per the day's start, then per account (absent: none). */
  placedToday: Map<EpochMs, Map<string, number>>;
  /** Occurrences one of whose attempts was placed already. */
  counted: Set<string>;
}

/**
 * Reads every fact {@link admitCall} needs for `calls`, once for the whole set (a dispatch
 * batch): each kind of fact in one statement for every account, number and occurrence of the
 * set, never one per call.
 */
export async function prepareAdmission(
  db: Db,
  calls: readonly CallToAdmit[],
): Promise<AdmissionFacts> {
  const facts: AdmissionFacts = {
    accounts: new Map(),
    blocked: new Set(),
    usage: new Map(),
    placedToday: new Map(),
    counted: new Set(),
  };
  const accountSet = new Set<string>();
  const numberSet = new Set<string>();
  const countSet = new Set<string>();
  const instantSet = new Set<EpochMs>();
  for (const c of calls) {
    numberSet.add(c.to);
    if (c.accountId !== null) {
      accountSet.add(c.accountId);
      instantSet.add(c.at);
    }
    // A first attempt's occurrence has no attempt yet: nothing to count (no read on the spike's path).
    if (c.occurrenceId !== null && c.kind !== 'first' && WAKE_UP_KINDS.has(c.kind))
      countSet.add(c.occurrenceId);
  }
  const accountIds = [...accountSet];
  const numbers = [...numberSet];
  const toCount = [...countSet];
  const instants = [...instantSet];
  const [accounts, blocked, counted] = await Promise.all([
    findAccountTerms(db, accountIds),
    blockedAmong(db, numbers),
    occurrencesCounted(db, toCount),
  ]);
  facts.blocked = blocked;
  facts.counted = counted;
  for (const id of accountIds) facts.accounts.set(id, null);
  for (const a of accounts) facts.accounts.set(a.id, a);
  await Promise.all(
    instants.map(async (at) => {
      const day = utcDay(at);
      const [states, placed] = await Promise.all([
        usageStates(db, accounts, at),
        countCallsPlacedBy(db, accountIds, day.start, day.end),
      ]);
      facts.usage.set(at, states);
      facts.placedToday.set(day.start, placed);
    }),
  );
  return facts;
}

/** What an admission writes once its unit of work is committed (credits taken). */
export interface AdmissionWrite {
  spend?: { accountId: string; credits: number; ref: string | null; at: EpochMs };
}

/**
 * Decides on one call from `facts` (read by {@link prepareAdmission} for a superset of the
 * unit's calls; a call it did not read about is refused as the account gone). `ledger` lists
 * calls admitted earlier in the same unit of work (their rows are written only at its commit),
 * so two calls due together cannot both take the last trial call or the last call of the day
 * (by account, so that a batch's admissions cost one look-up each, not a walk of the ledger).
 * Credits a call takes come back in `spend`, for the caller to write with the unit's commit.
 */
export function admitCall(
  facts: AdmissionFacts,
  dailyCap: number,
  call: CallToAdmit,
  ledger: Ledger = NO_LEDGER,
): Admission & AdmissionWrite {
  if (call.accountId === null) {
    return facts.blocked.has(call.to)
      ? { ok: false, reason: 'number_blocked' }
      : { ok: true, isNew: false, weight: 0 };
  }
  const account = facts.accounts.get(call.accountId);
  if (!account || account.callsRevokedAt !== null) return { ok: false, reason: 'calls_revoked' };
  if (facts.blocked.has(call.to)) return { ok: false, reason: 'number_blocked' };
  const mine = ledger.get(call.accountId) ?? NO_ENTRIES;
  const isNew = countsAsNewCall(facts, call, mine);
  let weight = 0;
  let credits = 0;
  if (isNew) {
    const state = facts.usage.get(call.at)?.get(account.id);
    if (!state) return { ok: false, reason: 'calls_revoked' };
    const pending = mine.reduce((n, e) => n + (e.weight ?? (e.isNew ? 1 : 0)), 0);
    const needed = state.basis === 'subscription' ? callWeight(call.to, state.tierBMultiplier) : 1;
    if (state.included - state.used - pending >= needed) {
      weight = needed;
    } else {
      credits = callWeight(call.to, state.creditPack?.tierBMultiplier ?? 1);
      const spentInUnit = mine.reduce((n, e) => n + (e.credits ?? 0), 0);
      if (state.credits - spentInUnit < credits) return { ok: false, reason: 'no_entitlement' };
    }
  }
  const placed = facts.placedToday.get(utcDay(call.at).start)?.get(account.id) ?? 0;
  if (placed + mine.length >= dailyCap) return { ok: false, reason: 'daily_cap_reached' };
  return {
    ok: true,
    isNew,
    weight,
    ...(credits > 0
      ? { spend: { accountId: account.id, credits, ref: call.occurrenceId, at: call.at } }
      : {}),
  };
}

/** Whether placing `call` makes a new wake-up call of usage. */
function countsAsNewCall(
  facts: AdmissionFacts,
  call: CallToAdmit,
  mine: readonly LedgerEntry[],
): boolean {
  if (call.kind === 'test') return true;
  if (!WAKE_UP_KINDS.has(call.kind) || call.occurrenceId === null) return false;
  if (mine.some((e) => e.occurrenceId === call.occurrenceId)) return false;
  return !facts.counted.has(call.occurrenceId);
}

/** The API error for a refusal (429 daily_cap_reached carries Retry-After to midnight UTC). */
export function refusalProblem(reason: RefusalReason, now: EpochMs): AppError {
  switch (reason) {
    case 'calls_revoked':
      return problem('calls_revoked', {
        detail:
          'Calls are turned off for this account (key 9 was pressed). Turn them back on with POST /me/resume-calls and consent true, in the app or on the web.',
      });
    case 'number_blocked':
      return problem('number_blocked', { detail: 'Calls and texts to this number are blocked.' });
    case 'no_entitlement':
      return problem('no_entitlement', {
        detail:
          'No wake-up calls are left on the trial, the plan or pack credits; the call would not be placed. See GET /billing/plans.',
      });
    case 'daily_cap_reached': {
      const seconds = secondsToUtcMidnight(now);
      return problem('daily_cap_reached', {
        detail: `This account placed its limit of calls for today (UTC); it resets at midnight UTC, in ${seconds} seconds.`,
        headers: { 'Retry-After': String(seconds) },
      });
    }
  }
}

/**
 * The checks made before storing something that will call (an enabled schedule, a test
 * call): 403 calls_revoked when calls are off, 402 no_entitlement when Plan.entitled is false.
 */
export async function assertMayStartCalls(db: Db, account: Account, now: EpochMs): Promise<void> {
  if (account.callsRevokedAt !== null) throw refusalProblem('calls_revoked', now);
  if (!planOf(await usageState(db, account, now)).entitled)
    throw refusalProblem('no_entitlement', now);
}
