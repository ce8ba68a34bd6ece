/**
 * Ports: the small interfaces through which the engine reaches the outside world.
 *
 * The engine performs no I/O of its own. Time, identifiers, storage, telephony and
 * messaging all arrive through the interfaces below, which the engine defines and an
 * embedder (or `host/`) implements. Each port's header says what it promises and what it
 * deliberately leaves out. In-memory implementations and conformance suites live in
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
export type SendResult =
  | { ok: true; messageId: string }
  | { ok: false; code: string; detail: string };

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
  sendEmail(message: {
    to: string;
    subject: string;
    body: string;
    idempotencyKey?: string;
  }): Promise<SendResult>;
}
