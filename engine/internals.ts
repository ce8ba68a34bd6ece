/**
 * The engine's internals: `import { TimerWheel } from '@wakeup/engine/internals'`.
 *
 * What the host, the benchmarks and the tests use beyond the public entry (`@wakeup/engine`):
 * the occurrence and attempt machines and their memoised steps, the effects they return, the
 * timer wheel and the pacer, the Store's unit-of-work types (for a store's author), the status
 * sets, zone rules, and the time helpers behind the host's own features (home time, calendar
 * arithmetic on strings, and what the host's zone search reads). Nothing here is promised between versions; see
 * docs/decisions/0020-engine-public-surface.md.
 * @module
 * @packageDocumentation
 */

// The Store's unit of work: what a store's author implements (decision 0005: its shape moves).
export type {
  ChangeSet,
  CommitResult,
  DueCursor,
  DueQuery,
  DueRef,
  LoadKeys,
  RowRef,
  RowWrite,
  SettleScope,
  Snapshot,
} from './store-types.js';
// The store's read model and its writes outside a unit of work (decision 0021): what an API reads.
export type {
  AccountSummary,
  AccountWindow,
  AttemptHour,
  AttemptQuery,
  LatenessMinute,
  OccurrencePage,
  OccurrenceQuery,
  Sequenced,
  SeriesPage,
  SeriesQuery,
  StoreMaintenance,
  StoreReads,
  SummaryQuery,
} from './reads.js';

// The runtime's parts.
export { resolveRuntimeOptions } from './runtime/options.js';
export { RETRY_POLICY_BOUNDS } from './runtime/retry-policy.js';
export { callState } from './runtime/call-state.js';
export type { CallState } from './runtime/call-state.js';
export { Pacer } from './runtime/pacer.js';
export { TimerWheel } from './wheel/timer-wheel.js';
export type { TimerWheelOptions, WheelEntry } from './wheel/timer-wheel.js';

// The machines, their memoised steps and the effects they return.
export { occurrenceMachine } from './machines/occurrence.machine.js';
export type {
  AttemptOutcome,
  DueVerdict,
  OccurrenceActionName,
  OccurrenceEvent,
  OccurrenceFacts,
} from './machines/occurrence.machine.js';
export { attemptMachine } from './machines/attempt.machine.js';
export type {
  AttemptActionName,
  AttemptEvent,
  AttemptFacts,
  KeypadKey,
} from './machines/attempt.machine.js';
export { memoStep } from './machines/memo.js';
export type { MemoKeys, MemoStats, MemoStep, StepAction, StepResult } from './machines/memo.js';
export type {
  Effect,
  HangUpEffect,
  PlaceCallEffect,
  SendTextEffect,
  StopCallsEffect,
} from './machines/effects.js';
export {
  FINISHED_OCCURRENCE_STATUSES,
  IN_PROGRESS_OCCURRENCE_STATUSES,
  LIVE_ATTEMPT_STATUSES,
  TERMINAL_ATTEMPT_STATUSES,
  UNFINISHED_OCCURRENCE_STATUSES,
  isFinishedOccurrence,
  isInProgressOccurrence,
  isLiveAttempt,
  isTerminalAttempt,
} from './machines/status.js';

// Time: zone rules, limits, and the helpers behind the host's features.
export {
  countryOfZone,
  getZoneRules,
  ZoneRules,
  useZoneRulesSource,
  zoneRulesVersion,
} from './time/zone-rules.js';
export type { ZoneRulesSource } from './time/zone-rules.js';
export { listAcceptedZones, CLDR_SPELLINGS } from './time/zone-policy.js';
export { formatDate, formatOffset, formatTime, parseDate, parseTime } from './time/civil.js';
export { ZONE_TAB } from './time/data/zone-tab.js';
export {
  WALL_TIME_POLICY,
  homeTimeAt,
  inHomeTimezone,
  localDateAt,
  localTimeAt,
} from './time/wall-time.js';
export type { HomeTime } from './time/wall-time.js';
export {
  isRecurrenceComplete,
  nextAfterOccurrence,
  pruneSkipDates,
  skipNextOccurrence,
} from './time/recurrence.js';
