/**
 * What the runtime's commands share in checking: the refusals they throw (an occurrence or a
 * series that is missing, or in a state the command cannot change), each code with its
 * message, and the check of a retry policy a caller passes.
 * @module
 */
import type { RetryPolicy } from '../model.js';
import { isResolvedRetryPolicy, resolveRetryPolicy } from './retry-policy.js';

/** The message of each refusal a command throws, by code. */
export const REFUSALS = {
  occurrence_not_found: 'no occurrence has this id',
  occurrence_terminal: 'the occurrence is finished',
  occurrence_not_pending: 'the occurrence is no longer pending: it is being placed or rang',
  occurrence_in_progress: 'the current occurrence is being placed or rings',
  series_not_found: 'no series has this id',
  not_recurring: 'the series is not weekly: it has no next call to skip',
} as const;

/** The code of a refusal a command throws. */
export type Refusal = keyof typeof REFUSALS;

/** A caller's retry policy, valid (or EngineError `invalid_retry_policy` thrown, field `policy.<field>`). */
export function checkPolicy(p: RetryPolicy): RetryPolicy {
  // Resolved once: a policy resolveRetryPolicy returned (frozen) is valid as it is.
  return isResolvedRetryPolicy(p) ? p : resolveRetryPolicy(p, { path: 'policy' });
}
