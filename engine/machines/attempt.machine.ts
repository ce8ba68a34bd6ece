/**
 * The attempt machine: one phone call, from the stored intent (`requested`) to a terminal
 * status. Driven like the occurrence machine with XState's pure `transition()`; its
 * watchdog is an instant on the row (`deadlineAt`, or the occurrence's `nextDueAt`), never
 * an `after` delay, and arrives here as `TIMEOUT`.
 *
 * Keypad (host contract §4): 1 confirms, 2 snoozes while snoozes remain, 9 stops and turns
 * the account's calls off. Any other key is ignored (the call goes on; if nothing valid is
 * pressed it ends as `no_input`). Test and demo calls know 1 and 9 only.
 * @module
 */
import { and, setup } from 'xstate';
import type { CallEndReason } from '../ports.js';
import type { AttemptOutcome } from './occurrence.machine.js';

/** Facts the attempt's guards read. */
export interface AttemptFacts {
  /** A wake-up attempt (first, retry, snooze), not a test or demo call. */
  wakeUp: boolean;
  /** Key 2 may snooze: a wake-up attempt and snoozes remain. */
  snoozeAllowed: boolean;
  /** Who answered, once known. */
  answeredBy: 'person' | 'machine' | null;
}

/** The key classes the machine tells apart. */
export type KeypadKey = '1' | '2' | '9' | 'other';

/**
 * Events of the attempt machine (the runtime records times, ids and digits on the row
 * first). The provider's acceptance of a call is a recorded fact (its call id), not an event:
 * nothing changes until the phone rings.
 */
export type AttemptEvent =
  | { type: 'PLACE_FAILED' }
  | { type: 'RINGING' }
  | { type: 'ANSWERED' }
  | { type: 'DIGITS'; key: KeypadKey }
  | { type: 'ENDED'; reason: CallEndReason }
  | { type: 'TIMEOUT' }
  | { type: 'CANCEL' };

/**
 * What the call says when we hang up after a key: `confirmed` (1), `snoozed` (2), `stopped` (9),
 * `no_snoozes` (2 with no snooze left). A name the runtime turns into words: `RuntimeOptions.phrases`.
 */
export type ClosingPhrase = 'confirmed' | 'snoozed' | 'stopped' | 'no_snoozes';

/**
 * Named actions of the attempt machine, implemented by the runtime:
 * - `armWatchdog` (entry of every live state): deadline from the status and the row's times.
 * - `disarmWatchdog` (entry of every terminal state).
 * - `reportLive`: tell the occurrence the phone rings (or was answered).
 * - `reportOutcome`: tell the occurrence how the attempt ended.
 * - `hangUp`: end the call, saying the closing phrase if any.
 * - `stopCalls`: key 9: account calls off, number blocked (inside the unit of work).
 */
export type AttemptActionName = keyof typeof attemptActionNames;

/** The named actions (bodies are the runtime's; see unit-of-work.ts). */
const attemptActionNames = {
  armWatchdog: () => {},
  disarmWatchdog: () => {},
  reportLive: () => {},
  reportOutcome: (_: unknown, _params: { outcome: AttemptOutcome }) => {},
  hangUp: (_: unknown, _params: { phrase: ClosingPhrase | null }) => {},
  stopCalls: () => {},
};

const report = (outcome: AttemptOutcome) => ({
  type: 'reportOutcome' as const,
  params: { outcome },
});
const hangUp = (phrase: ClosingPhrase | null) => ({ type: 'hangUp' as const, params: { phrase } });

/** ENDED before anybody answered. */
const endedUnanswered = [
  {
    guard: { type: 'endedWith', params: { reason: 'busy' } },
    target: 'busy',
    actions: report('busy'),
  },
  {
    guard: { type: 'endedWith', params: { reason: 'failed' } },
    target: 'failed',
    actions: report('failed'),
  },
  { target: 'no_answer', actions: report('no_answer') },
] as const;

/** ENDED (or the watchdog) after an answer without a valid key. */
const endedAnswered = (withHangUp: boolean) =>
  [
    {
      guard: 'byMachine',
      target: 'voicemail',
      actions: withHangUp ? [hangUp(null), report('voicemail')] : [report('voicemail')],
    },
    {
      target: 'no_input',
      actions: withHangUp ? [hangUp(null), report('no_input')] : [report('no_input')],
    },
  ] as const;

const cancel = { target: 'cancelled', actions: [hangUp(null), report('cancelled')] } as const;

/** The attempt machine. State values are the stored attempt statuses. */
export const attemptMachine = setup({
  types: {
    context: {} as AttemptFacts,
    input: {} as AttemptFacts,
    events: {} as AttemptEvent,
  },
  actions: attemptActionNames,
  guards: {
    endedWith: ({ event }, params: { reason: CallEndReason }) =>
      event.type === 'ENDED' && event.reason === params.reason,
    keyIs: ({ event }, params: { key: KeypadKey }) =>
      event.type === 'DIGITS' && event.key === params.key,
    snoozeAllowed: ({ context }) => context.snoozeAllowed,
    wakeUp: ({ context }) => context.wakeUp,
    byMachine: ({ context }) => context.answeredBy === 'machine',
  },
}).createMachine({
  id: 'attempt',
  initial: 'requested',
  context: ({ input }) => input,
  states: {
    requested: {
      entry: 'armWatchdog',
      on: {
        RINGING: { target: 'ringing', actions: 'reportLive' },
        ANSWERED: { target: 'answered', actions: 'reportLive' },
        PLACE_FAILED: { target: 'failed', actions: report('failed') },
        ENDED: [...endedUnanswered],
        TIMEOUT: { target: 'failed', actions: [hangUp(null), report('failed')] },
        CANCEL: cancel,
      },
    },
    ringing: {
      entry: 'armWatchdog',
      on: {
        ANSWERED: { target: 'answered' },
        ENDED: [...endedUnanswered],
        TIMEOUT: { target: 'no_answer', actions: [hangUp(null), report('no_answer')] },
        CANCEL: cancel,
      },
    },
    answered: {
      entry: 'armWatchdog',
      on: {
        DIGITS: [
          {
            guard: { type: 'keyIs', params: { key: '1' } },
            target: 'confirmed',
            actions: [hangUp('confirmed'), report('confirmed')],
          },
          {
            guard: { type: 'keyIs', params: { key: '9' } },
            target: 'stopped',
            actions: ['stopCalls', hangUp('stopped'), report('stopped')],
          },
          {
            guard: and([{ type: 'keyIs', params: { key: '2' as const } }, 'snoozeAllowed']),
            target: 'snoozed',
            actions: [hangUp('snoozed'), report('snoozed')],
          },
          {
            guard: and([{ type: 'keyIs', params: { key: '2' as const } }, 'wakeUp']),
            target: 'no_input',
            actions: [hangUp('no_snoozes'), report('snooze_refused')],
          },
        ],
        ENDED: [...endedAnswered(false)],
        TIMEOUT: [...endedAnswered(true)],
        CANCEL: cancel,
      },
    },
    confirmed: { type: 'final', entry: 'disarmWatchdog' },
    snoozed: { type: 'final', entry: 'disarmWatchdog' },
    stopped: { type: 'final', entry: 'disarmWatchdog' },
    no_input: { type: 'final', entry: 'disarmWatchdog' },
    voicemail: { type: 'final', entry: 'disarmWatchdog' },
    no_answer: { type: 'final', entry: 'disarmWatchdog' },
    busy: { type: 'final', entry: 'disarmWatchdog' },
    failed: { type: 'final', entry: 'disarmWatchdog' },
    cancelled: { type: 'final', entry: 'disarmWatchdog' },
  },
});
