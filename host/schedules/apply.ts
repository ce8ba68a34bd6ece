/**
 * Saving a {@link SchedulePlan}, and deleting a schedule. A schedule is the engine's series
 * (schedule.ts), so a save is ONE `runtime.saveSeries`: one unit of work of the engine, one
 * commit, which writes the series (its attributes included) and applies the plan's action to
 * its current occurrence (schedule, amend, cancel or keep), and refuses when the call started
 * meanwhile (then nothing is written). From then on the engine makes each next occurrence
 * itself, in the unit of work that finishes the previous one.
 * @module
 */
import type { Db } from '../db/sql.js';
import { EngineError, type EpochMs, type Runtime } from '../../engine/index.js';
import { engineStore } from '../db/engine-store.js';
import { findAccountById } from '../db/accounts.js';
import { getPhoneNumber } from '../db/phone-numbers.js';
import { problem } from '../errors.js';
import type { SchedulePlan } from './plan.js';
import { IN_PROGRESS } from './rule.js';
import { occurrencePolicy } from './rule.js';
import { scheduleOf, type Schedule, type ScheduleWithNext } from './records.js';
import { seriesAgain, seriesInput, seriesNext } from './series.js';

/** What saving needs. */
export interface ApplyDeps {
  db: Db;
  runtime: Runtime;
}

const IN_PROGRESS_DETAIL = 'The call is being placed now; change it once it has finished.';

/** The engine's refusal of a change while the current call is placed or rings, as the API's problem. */
function inProgress(err: unknown): never {
  if (EngineError.is(err) && err.code === 'occurrence_in_progress')
    throw problem('occurrence_in_progress', { detail: IN_PROGRESS_DETAIL });
  throw err;
}

/**
 * Turns a schedule's series off: from now on the engine makes no next occurrence for it. Its
 * unfinished occurrence is left as it is (the caller cancels it). Account deletion uses it.
 */
export async function disableSeries(deps: ApplyDeps, scheduleId: string): Promise<void> {
  const { series } = await engineStore(deps.db).load({ series: [scheduleId] });
  const s = series.find((x) => x.id === scheduleId);
  if (!s || !s.enabled) return;
  await deps.runtime
    .saveSeries(seriesAgain(s, { enabled: false }), 'keep')
    .catch((err: unknown) => {
      if (EngineError.is(err) && err.code === 'series_not_found') return;
      throw err;
    });
}

/** Writes the plan (one commit); returns the schedule as stored, with its stored next occurrence. */
export async function applyPlan(deps: ApplyDeps, plan: SchedulePlan): Promise<ScheduleWithNext> {
  const { after, action } = plan;
  const r = await deps.runtime
    .saveSeries(
      seriesInput(after, plan.account, plan.phone, plan.policy),
      seriesNext(action, plan.derivationSource),
    )
    .catch(inProgress);
  return { schedule: scheduleOf(r.series), stored: r.occurrence };
}

/**
 * DELETE /schedules/{id}: 409 occurrence_in_progress while its call is being placed or
 * rings. A schedule none of whose calls was placed is removed with its occurrences (one
 * transaction of the store; the runtime drops a due entry whose occurrence is gone); one whose
 * call was placed is kept, disabled, as history, and its unfinished occurrence is cancelled (a
 * pending call, or the remaining retries and snoozes of one between attempts), in one commit.
 * Returns whether it was removed.
 */
export async function deleteSchedule(
  deps: ApplyDeps,
  before: Schedule,
  stored: ScheduleWithNext['stored'],
  now: EpochMs,
): Promise<'removed' | 'kept'> {
  const { db, runtime } = deps;
  if (stored && IN_PROGRESS.has(stored.status)) {
    throw problem('occurrence_in_progress', {
      detail: 'The call is being placed or is ringing now; delete it once it has finished.',
    });
  }
  if (await engineStore(db).deleteSeries(before.id)) return 'removed';
  const account = (await findAccountById(db, before.accountId))!;
  const phone =
    before.phoneNumberId === null
      ? null
      : ((await getPhoneNumber(db, before.accountId, before.phoneNumberId)) ?? null);
  const off = {
    ...before,
    enabled: false,
    status: 'disabled' as const,
    nextOccurrenceId: null,
    updatedAt: now,
  };
  await runtime
    .saveSeries(seriesInput(off, account, phone, occurrencePolicy(off, account)), null)
    .catch(inProgress);
  return 'kept';
}
