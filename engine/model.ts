/**
 * The engine's domain model: the records the runtime keeps and returns (occurrences, attempts,
 * series), their statuses and reasons, the retry policy, and what a call says. Plain data: no
 * behaviour, no I/O. The ports (`ports.ts`) carry these records; the Store keeps them.
 *
 * Instants are epoch milliseconds (`EpochMs`); wall times and zones are strings.
 * @module
 */
import type { EpochMs } from './time/epoch.js';
import type { Recurrence } from './time/rule-types.js';

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
  | 'pending'
  | 'dispatching'
  | 'calling'
  | 'waiting'
  | 'confirmed'
  | 'missed'
  | 'failed'
  | 'cancelled'
  | 'unconfirmed';

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
 * `busy`, `failed` (provider refused or failed), `cancelled` (hung up by us, e.g. cancel).
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
  | 'cancelled';

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
  /** Unique id: the Ids port's, or the one the embedder gave. */
  id: string;
  /** The schedule it belongs to (no foreign key inside the engine), or null for embedders without schedules. */
  scheduleId: string | null;
  /** The account it belongs to (the host's id, shown to the Accounts port). */
  accountId: string;
  /** The account's phone number row, when the host has one. */
  phoneNumberId: string | null;
  /** Number to call (and to text on fallback), E.164. */
  to: string;
  /** Short name of the call, shown by the host and quoted by the default fallback text; null for none. */
  label: string | null;
  /** Spoken note. */
  message: string | null;
  /** Name the call greets, or null for a neutral greeting. */
  greetingName: string | null;
  /** Voice identifier passed in the call script, or null for the provider's default. */
  voice: string | null;
  /** IANA zone the instant was chosen in (for display; the engine works on instants). */
  timezone: string | null;
  /** How `scheduledAt` was derived (see {@link DerivationSource}). */
  derivationSource: DerivationSource;
  /** The instant the first attempt rings. */
  scheduledAt: EpochMs;
  /** Retry policy, copied when the occurrence was created. */
  policy: RetryPolicy;
  /** Send a text when the occurrence ends missed, unconfirmed or failed. */
  smsFallback: boolean;
  /** Whether the app backup alarm is on for this occurrence. */
  backupAlarm: boolean;
  /** Where it stands (see {@link OccurrenceStatus}). */
  status: OccurrenceStatus;
  /** Why it finished; null while it is not finished. */
  outcomeReason: OutcomeReason | null;
  /** Attempts created so far (placed or refused). */
  attemptCount: number;
  /** Snoozes used (key 2); a snooze is offered while it is below `policy.maxSnoozes`. */
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
  /** Where the fallback text stands: `none` until an occurrence with `smsFallback` ends missed, unconfirmed or failed. */
  fallbackState: FallbackState;
  /** First attempt's intent stored. */
  dispatchedAt: EpochMs | null;
  /** When key 1 was handled (the runtime's clock), or null. */
  confirmedAt: EpochMs | null;
  /** When it reached a finished status, or null while it is not finished. */
  finishedAt: EpochMs | null;
  /** When the runtime created the row (its clock). */
  createdAt: EpochMs;
  /** When the runtime last wrote the row (its clock). */
  updatedAt: EpochMs;
  /** Optimistic concurrency (see {@link Store.commit}); 1 when inserted. */
  version: number;
  /** The local date (`YYYY-MM-DD`, in `timezone`) a series' rule produced this occurrence for; null without a wall time. */
  localDate: string | null;
  /**
   * The zone rules' version (tzdata release) `scheduledAt` was resolved under, for an
   * occurrence derived from a wall time; null otherwise (an instant, or no series). When the
   * rules change, pending occurrences of another version are resolved again.
   */
  tzdataVersion: string | null;
}

/**
 * One attempt (one phone call) as stored, for an occurrence or standalone (test, demo).
 * Field names follow the API's AttemptOut where one exists.
 */
export interface AttemptRecord {
  /** Unique id, also sent as the idempotency key. */
  id: string;
  /** Null for a standalone test or demo call. */
  occurrenceId: string | null;
  /** The occurrence's account, or the standalone call's (null when it was placed without one). */
  accountId: string | null;
  /** The host's phone number row, copied like `accountId`; null when there is none. */
  phoneNumberId: string | null;
  /** First call, retry or snooze of an occurrence, or a standalone test or demo call. */
  kind: AttemptKind;
  /** 1-based position within its occurrence (1 for standalone calls). */
  n: number;
  /** Where the call stands (see {@link AttemptStatus}). */
  status: AttemptStatus;
  /** Number called, E.164. */
  to: string;
  /** The instant the attempt was due to ring. */
  dueAt: EpochMs;
  /** When the runtime created the row (with the intent, so equal to `requestedAt`). */
  createdAt: EpochMs;
  /** When the intent was stored, before the provider was asked; sent as `PlaceCallRequest.requestedAt`. Null only while `scheduled`. */
  requestedAt: EpochMs | null;
  /** When the provider reported it ringing (`call.ringing`), or null. */
  ringingAt: EpochMs | null;
  /** When it was answered (`call.answered`), or null. */
  answeredAt: EpochMs | null;
  /** When the provider reported its end (`call.ended`), or null: no call, or its end not reported yet. */
  endedAt: EpochMs | null;
  /** Who answered, a person or a machine (`call.answered`), or null when nobody did. */
  answeredBy: 'person' | 'machine' | null;
  /** Keys pressed, in order (`call.digits`), or null when none: 1 confirms, 2 snoozes, 9 stops. */
  digits: string | null;
  /** Seconds connected, from `call.ended`; null when not answered or not ended. */
  durationSeconds: number | null;
  /**
   * Why the call failed: the provider's refusal code (`PlaceCallResult.code`), its `call.ended`
   * error code (`provider_failed` when it gave none), or `provider_timeout` when the watchdog
   * gave up on a call that never rang; else null.
   */
  errorCode: string | null;
  /** The provider's id for the call, once it accepted it. */
  providerCallId: string | null;
  /** Sent with `placeCall`; equals the attempt id (unique per attempt by construction). */
  idempotencyKey: string;
  /** Seconds the call may ring (the policy's, or the standalone call's); sent in the request. */
  ringTimeoutSeconds: number;
  /**
   * Watchdog: when the runtime gives up waiting for the provider (hangs up, ends the
   * attempt). Null once terminal. For standalone attempts this is the timer wheel's key.
   */
  deadlineAt: EpochMs | null;
  /** The script, stored for standalone calls only (occurrence attempts rebuild it from the occurrence). */
  script: CallScript | null;
  /** When the runtime last wrote the row (its clock). */
  updatedAt: EpochMs;
  /** Optimistic concurrency (see {@link Store.commit}); 1 when inserted. */
  version: number;
}

// ---------------------------------------------------------------------------------------
// Series: a schedule's rule as an engine record.
// ---------------------------------------------------------------------------------------

/** `active`: has (or will get) its next occurrence; `completed`: the rule has no call left; `disabled`: turned off. */
export type SeriesStatus = 'active' | 'completed' | 'disabled';

/**
 * A series: the rule of a schedule (one-off at a wall time, in N minutes, weekly on days at a
 * wall time in an IANA zone, with start and end dates, pause-until and skip dates), the
 * per-call fields every occurrence copies, and the embedder's own `attributes`: the one
 * record of a schedule. The engine keeps exactly one unfinished occurrence
 * per active, enabled series (`nextOccurrenceId`) and creates the following one in the unit
 * of work that finishes, cancels or skips it.
 */
export interface SeriesRecord {
  /** Unique id: the Ids port's, or the one the embedder gave (the host uses its schedule's). */
  id: string;
  /** The account it belongs to (the host's id); its occurrences copy it. */
  accountId: string;
  /** The host's phone number row, or null; its occurrences copy it. */
  phoneNumberId: string | null;
  /** Number to call, E.164. */
  to: string;
  /** Short name of the call, copied to every occurrence; null for none. */
  label: string | null;
  /** Spoken note, copied to every occurrence; null for none. */
  message: string | null;
  /** Name the calls greet, or null for a neutral greeting. */
  greetingName: string | null;
  /** Voice identifier for the calls' script, or null for the provider's default. */
  voice: string | null;
  /** When it rings: one-off at a wall time, in N minutes, or weekly, in an IANA zone. */
  rule: Recurrence;
  /** Retry policy every occurrence copies. */
  policy: RetryPolicy;
  /** Every occurrence sends a text when it ends missed, unconfirmed or failed. */
  smsFallback: boolean;
  /** Every occurrence has the app backup alarm on. */
  backupAlarm: boolean;
  /** False: no further call is made (the pending occurrence is cancelled). */
  enabled: boolean;
  /** Set by the runtime on each save: `disabled` when not enabled, `active` while it has a current occurrence, else `completed`. */
  status: SeriesStatus;
  /** The series' current occurrence (unfinished while the series is active), or null. */
  nextOccurrenceId: string | null;
  /** Optimistic concurrency (see {@link Store.commit}). */
  version: number;
  /** When it was first saved (kept when it is replaced). */
  createdAt: EpochMs;
  /** When the runtime last wrote it (its clock). */
  updatedAt: EpochMs;
  /**
   * The embedder's own fields of the series (what it shows and the engine does not need: a
   * display zone, where it was made, …), as opaque text (JSON, say), or null. The engine
   * stores it with the series in the same commit and returns it as written; it never reads
   * it. A series saved without it has null. See docs/decisions/0021-one-home-for-a-schedule.md.
   * @example
   * await runtime.saveSeries({ accountId, to, rule, attributes: JSON.stringify({ source: 'web' }) });
   */
  attributes: string | null;
}
