/** Status predicates come from the machines (final states and tags), not from hand-kept lists. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  FINISHED_OCCURRENCE_STATUSES,
  IN_PROGRESS_OCCURRENCE_STATUSES,
  LIVE_ATTEMPT_STATUSES,
  TERMINAL_ATTEMPT_STATUSES,
  UNFINISHED_OCCURRENCE_STATUSES,
  attemptMachine,
  occurrenceMachine,
} from '../../engine/internals.js';

describe('status predicates derived from the machines', () => {
  it('splits every occurrence state into finished or unfinished, with dispatching and calling in progress', () => {
    assert.deepEqual([...FINISHED_OCCURRENCE_STATUSES].sort(), [
      'cancelled',
      'confirmed',
      'failed',
      'missed',
      'unconfirmed',
    ]);
    assert.deepEqual([...UNFINISHED_OCCURRENCE_STATUSES].sort(), [
      'calling',
      'dispatching',
      'pending',
      'waiting',
    ]);
    assert.deepEqual([...IN_PROGRESS_OCCURRENCE_STATUSES].sort(), ['calling', 'dispatching']);
    assert.equal(
      FINISHED_OCCURRENCE_STATUSES.size + UNFINISHED_OCCURRENCE_STATUSES.size,
      Object.keys(occurrenceMachine.states).length,
    );
  });

  it('spells a cancelled attempt like a cancelled occurrence, and lists live attempts as the non-final states', () => {
    assert.ok(TERMINAL_ATTEMPT_STATUSES.has('cancelled'));
    assert.deepEqual([...LIVE_ATTEMPT_STATUSES].sort(), ['answered', 'requested', 'ringing']);
    assert.equal(
      TERMINAL_ATTEMPT_STATUSES.size + LIVE_ATTEMPT_STATUSES.size,
      Object.keys(attemptMachine.states).length,
    );
  });
});
