/**
 * The wake-up call engine, as an embedder uses it: build a runtime from the ports
 * ({@link createRuntime}), schedule one-off calls and recurring series, read the records it
 * keeps, and resolve wall times and recurrence rules in IANA zones (strings and epoch
 * milliseconds, or Temporal values through the adapter functions).
 *
 * Every name here is documented, stable API. What the host, the benchmarks and the tests use
 * beyond it (the machines, the timer wheel, the Store's unit-of-work types, the host's
 * product helpers) is in `@wakeup/engine/internals`, with no promise between versions; see
 * docs/decisions/0020-engine-public-surface.md. In-process stand-ins for the ports are in
 * `@wakeup/engine/sim`, the stores in `./sqlite` and `./postgres`, the conformance suites in
 * `./testing`.
 * @module
 * @packageDocumentation
 */

// The runtime: one object that schedules, dispatches and records calls.
export { createRuntime } from './runtime/runtime.js';
export type {
  NewCall,
  NewOccurrence,
  OccurrencePatch,
  PlaceCallOutcome,
  Runtime,
  RuntimeDeps,
  RuntimeStats,
  SavedSeries,
  SeriesInput,
  SeriesNext,
  StartOptions,
  StatusChange,
  UnitWriter,
} from './runtime/types.js';
export type {
  EffectRetryOptions,
  LeaseOptions,
  PacingOptions,
  ResolvedRuntimeOptions,
  RuntimeOptions,
} from './runtime/options.js';
export type { ClosingPhrase } from './machines/attempt.machine.js';
export type { RuntimeEventMap, RuntimeListener } from './runtime/events.js';
export { DEFAULT_RETRY_POLICY, resolveRetryPolicy } from './runtime/retry-policy.js';
export type { RetryPolicyInput } from './runtime/retry-policy.js';
export { EngineError, PlacementDeferred } from './runtime/errors.js';

// The real-time clock adapter: capped, re-armed timers on the time source its caller passes.
export { MAX_STEP_MS, systemClock } from './defaults/system-clock.js';
export type { SystemClock, SystemClockOptions } from './defaults/system-clock.js';

// The ports the embedder implements or picks (engine/sim, engine/sqlite, engine/postgres).
export type {
  Accounts,
  CallEndReason,
  CallToAdmit,
  Clock,
  HangUpOptions,
  Ids,
  Messaging,
  PlaceCallRequest,
  PlaceCallResult,
  RefusalReason,
  SendResult,
  StopRequest,
  Telephony,
  TelephonyEvent,
  TelephonyEventHandler,
  TimerHandle,
} from './ports.js';
export type { ChangeSet, CommitOptions, RowWrite, Store, StoreWrite } from './store-types.js';
export type { CallScript } from './model.js';

// The records the runtime keeps and returns.
export type {
  AttemptKind,
  AttemptRecord,
  AttemptStatus,
  DerivationSource,
  FallbackState,
  OccurrenceRecord,
  OccurrenceStatus,
  OutcomeReason,
  RetryPolicy,
  SeriesRecord,
  SeriesStatus,
} from './model.js';

// Time: instants, wall times, zones and recurrence rules. Every function is pure: the
// reference instant is an argument (epoch milliseconds), nothing reads the clock; zone rules
// come from the runtime's ICU data and are cached per zone.
export type { EpochMs } from './time/epoch.js';
export { resolveWallTime } from './time/wall-time.js';
export type { LocalTime, WallTimeKind, WallTimeResolution } from './time/wall-time.js';
export type { Transition } from './time/zone-rules.js';
export { WEEKDAYS } from './time/civil.js';
export type { Weekday } from './time/civil.js';
export { nextOccurrenceAfter, upcomingOccurrences } from './time/recurrence.js';
export type { OccurrenceTime } from './time/recurrence.js';
export type {
  InMinutesRecurrence,
  OneOffRecurrence,
  Recurrence,
  RecurrenceInput,
  WeeklyRecurrence,
  WeeklyRecurrenceInput,
} from './time/rule-types.js';
export { compileRecurrence } from './time/recurrence-check.js';
export { inMinutes, once, weekly } from './time/rules.js';
export type { WeeklyOptions } from './time/rules.js';
export { checkTimeZone } from './time/zone-policy.js';
export type { TimeZoneCheck } from './time/zone-policy.js';

// Temporal at the edge (decision 0017): Temporal values in and out, strings and numbers inside.
export {
  epochMsFrom,
  localDateFrom,
  localTimeFrom,
  occurrenceTimeToTemporal,
  resolveWallTimeTemporal,
  zonedDateTimeAt,
} from './time/temporal.js';
export type {
  InstantLike,
  PlainDateLike,
  PlainTimeLike,
  TemporalNamespace,
  TemporalOccurrenceTime,
  TemporalOptions,
  TemporalWallTime,
  ZonedDateTimeLike,
} from './time/temporal.js';
