/**
 * Ports: the small interfaces through which the engine reaches the outside world.
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

/** Milliseconds since 1970-01-01T00:00:00Z. */
export type EpochMs = number;

/** A timer armed on a {@link Clock}; `cancel()` is idempotent. */
export interface TimerHandle {
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
  | 'canceled'; // hung up by us before it was answered

/** What the call says. The provider speaks it and gathers one keypad digit where asked. */
export type CallScript =
  | {
      kind: 'wake_up';
      /** Name to greet, or null for a neutral greeting. */
      greetingName: string | null;
      /** Spoken note, or null. */
      message: string | null;
      /** Whether key 2 (snooze) is offered on this attempt. */
      snoozeAllowed: boolean;
      /** Voice identifier (account setting). */
      voice?: string;
    }
  | { kind: 'test'; greetingName: string | null; voice?: string }
  | { kind: 'demo'; voice?: string }
  | { kind: 'verification_code'; code: string; voice?: string };

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
  script: CallScript;
  /** Seconds to let it ring before giving up (ends with reason `no_answer`). */
  ringTimeoutSeconds: number;
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

/**
 * Telephony: places calls and reports what happens to them.
 *
 * Promises:
 * - `placeCall` is idempotent by `idempotencyKey`: a retry after a crash or a timeout never
 *   rings the phone twice. It resolves once the provider accepted or refused the call; it
 *   rejects only when the outcome is unknown (network failure), and the caller retries with
 *   the same key.
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
  placeCall(request: PlaceCallRequest): Promise<PlaceCallResult>;
  /** Ends a call (ringing or answered), optionally speaking `say` first. Idempotent. */
  hangUp(callId: string, options?: { say?: string }): Promise<void>;
  /** Sets the single event handler (the runtime sets it once at start). */
  onEvent(handler: TelephonyEventHandler): void;
}

/** Result of sending a text or an email. */
export type SendResult = { ok: true; messageId: string } | { ok: false; code: string; detail: string };

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
  sendText(message: { to: string; body: string; idempotencyKey?: string }): Promise<SendResult>;
  sendEmail(message: { to: string; subject: string; body: string; idempotencyKey?: string }): Promise<SendResult>;
}

// ---------------------------------------------------------------------------------------
// Engine records: what the Store keeps for occurrences and attempts.
// ---------------------------------------------------------------------------------------

/**
 * Status of an occurrence (one wake-up call at one instant).
 *
 * - `pending`: waiting for its instant.
 * - `dispatching`: an attempt's intent is stored; the provider is being asked, or has
 *   accepted the call and not yet reported it ringing.
 * - `calling`: the phone is ringing or the call is answered.
 * - `waiting`: between attempts; a retry or a snooze is due at `nextDueAt` (project addition).
 * - Finished: `confirmed` (key 1), `missed` (nobody or nothing answered, or dispatch too
 *   late), `failed` (the provider refused or failed every attempt), `cancelled` (by the API,
 *   by key 9, or refused by the account rules before dialling), `unconfirmed` (attempts ran
 *   out; somebody or a machine answered but nobody pressed 1). `unconfirmed` is final.
 */
export type OccurrenceStatus =
  'pending' | 'dispatching' | 'calling' | 'waiting' | 'confirmed' | 'missed' | 'failed' | 'cancelled' | 'unconfirmed';

/** Why a finished occurrence finished (null while it is not finished). */
export type OutcomeReason =
  | 'confirmed'
  | 'stopped'
  | 'no_input'
  | 'voicemail'
  | 'no_answer'
  | 'busy'
  | 'provider_error'
  | 'cancelled'
  | 'late_dispatch'
  | 'calls_revoked'
  | 'number_blocked'
  | 'no_entitlement'
  | 'daily_cap_reached'
  | 'snoozes_exhausted';

/** How the occurrence's instant was derived: wall time, N minutes from now, a weekly rule, a travel move. */
export type DerivationSource = 'one_off' | 'in_minutes' | 'weekly' | 'moved';

/** What an attempt is: the first call of an occurrence, a retry, a snooze, or a standalone test or demo call. */
export type AttemptKind = 'first' | 'retry' | 'snooze' | 'test' | 'demo';

/**
 * Status of an attempt (one phone call).
 *
 * `scheduled` (due later; reserved, the runtime creates attempts when they are due),
 * `requested` (intent stored, provider being asked or accepted and not yet ringing),
 * `ringing`, `answered`; then terminal: `confirmed` (1), `snoozed` (2), `stopped` (9),
 * `no_input` (answered, no valid key), `voicemail` (a machine answered), `no_answer`,
 * `busy`, `failed` (provider refused or failed), `canceled` (hung up by us, e.g. cancel).
 */
export type AttemptStatus =
  | 'scheduled'
  | 'requested'
  | 'ringing'
  | 'answered'
  | 'confirmed'
  | 'snoozed'
  | 'stopped'
  | 'no_input'
  | 'voicemail'
  | 'no_answer'
  | 'busy'
  | 'failed'
  | 'canceled';

/**
 * Retry policy of one occurrence, copied from its schedule (or the account default) when
 * the occurrence is created. Bounds (enforced by the host's schema and by
 * `resolveRetryPolicy`): maxSnoozes 0..5, offsetsMinutes 0..5 items each 1..120 strictly
 * increasing, ringTimeoutSeconds 15..120, snoozeMinutes 1..30.
 */
export interface RetryPolicy {
  /** How many times key 2 may snooze this occurrence. @defaultValue 2 */
  maxSnoozes: number;
  /** Minutes after the series base at which retries ring when no attempt confirmed. @defaultValue [5, 10] */
  offsetsMinutes: number[];
  /** Seconds an attempt may ring before it counts as no answer. @defaultValue 45 */
  ringTimeoutSeconds: number;
  /** Minutes from the end of a snoozed attempt to the snooze attempt. @defaultValue 9 */
  snoozeMinutes: number;
}

/** Delivery state of the text sent when an occurrence ends without a confirmation. */
export type FallbackState = 'none' | 'pending' | 'sent' | 'failed';

/**
 * One occurrence as stored. The row carries everything the runtime needs to place its calls
 * (number, script fields, policy), copied when the occurrence is created, so dispatch never
 * reads another table. Field names follow the API's OccurrenceOut where one exists.
 */
export interface OccurrenceRecord {
  id: string;
  /** The schedule it belongs to (no foreign key inside the engine), or null for embedders without schedules. */
  scheduleId: string | null;
  accountId: string;
  /** The account's phone number row, when the host has one. */
  phoneNumberId: string | null;
  /** Number to call (and to text on fallback), E.164. */
  to: string;
  label: string | null;
  /** Spoken note. */
  message: string | null;
  greetingName: string | null;
  voice: string | null;
  /** IANA zone the instant was chosen in (for display; the engine works on instants). */
  timezone: string | null;
  derivationSource: DerivationSource;
  /** The instant the first attempt rings. */
  scheduledAt: EpochMs;
  policy: RetryPolicy;
  /** Send a text when the occurrence ends missed, unconfirmed or failed. */
  smsFallback: boolean;
  /** Whether the app backup alarm is on for this occurrence. */
  backupAlarm: boolean;
  status: OccurrenceStatus;
  outcomeReason: OutcomeReason | null;
  /** Attempts created so far (placed or refused). */
  attemptCount: number;
  snoozeCount: number;
  /** The instant retry offsets count from: `scheduledAt`, or the due time of the latest snooze attempt. */
  seriesBase: EpochMs;
  /** Retries used in the current series (reset by a snooze). */
  retryIndex: number;
  /**
   * When the runtime must next look at this occurrence: the dispatch instant while pending
   * or waiting, the live attempt's watchdog deadline while dispatching or calling, null when
   * finished. This is the timer wheel's durable key.
   */
  nextDueAt: EpochMs | null;
  /** The attempt in progress (dispatching or calling), else null. */
  liveAttemptId: string | null;
  /** When the app backup alarm rings (null when backupAlarm is off); moves on snooze. */
  backupAlarmAt: EpochMs | null;
  /** Some attempt was answered by a person who did not confirm. */
  reachedPerson: boolean;
  /** Some attempt reached voicemail (an answering machine). */
  reachedVoicemail: boolean;
  /** The latest no-answer or busy result, used to tell missed from failed. */
  missReason: 'no_answer' | 'busy' | null;
  fallbackState: FallbackState;
  /** First attempt's intent stored. */
  dispatchedAt: EpochMs | null;
  confirmedAt: EpochMs | null;
  finishedAt: EpochMs | null;
  createdAt: EpochMs;
  updatedAt: EpochMs;
}

/**
 * One attempt (one phone call) as stored, for an occurrence or standalone (test, demo).
 * Field names follow the API's AttemptOut where one exists.
 */
export interface AttemptRecord {
  id: string;
  /** Null for a standalone test or demo call. */
  occurrenceId: string | null;
  accountId: string | null;
  phoneNumberId: string | null;
  kind: AttemptKind;
  /** 1-based position within its occurrence (1 for standalone calls). */
  n: number;
  status: AttemptStatus;
  /** Number called, E.164. */
  to: string;
  /** The instant the attempt was due to ring. */
  dueAt: EpochMs;
  createdAt: EpochMs;
  requestedAt: EpochMs | null;
  ringingAt: EpochMs | null;
  answeredAt: EpochMs | null;
  endedAt: EpochMs | null;
  answeredBy: 'person' | 'machine' | null;
  digits: string | null;
  durationSeconds: number | null;
  errorCode: string | null;
  /** The provider's id for the call, once it accepted it. */
  providerCallId: string | null;
  /** Sent with `placeCall`; equals the attempt id (unique per attempt by construction). */
  idempotencyKey: string;
  ringTimeoutSeconds: number;
  /**
   * Watchdog: when the runtime gives up waiting for the provider (hangs up, ends the
   * attempt). Null once terminal. For standalone attempts this is the timer wheel's key.
   */
  deadlineAt: EpochMs | null;
  /** The script, stored for standalone calls only (occurrence attempts rebuild it from the occurrence). */
  script: CallScript | null;
  updatedAt: EpochMs;
}

/** A reference to something the timer wheel must wake up for. */
export interface DueRef {
  kind: 'occurrence' | 'attempt';
  id: string;
  /** The instant (an occurrence's `nextDueAt` or a standalone attempt's `deadlineAt`). */
  at: EpochMs;
}

/** Keyset cursor for {@link StoreTx.listDue}: strictly after (at, kind, id). */
export interface DueCursor {
  at: EpochMs;
  kind: 'occurrence' | 'attempt';
  id: string;
}

/**
 * The operations available inside one unit of work. Synchronous on purpose: better-sqlite3
 * cannot await inside a transaction, and the engine never calls a provider inside one.
 */
export interface StoreTx {
  getOccurrence(id: string): OccurrenceRecord | undefined;
  /** Inserts a new occurrence; throws when the id exists. */
  insertOccurrence(record: OccurrenceRecord): void;
  /** Replaces every field of an existing occurrence; throws when it does not exist. */
  updateOccurrence(record: OccurrenceRecord): void;
  getAttempt(id: string): AttemptRecord | undefined;
  /** Inserts a new attempt; throws when the id exists. */
  insertAttempt(record: AttemptRecord): void;
  /** Replaces every field of an existing attempt; throws when it does not exist. */
  updateAttempt(record: AttemptRecord): void;
  /** The attempts of one occurrence, by `n` ascending. */
  listAttempts(occurrenceId: string): AttemptRecord[];
  /**
   * Everything due at or before `until`: occurrences by `nextDueAt` and standalone attempts
   * (occurrenceId null) by `deadlineAt`, ordered by (at, kind, id) with kind 'attempt' before
   * 'occurrence', strictly after `after` when given, at most `limit` rows.
   */
  listDue(until: EpochMs, limit: number, after?: DueCursor): DueRef[];
  /**
   * Attempts whose intent is stored but the provider's acceptance is not (status
   * `requested`, `providerCallId` null), ordered by id, strictly after `afterId`.
   * Reconciliation at start places them again with the same idempotency key.
   */
  listUnacknowledgedAttempts(limit: number, afterId?: string): AttemptRecord[];
  /** Occurrences whose fallback text is decided but not known sent (`fallbackState` 'pending'), by id. */
  listPendingFallbacks(limit: number, afterId?: string): OccurrenceRecord[];
}

/**
 * Store: durable state of occurrences and attempts, as a synchronous unit of work.
 *
 * Promises:
 * - `transact(fn)` runs `fn` atomically: every change inside is kept together or, when `fn`
 *   throws, none is (the error is rethrown). It returns what `fn` returns. `fn` must not
 *   await (a promise returned from `fn` is a programming error and implementations may
 *   throw). A `transact` inside a `transact` joins the outer unit (a savepoint): a throw in
 *   the inner one undoes only the inner changes if caught.
 * - Records read back equal records written (every field, arrays included), and a read
 *   never returns an object the caller can mutate to change the store.
 * - Reads inside a unit of work see that unit's own writes.
 *
 * Leaves out: schedules, accounts and phone numbers (the host's tables), listing for the API
 * (the host queries its own database), deleting rows (history is kept; the host removes an
 * account's rows), concurrency between processes (one runtime per store).
 */
export interface Store {
  transact<T>(fn: (tx: StoreTx) => T): T;
}

/** Why the account rules refuse a call before dialling. */
export type RefusalReason = 'calls_revoked' | 'number_blocked' | 'no_entitlement' | 'daily_cap_reached';

/** The call the runtime is about to place, as shown to {@link Accounts.admit}. */
export interface CallToAdmit {
  accountId: string | null;
  phoneNumberId: string | null;
  to: string;
  kind: AttemptKind;
  occurrenceId: string | null;
  /** The instant of the check. */
  at: EpochMs;
}

/** What key 9 asks for: calls off for the account, the number blocked. */
export interface StopRequest {
  accountId: string | null;
  phoneNumberId: string | null;
  to: string;
  occurrenceId: string | null;
  attemptId: string;
  at: EpochMs;
}

/**
 * Accounts: the host's rules about who may be called, and what key 9 changes.
 *
 * Both methods are synchronous and run INSIDE the runtime's `Store.transact`, so a host whose
 * store and account tables share one database changes them atomically with the attempt.
 * Throwing rolls the unit of work back.
 *
 * Promises: `admit` is asked once per attempt just before its intent is stored; a refusal
 * ends the occurrence `cancelled` with the refusal as outcome reason and no text is sent.
 * `stopCalls` is called once when a person presses 9; the host turns the account's calls
 * off and blocks the number (later calls are then refused by `admit`).
 *
 * Leaves out: billing, verification, quiet hours (the host decides them inside `admit`).
 */
export interface Accounts {
  admit(call: CallToAdmit): { ok: true } | { ok: false; reason: RefusalReason };
  stopCalls(request: StopRequest): void;
}
