/** Occurrence and attempt machines (XState v5), their memoised steps and effects. @module */
export { occurrenceMachine } from './occurrence.machine.js';
export type { AttemptOutcome, DueVerdict, OccurrenceActionName, OccurrenceEvent, OccurrenceFacts } from './occurrence.machine.js';
export { attemptMachine } from './attempt.machine.js';
export type { AttemptActionName, AttemptEvent, AttemptFacts, ClosingPhrase, KeypadKey } from './attempt.machine.js';
export { memoStep } from './memo.js';
export type { MemoKeys, MemoStats, MemoStep, StepAction, StepResult } from './memo.js';
export type { Effect, HangUpEffect, PlaceCallEffect, SendTextEffect, StopCallsEffect } from './effects.js';
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
} from './status.js';
