/**
 * Saving a {@link SchedulePlan}, and deleting a schedule. The runtime's commands are
 * asynchronous units of work of their own, so the schedule row and the occurrence are two
 * commits, ordered so that neither a refusal nor a crash between them leaves a wrong state:
 *
 * - amend: the engine first (it refuses while the call is being placed: then nothing is
 *   written), then the row;
 * - schedule: the row first, naming the new occurrence (a crash before the occurrence is
 *   stored is repaired by the chain's start-up sweep, which stores a missing next occurrence);
 * - cancel: the row first, no longer naming the occurrence, so that the next-occurrence chain
 *   (`chain.ts`), which reacts to the cancellation, does not store a replacement of its own.
 * @module
 */
import type { Database } from 'better-sqlite3';
import type { EpochMs, Runtime } from '../../engine/index.js';
import {
  deleteScheduleOccurrences,
  deleteScheduleRow,
  getSchedule,
  insertSchedule,
  scheduleHasRung,
  updateSchedule,
  type Schedule,
} from '../db/schedules.js';
import { problem } from '../errors.js';
import type { SchedulePlan } from './plan.js';
import { IN_PROGRESS, occurrenceFields } from './rule.js';
import { storedOccurrence } from './plan.js';

/** What saving needs. */
export interface ApplyDeps {
  db: Database;
  runtime: Runtime;
}

/** Writes the plan; returns the schedule as stored. */
export async function applyPlan(deps: ApplyDeps, plan: SchedulePlan): Promise<Schedule> {
  const { db, runtime } = deps;
  const { after, action } = plan;
  const writeRow = () => (plan.before ? updateSchedule(db, after) : insertSchedule(db, after));
  switch (action.kind) {
    case 'keep':
      writeRow();
      break;
    case 'schedule':
      writeRow();
      await runtime.schedule({
        id: action.id,
        scheduleId: after.id,
        accountId: after.accountId,
        ...occurrenceFields(after, plan.account, plan.phone!, action.at),
      });
      break;
    case 'amend': {
      const r = await runtime.amend(plan.stored!.id, occurrenceFields(after, plan.account, plan.phone!, action.at));
      // The call started between planning and saving: refuse rather than half-apply.
      if (!r.ok) throw problem('occurrence_in_progress', { detail: 'The call is being placed now; change it once it has finished.' });
      writeRow();
      break;
    }
    case 'cancel':
      writeRow();
      await runtime.cancel(plan.stored!.id);
      break;
  }
  return getSchedule(db, after.accountId, after.id)!;
}

/**
 * DELETE /schedules/{id}: 409 occurrence_in_progress while its call is being placed or
 * rings. Otherwise its unfinished occurrence is cancelled (a pending call, or the remaining
 * retries and snoozes of one between attempts); a schedule none of whose calls was placed is
 * removed with its occurrences; one whose call was placed is kept, disabled, as history.
 * Returns whether the row was removed.
 */
export async function deleteSchedule(deps: ApplyDeps, before: Schedule, now: EpochMs): Promise<'removed' | 'kept'> {
  const { db, runtime } = deps;
  const stored = storedOccurrence(db, before);
  if (stored && IN_PROGRESS.has(stored.status)) {
    throw problem('occurrence_in_progress', { detail: 'The call is being placed or is ringing now; delete it once it has finished.' });
  }
  updateSchedule(db, { ...before, enabled: false, status: 'disabled', nextOccurrenceId: null, updatedAt: now });
  if (stored) await runtime.cancel(stored.id);
  return db.transaction(() => {
    if (scheduleHasRung(db, before.id)) return 'kept' as const;
    deleteScheduleOccurrences(db, before.id);
    deleteScheduleRow(db, before.id);
    return 'removed' as const;
  })();
}
