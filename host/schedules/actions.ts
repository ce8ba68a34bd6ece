/**
 * Pause, resume and skip-next: recurring calls only (a one-off answers 400 not_recurring).
 * Each is a change of one field planned by `planChange`, so it follows every rule of PATCH.
 *
 * - pause `{until}`: paused_until = until, a local date in the call's zone, today or later
 *   (else 400 validation_error) and at most 400 days ahead (else date_too_far). No call
 *   rings on dates up to and including it; a pending call on such a date is moved to the
 *   first date after. 409 occurrence_in_progress while the call is being placed or rings.
 * - resume: clears paused_until. A call in progress is left alone (no 409).
 * - skip-next: the local date of the next call (the stored pending one; while a call is
 *   between attempts, the one after it) is added to skip_dates (sorted; past dates
 *   pruned), and the pending call moves to the following date it rings. With nothing left
 *   to skip, the schedule comes back unchanged. 409 occurrence_in_progress while ringing.
 * @module
 */
import { localDateAt } from '../../engine/internals.js';
import type { Schedule } from './records.js';
import { invalid, problem } from '../errors.js';
import { planChange, storedOccurrence, type PlanContext, type SchedulePlan } from './plan.js';
import { IN_PROGRESS, nextOf } from './rule.js';

function assertRecurring(s: Schedule): void {
  if (s.kind !== 'recurring')
    throw problem('not_recurring', {
      detail: 'Pause, resume and skip-next apply only to recurring calls.',
    });
}

/** Plans POST /schedules/{id}/pause. */
export async function planPause(
  ctx: PlanContext,
  s: Schedule,
  until: string,
): Promise<SchedulePlan> {
  assertRecurring(s);
  const today = localDateAt(s.timezone, ctx.now);
  if (until < today)
    throw invalid({
      field: 'until',
      in: 'body',
      code: 'invalid',
      message: `must be today (${today} in ${s.timezone}) or later`,
    });
  return await planChange(
    ctx,
    s,
    { paused_until: until },
    { refuseInProgress: true, fieldNames: { paused_until: 'until' } },
  );
}

/** Plans POST /schedules/{id}/resume. */
export async function planResume(ctx: PlanContext, s: Schedule): Promise<SchedulePlan> {
  assertRecurring(s);
  return await planChange(ctx, s, { paused_until: null }, { refuseInProgress: false });
}

/** Plans POST /schedules/{id}/skip-next. */
export async function planSkipNext(ctx: PlanContext, s: Schedule): Promise<SchedulePlan> {
  assertRecurring(s);
  const stored = await storedOccurrence(ctx.db, s);
  if (stored && IN_PROGRESS.has(stored.status)) {
    throw problem('occurrence_in_progress', {
      detail: 'The next call is being placed or is ringing now.',
    });
  }
  // The call to skip: the stored pending one, or after the one between attempts, or after now.
  const after =
    stored === null
      ? ctx.now
      : stored.status === 'pending'
        ? stored.scheduledAt - 1
        : stored.scheduledAt;
  const skipped = nextOf(s, after);
  if (skipped === null) return await planChange(ctx, s, {}, { refuseInProgress: true });
  return await planChange(
    ctx,
    s,
    { skip_dates: [...s.skipDates, skipped.date] },
    { refuseInProgress: true },
  );
}
