/**
 * Status predicates derived from the machines, never hand-listed: a status is finished when
 * its state is final, in progress when its state carries the `inProgress` tag, and an attempt
 * is live while its state is not final.
 * @module
 */
import type { AnyStateMachine } from 'xstate';
import type { AttemptStatus, OccurrenceStatus } from '../model.js';
import { attemptMachine } from './attempt.machine.js';
import { occurrenceMachine } from './occurrence.machine.js';

function statesWhere<S extends string>(
  machine: AnyStateMachine,
  keep: (node: { type: string; tags: Set<string> }) => boolean,
): ReadonlySet<S> {
  const out = new Set<S>();
  for (const [key, node] of Object.entries(
    machine.states as Record<string, { type: string; tags: Iterable<string> }>,
  )) {
    if (keep({ type: node.type, tags: new Set(node.tags) })) out.add(key as S);
  }
  return out;
}

/** Final occurrence statuses: confirmed, missed, failed, cancelled, unconfirmed. */
export const FINISHED_OCCURRENCE_STATUSES = statesWhere<OccurrenceStatus>(
  occurrenceMachine,
  (n) => n.type === 'final',
);
/** Occurrence statuses not finished: pending, dispatching, calling, waiting. */
export const UNFINISHED_OCCURRENCE_STATUSES = statesWhere<OccurrenceStatus>(
  occurrenceMachine,
  (n) => n.type !== 'final',
);
/** Occurrence statuses in which a call is being placed or rings (tag `inProgress`). */
export const IN_PROGRESS_OCCURRENCE_STATUSES = statesWhere<OccurrenceStatus>(
  occurrenceMachine,
  (n) => n.tags.has('inProgress'),
);
/** Final attempt statuses. */
export const TERMINAL_ATTEMPT_STATUSES = statesWhere<AttemptStatus>(
  attemptMachine,
  (n) => n.type === 'final',
);
/** Attempt statuses of a call still going on (the machine's non-final states). */
export const LIVE_ATTEMPT_STATUSES = statesWhere<AttemptStatus>(
  attemptMachine,
  (n) => n.type !== 'final',
);

/** True when the occurrence status is final (confirmed, missed, failed, cancelled, unconfirmed). */
export function isFinishedOccurrence(status: OccurrenceStatus): boolean {
  return FINISHED_OCCURRENCE_STATUSES.has(status);
}

/** True while the occurrence's call is being placed or rings (dispatching, calling). */
export function isInProgressOccurrence(status: OccurrenceStatus): boolean {
  return IN_PROGRESS_OCCURRENCE_STATUSES.has(status);
}

/** True when the attempt status is final. */
export function isTerminalAttempt(status: AttemptStatus): boolean {
  return TERMINAL_ATTEMPT_STATUSES.has(status);
}

/** `live` of AttemptOut: requested, ringing or answered (poll GET /calls/{id} every 2 s). */
export function isLiveAttempt(status: AttemptStatus): boolean {
  return LIVE_ATTEMPT_STATUSES.has(status);
}
