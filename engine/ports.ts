/**
 * Ports: the small interfaces through which the engine reaches the outside world. The records
 * they carry (occurrences, attempts, series) are the domain model, in `model.ts`.
 *
 * The engine performs no I/O of its own. Time, identifiers, storage, telephony and
 * messaging all arrive through the interfaces below, which the engine defines and an
 * embedder (or `host/`) implements. Each port's header says what it promises and what it
 * deliberately leaves out. In-memory implementations live in `engine/sim`, conformance suites in
 * `engine/testing`.
 *
 * Instants cross every port as epoch milliseconds (`EpochMs`): cheap to compare, store and
 * hash on the dispatch hot path. Wall-clock reasoning (zones, DST) happens inside the engine
 * with Temporal and never leaks into a port.
 *
 * @module
 */
import type { EpochMs } from './time/epoch.js';
import type { AttemptKind, CallScript } from './model.js';

export type { EpochMs };

/** A timer armed on a {@link Clock}; `cancel()` is idempotent. */
export interface TimerHandle {
  /** Disarms the timer; does nothing when it already ran or was cancelled. */
  cancel(): void;
}

/**
 * Clock: the only source of "now" for the engine and the host.
 *
 * Promises:
 * - `now()` never goes backwards within one process for a virtual clock; a system clock
 *   follows the host's clock (which may step) and the engine re-checks `now()` whenever a
 *   timer fires rather than trusting the timer.
 * - `setTimer(at, fn)` calls `fn` at or after `at`, never before. A virtual clock runs it
 *   when `advance` passes `at`, in due order, awaiting the promise `fn` returns before it
 *   runs the next timer, so everything a timer starts has happened when `advance` returns.
 * - A system clock caps each host timer at a bounded step (setTimeout overflows at ~24.8
 *   days) and re-arms until `at` has really passed.
 *
 * Leaves out: time zones (instants only), periodic timers, ordering between two timers
 * armed for the same instant beyond "in the order they were armed".
 */
export interface Clock {
  /** The current instant. */
  now(): EpochMs;
  /** Runs `fn` at or after `at`. `fn` may return a promise; a virtual clock awaits it. */
  setTimer(at: EpochMs, fn: () => void | Promise<void>): TimerHandle;
}

/**
 * Ids: identifiers and randomness, so that the engine never calls `crypto` or
 * `Math.random` itself and tests can be deterministic.
 *
 * @example
 * const ids: Ids = { uuid: () => crypto.randomUUID() };
 */
export interface Ids {
  /** A new random (v4) or time-ordered (v7) UUID string. */
  uuid(): string;
}

/** Why a placed call ended, as reported by the provider. */
export type CallEndReason =
  | 'completed' // answered and then hung up (by either side)
  | 'no_answer' // rang out or hit the ring timeout
  | 'busy'
  | 'failed' // the provider could not connect the call
  | 'cancelled'; // hung up by us before it was answered

/** A request to place one outbound call. */
export interface PlaceCallRequest {
  /**
   * Idempotency key, unique per attempt. Placing twice with one key places one call and
   * returns the same `callId` (the provider's or the adapter's dedupe guarantees it).
   */
  idempotencyKey: string;
  /** Destination, E.164. */
  to: string;
  /** Caller id, E.164; the adapter's configured number when omitted. */
  from?: string;
  /** What the call says, and which key it gathers. */
  script: CallScript;
  /** Seconds to let it ring before giving up (ends with reason `no_answer`). */
  ringTimeoutSeconds: number;
  /**
   * True when an earlier request for this attempt may have reached the provider and its
   * outcome is unknown: an intent recovered at start-up (after a crash, or another host's
   * intent taken over), or a retry after `placeCall` rejected (a timeout, a dropped
   * connection). Absent or false on a fresh placement: this process has never asked for this
   * attempt, so no call can exist for it. An adapter whose provider has no idempotency key
   * looks for an earlier call before dialling only when it is set (and must then never dial
   * without that look-up); one whose provider deduplicates by key may ignore it.
   */
  outcomeUnknown?: boolean;
  /**
   * When the attempt's intent was stored (its `requestedAt`): an earlier call for it cannot
   * be older, so an adapter looking for one searches back to at least this instant, however
   * long the outage that preceded a recovery.
   */
  requestedAt?: EpochMs;
}

/** The provider's answer to {@link Telephony.placeCall}. */
export type PlaceCallResult =
  | { ok: true; callId: string }
  | {
      ok: false;
      /** Stable error code, e.g. `provider_refused`, `invalid_number`, `provider_unavailable`. */
      code: string;
      detail: string;
      /** True when trying again later might succeed. */
      retryable: boolean;
    };

/** Progress of a placed call. Every event names the call and the attempt's idempotency key. */
export type TelephonyEvent =
  | { type: 'call.ringing'; callId: string; idempotencyKey: string; at: EpochMs }
  | {
      type: 'call.answered';
      callId: string;
      idempotencyKey: string;
      at: EpochMs;
      /** Who picked up: a person, or an answering machine / voicemail. */
      by: 'person' | 'machine';
    }
  | { type: 'call.digits'; callId: string; idempotencyKey: string; at: EpochMs; digits: string }
  | {
      type: 'call.ended';
      callId: string;
      idempotencyKey: string;
      at: EpochMs;
      reason: CallEndReason;
      /** Seconds connected, when the call was answered. */
      durationSeconds: number | null;
      /** Provider error code when `reason` is `failed`. */
      errorCode?: string;
    };

/** Receives telephony events; the promise covers the handler's own work (persist, react). */
export type TelephonyEventHandler = (event: TelephonyEvent) => void | Promise<void>;

/** Options of {@link Telephony.hangUp}. */
export interface HangUpOptions {
  /** A closing sentence to speak before hanging up an answered call. */
  say?: string;
  /** The attempt's idempotency key, as given to `placeCall` for this call (the runtime always sets it). */
  idempotencyKey?: string;
}

/**
 * Telephony: places calls and reports what happens to them.
 *
 * Promises:
 * - `placeCall` is idempotent by `idempotencyKey`: a retry after a crash or a timeout never
 *   rings the phone twice. It resolves once the provider accepted or refused the call; it
 *   rejects only when the outcome is unknown (network failure), and the caller retries with
 *   the same key; or with `PlacementDeferred` (engine/runtime/errors.ts) when it cannot place
 *   the call now but can later (the number is locked by another process): the runtime asks
 *   again at its `retryAt`, without holding a placement slot meanwhile.
 * - Events arrive at the handler given to `onEvent` in the order they happened for one
 *   call, each at most once per call (adapters dedupe provider retries), ending with exactly
 *   one `call.ended`.
 * - After `call.digits`, the call stays open until `hangUp` (with an optional closing
 *   sentence) or the callee hangs up.
 *
 * Leaves out: recording, transfers, conferencing, cost. Which digit means what is the
 * engine's business, not the provider's.
 */
export interface Telephony {
  /** Asks the provider for one call; resolves once it accepted (with its `callId`) or refused it (see the promises above). */
  placeCall(request: PlaceCallRequest): Promise<PlaceCallResult>;
  /**
   * Ends a call (ringing or answered), optionally speaking `say` first. Idempotent. The
   * runtime always passes the attempt's `idempotencyKey` (the key of the `placeCall` that made
   * the call), so an adapter can name the attempt in the events it emits without a map of its own.
   */
  hangUp(callId: string, options?: HangUpOptions): Promise<void>;
  /** Sets the single event handler (the runtime sets it once at start). */
  onEvent(handler: TelephonyEventHandler): void;
}

/** Result of sending a text or an email. */
export type SendResult =
  { ok: true; messageId: string } | { ok: false; code: string; detail: string };

/**
 * Messaging: outbound texts (SMS) and emails.
 *
 * Promises: one send per call; `idempotencyKey`, when given, makes a retried send a no-op
 * returning the first result. Never throws for a refused message: it resolves `ok: false`
 * with a stable code; it rejects only when the outcome is unknown.
 *
 * Leaves out: inbound texts (STOP, START, HELP arrive at the host's webhook, not here),
 * templates, delivery receipts.
 */
export interface Messaging {
  /** Sends a text (SMS) to an E.164 number; the runtime sends the fallback text with idempotency key `fallback:<occurrence id>`. */
  sendText(message: { to: string; body: string; idempotencyKey?: string }): Promise<SendResult>;
  /** Sends an email. The runtime never sends one: the port carries the host's own (sign-in codes, for example). */
  sendEmail(message: {
    to: string;
    subject: string;
    body: string;
    idempotencyKey?: string;
  }): Promise<SendResult>;
}

// The Store port and its unit-of-work types (what a store's author implements) are in
// store-types.ts; re-exported here so that every port can be imported from this module.
export type {
  ChangeSet,
  CommitOptions,
  CommitResult,
  DueCursor,
  DueQuery,
  DueRef,
  LoadKeys,
  RowRef,
  RowWrite,
  SettleScope,
  Snapshot,
  Store,
  StoreWrite,
} from './store-types.js';

/** Why the account rules refuse a call before dialling. */
export type RefusalReason =
  'calls_revoked' | 'number_blocked' | 'no_entitlement' | 'daily_cap_reached';

/** The call the runtime is about to place, as shown to {@link Accounts.admit}. */
export interface CallToAdmit {
  /** The account the call is for; null for a standalone test or demo call placed without one. */
  accountId: string | null;
  /** The host's phone number row, or null. */
  phoneNumberId: string | null;
  /** Number to call, E.164. */
  to: string;
  /** Which attempt this would be: first, retry, snooze, or a standalone test or demo call. */
  kind: AttemptKind;
  /** The occurrence the call belongs to; null for a standalone call. */
  occurrenceId: string | null;
  /** The instant of the check. */
  at: EpochMs;
}

/** What key 9 asks for: calls off for the account, the number blocked. */
export interface StopRequest {
  /** The account of the call in which 9 was pressed, or null for a call without one. */
  accountId: string | null;
  /** The host's phone number row of that call, or null. */
  phoneNumberId: string | null;
  /** The number called (the one to block), E.164. */
  to: string;
  /** The occurrence of that call; null for a standalone call. */
  occurrenceId: string | null;
  /** The attempt (call) in which 9 was pressed. */
  attemptId: string;
  /** When the runtime handled the key (its unit of work's instant). */
  at: EpochMs;
}

/**
 * Accounts: the host's rules about who may be called, and what key 9 changes.
 *
 * `admit` and `stopCalls` are synchronous and run while the runtime computes a unit of work,
 * between its `Store.load` and its `Store.commit`. A host whose facts live behind an
 * asynchronous database reads them in `prepare`, which the runtime awaits after each load and
 * before the computation, with every call the unit may admit; `admit` then answers from what
 * `prepare` read. The function `prepare` may return is called once the unit is over (committed,
 * refused by a conflict, or thrown), so a host can hold per-account locks for that span.
 * Throwing abandons the unit of work (nothing is committed). `stopCalls` must be idempotent:
 * a unit refused by a version conflict is computed again (with a new `prepare`).
 *
 * Promises: `admit` is asked once per attempt just before its intent is stored; a refusal
 * ends the occurrence `cancelled` with the refusal as outcome reason and no text is sent.
 * `stopCalls` is called once when a person presses 9; the host turns the account's calls
 * off and blocks the number (later calls are then refused by `admit`). `prepare` is given a
 * superset of the calls `admit` will be asked about in that unit (same `accountId`, `to`,
 * `kind`, `occurrenceId` and `at`).
 *
 * Leaves out: billing, verification, quiet hours (the host decides them inside `admit`).
 *
 * @example
 * const blocked = new Set<string>();
 * const accounts: Accounts = {
 *   admit: (call) => (blocked.has(call.to) ? { ok: false, reason: 'number_blocked' } : { ok: true }),
 *   stopCalls: (request) => void blocked.add(request.to),
 * };
 */
export interface Accounts {
  /** Optional: reads, before a unit is computed, what `admit` will need for `calls`; may return a function called when the unit is over. */
  prepare?(calls: readonly CallToAdmit[]): Promise<(() => void) | void>;
  /** Admits one call, or refuses it with a reason; synchronous, asked just before the attempt's intent is stored. */
  admit(call: CallToAdmit): { ok: true } | { ok: false; reason: RefusalReason };
  /** Key 9 was pressed: turn the account's calls off and block the number. Idempotent (a unit may be computed again). */
  stopCalls(request: StopRequest): void;
}
