/**
 * The occurrence machine: one wake-up call at one instant, from pending to a final status.
 *
 * Driven with XState's pure `transition()` (never a live actor): the runtime rebuilds the
 * snapshot from the stored status and a few discrete facts, sends one event, persists the
 * next status and only then performs the named actions. Durable due times are NOT in the
 * machine (no `after`): they are instants on the occurrence row (`nextDueAt`), armed in the
 * timer wheel; a due instant arrives here as the `DUE` event.
 *
 * Context holds only discrete facts (booleans and small enums), so identical
 * (status, facts, event) triples always give identical results and the runtime memoises
 * them (see `memo.ts`).
 * @module
 */
import { setup } from 'xstate';
import type { RefusalReason } from '../ports.js';
import type { OutcomeReason } from '../model.js';

/** Facts the occurrence's guards read; the runtime derives them from the row before each event. */
export interface OccurrenceFacts {
  /** A text goes out when it ends missed, unconfirmed or failed. */
  smsFallback: boolean;
  /** Another retry offset remains in the current series. */
  retriesLeft: boolean;
  /** Some attempt (this one included) was answered by a person who did not confirm. */
  reachedPerson: boolean;
  /** Some attempt (this one included) reached voicemail. */
  reachedVoicemail: boolean;
  /** The latest no-answer or busy result, if any. */
  missReason: 'no_answer' | 'busy' | null;
}

/** What the runtime decided about a due dispatch: go, too late, or refused by the account rules. */
export type DueVerdict = 'go' | 'late' | RefusalReason;

/** How an attempt ended, as reported to its occurrence. `snooze_refused`: 2 pressed with no snoozes left. */
export type AttemptOutcome =
  | 'confirmed'
  | 'snoozed'
  | 'snooze_refused'
  | 'stopped'
  | 'no_input'
  | 'voicemail'
  | 'no_answer'
  | 'busy'
  | 'failed'
  | 'cancelled';

/**
 * Events of the occurrence machine. `DUE` is the wheel firing `nextDueAt` (a dispatch while
 * pending or waiting, the live attempt's watchdog while dispatching or calling).
 */
export type OccurrenceEvent =
  | { type: 'DUE'; verdict: DueVerdict }
  | { type: 'ATTEMPT_LIVE' }
  | { type: 'ATTEMPT_ENDED'; outcome: AttemptOutcome }
  | { type: 'CANCEL' }
  | { type: 'AMEND' };

/**
 * Named actions of the occurrence machine. The runtime implements them (record changes and
 * effects); the machine only names them.
 * - `startAttempt`: create the next attempt (intent) and place its call.
 * - `scheduleRetry`: next offset of the series becomes `nextDueAt`.
 * - `scheduleSnooze`: `snoozeMinutes` from now becomes the new series base; the backup alarm moves.
 * - `finish`: record the outcome reason and the end.
 * - `sendFallback`: the fallback text (recorded as pending, then sent).
 * - `cancelAttempt` / `timeoutAttempt`: forward CANCEL / TIMEOUT to the live attempt.
 * - `rearm`: the instant or the call's details changed while pending.
 */
export type OccurrenceActionName = keyof typeof occurrenceActionNames;

/** The named actions (bodies are the runtime's; see unit-of-work.ts). */
const occurrenceActionNames = {
  startAttempt: () => {},
  scheduleRetry: () => {},
  scheduleSnooze: () => {},
  finish: (_: unknown, _params: { reason: OutcomeReason }) => {},
  sendFallback: () => {},
  cancelAttempt: () => {},
  timeoutAttempt: () => {},
  rearm: () => {},
};

const finish = (reason: OutcomeReason) => ({ type: 'finish' as const, params: { reason } });

const due = [
  {
    guard: { type: 'verdictIs', params: { verdict: 'go' } },
    target: 'dispatching',
    actions: 'startAttempt',
  },
  {
    guard: { type: 'verdictIs', params: { verdict: 'late' } },
    target: 'missed',
    actions: finish('late_dispatch'),
  },
  ...(['calls_revoked', 'number_blocked', 'no_entitlement', 'daily_cap_reached'] as const).map(
    (verdict) => ({
      guard: { type: 'verdictIs' as const, params: { verdict } },
      target: 'cancelled',
      actions: finish(verdict),
    }),
  ),
] as const;

const ended = [
  { guard: { type: 'outcomeIs', params: { outcome: 'cancelled' } } },
  {
    guard: { type: 'outcomeIs', params: { outcome: 'confirmed' } },
    target: 'confirmed',
    actions: finish('confirmed'),
  },
  {
    guard: { type: 'outcomeIs', params: { outcome: 'stopped' } },
    target: 'cancelled',
    actions: finish('stopped'),
  },
  {
    guard: { type: 'outcomeIs', params: { outcome: 'snoozed' } },
    target: 'waiting',
    actions: 'scheduleSnooze',
  },
  {
    guard: { type: 'outcomeIs', params: { outcome: 'snooze_refused' } },
    target: 'unconfirmed',
    actions: finish('snoozes_exhausted'),
  },
  { guard: 'retriesLeft', target: 'waiting', actions: 'scheduleRetry' },
  { guard: 'reachedPerson', target: 'unconfirmed', actions: finish('no_input') },
  { guard: 'reachedVoicemail', target: 'unconfirmed', actions: finish('voicemail') },
  {
    guard: { type: 'missedBy', params: { reason: 'no_answer' } },
    target: 'missed',
    actions: finish('no_answer'),
  },
  {
    guard: { type: 'missedBy', params: { reason: 'busy' } },
    target: 'missed',
    actions: finish('busy'),
  },
  { target: 'failed', actions: finish('provider_error') },
] as const;

/**
 * The occurrence machine. State values are the stored statuses. Final states ignore every
 * event (a cancel of a finished occurrence changes nothing; the runtime answers
 * `occurrence_terminal`).
 */
const occurrenceSetup = setup({
  types: {
    context: {} as OccurrenceFacts,
    input: {} as OccurrenceFacts,
    events: {} as OccurrenceEvent,
  },
  actions: occurrenceActionNames,
  guards: {
    verdictIs: ({ event }, params: { verdict: DueVerdict }) =>
      event.type === 'DUE' && event.verdict === params.verdict,
    outcomeIs: ({ event }, params: { outcome: AttemptOutcome }) =>
      event.type === 'ATTEMPT_ENDED' && event.outcome === params.outcome,
    retriesLeft: ({ context }) => context.retriesLeft,
    reachedPerson: ({ context }) => context.reachedPerson,
    reachedVoicemail: ({ context }) => context.reachedVoicemail,
    missedBy: ({ context }, params: { reason: 'no_answer' | 'busy' }) =>
      context.missReason === params.reason,
  },
});

const fallbackOnEntry = occurrenceSetup.enqueueActions(({ context, enqueue }) => {
  if (context.smsFallback) enqueue('sendFallback');
});

export const occurrenceMachine = occurrenceSetup.createMachine({
  id: 'occurrence',
  initial: 'pending',
  context: ({ input }) => input,
  states: {
    pending: {
      on: {
        DUE: [...due],
        CANCEL: { target: 'cancelled', actions: finish('cancelled') },
        AMEND: { target: 'pending', reenter: true, actions: 'rearm' },
      },
    },
    waiting: {
      on: {
        DUE: [...due],
        CANCEL: { target: 'cancelled', actions: finish('cancelled') },
      },
    },
    dispatching: {
      tags: ['inProgress'],
      on: {
        ATTEMPT_LIVE: { target: 'calling' },
        ATTEMPT_ENDED: [...ended],
        DUE: { actions: 'timeoutAttempt' },
        CANCEL: { target: 'cancelled', actions: ['cancelAttempt', finish('cancelled')] },
      },
    },
    calling: {
      tags: ['inProgress'],
      on: {
        ATTEMPT_ENDED: [...ended],
        DUE: { actions: 'timeoutAttempt' },
        CANCEL: { target: 'cancelled', actions: ['cancelAttempt', finish('cancelled')] },
      },
    },
    confirmed: { type: 'final' },
    cancelled: { type: 'final' },
    missed: { type: 'final', entry: fallbackOnEntry },
    unconfirmed: { type: 'final', entry: fallbackOnEntry },
    failed: { type: 'final', entry: fallbackOnEntry },
  },
});
