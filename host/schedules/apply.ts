/**
 * Saving a {@link SchedulePlan}, and deleting a schedule: every database change of one
 * request in one transaction. The runtime's `schedule`, `amend` and `cancel` are synchronous
 * units of work on the same database handle, so inside our transaction they join it as
 * savepoints: the schedule row and its occurrence are written together or not at all.
 *
 * Order matters for the next-occurrence chain (`chain.ts`): the schedule row is written
 * (naming its new next occurrence, or none) BEFORE a stored occurrence is cancelled, so the
 * chain, which reacts synchronously to the cancellation, sees that the schedule no longer
 * names it and does not store a replacement of its own.
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
export function applyPlan(deps: ApplyDeps, plan: SchedulePlan): Schedule {
  const { db, runtime } = deps;
  return db.transaction(() => {
    const { after, action } = plan;
    if (plan.before) updateSchedule(db, after);
    else insertSchedule(db, after);
    switch (action.kind) {
      case 'keep':
        break;
      case 'schedule':
        runtime.schedule({
          id: action.id,
          scheduleId: after.id,
          accountId: after.accountId,
          ...occurrenceFields(after, plan.account, plan.phone!, action.at),
        });
        break;
      case 'amend': {
        const fields = occurrenceFields(after, plan.account, plan.phone!, action.at);
        if (plan.derivationSource) fields.derivationSource = plan.derivationSource;
        const r = runtime.amend(plan.stored!.id, fields);
        // The call started between planning and saving (same tick): refuse rather than half-apply.
        if (!r.ok) throw problem('occurrence_in_progress', { detail: 'The call is being placed now; change it once it has finished.' });
        break;
      }
      case 'cancel':
        runtime.cancel(plan.stored!.id);
        break;
    }
    return getSchedule(db, after.accountId, after.id)!;
  })();
}

/**
 * DELETE /schedules/{id}: 409 occurrence_in_progress while its call is being placed or
 * rings. Otherwise its unfinished occurrence is cancelled (a pending call, or the remaining
 * retries and snoozes of one between attempts); a schedule none of whose calls was placed is
 * removed with its occurrences; one whose call was placed is kept, disabled, as history.
 * Returns whether the row was removed.
 */
export function deleteSchedule(deps: ApplyDeps, before: Schedule, now: EpochMs): 'removed' | 'kept' {
  const { db, runtime } = deps;
  return db.transaction(() => {
    const stored = storedOccurrence(db, before);
    if (stored && IN_PROGRESS.has(stored.status)) {
      throw problem('occurrence_in_progress', { detail: 'The call is being placed or is ringing now; delete it once it has finished.' });
    }
    const rang = scheduleHasRung(db, before.id);
    updateSchedule(db, { ...before, enabled: false, status: 'disabled', nextOccurrenceId: null, updatedAt: now });
    if (stored) runtime.cancel(stored.id);
    if (rang) return 'kept' as const;
    deleteScheduleOccurrences(db, before.id);
    deleteScheduleRow(db, before.id);
    return 'removed' as const;
  })();
}
