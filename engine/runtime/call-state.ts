/**
 * Read helpers for API layers: whether an attempt is live, and the demo call's `state`.
 * @module
 */
import type { AttemptRecord } from '../model.js';

export { isLiveAttempt } from '../machines/status.js';

/** DemoCallOut.state values the engine can produce (`not_placed` is the host's: refused before an attempt existed). */
export type CallState =
  | 'calling'
  | 'ringing'
  | 'answered'
  | 'confirmed'
  | 'stopped'
  | 'unconfirmed'
  | 'missed'
  | 'failed';

/**
 * The demo (or test) call's state from its attempt: calling (requested), ringing, answered,
 * confirmed (1), stopped (9), unconfirmed (answered without 1: no key, voicemail, a 2),
 * missed (no answer, busy, hung up by us), failed (the provider refused or failed).
 */
export function callState(attempt: Pick<AttemptRecord, 'status'>): CallState {
  switch (attempt.status) {
    case 'scheduled':
    case 'requested':
      return 'calling';
    case 'ringing':
    case 'answered':
    case 'confirmed':
    case 'stopped':
    case 'failed':
      return attempt.status;
    case 'no_input':
    case 'voicemail':
    case 'snoozed':
      return 'unconfirmed';
    case 'no_answer':
    case 'busy':
    case 'cancelled':
      return 'missed';
  }
}
