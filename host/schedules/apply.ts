/**
 * Saving a {@link SchedulePlan}, and deleting a schedule. The schedule's rule is the engine's
 * series (same id): `runtime.saveSeries` writes the series and applies the plan's action to
 * its current occurrence (schedule, amend, cancel or keep) in one unit of work of the engine,
 * which refuses when the call started meanwhile (then nothing is written). The host's row
 * (display columns) is written after it. From then on the engine makes each next occurrence
 * itself, in the unit of work that finishes the previous one.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { EpochMs, Runtime } from '../../engine/index.js';
import {
  deleteScheduleOccurrences,
  deleteScheduleRow,
  getSchedule,
  getScheduleById,
  insertSchedule,
  scheduleHasRung,
  updateSchedule,
  type Schedule,
} from '../db/schedules.js';
import { findAccountById } from '../db/accounts.js';
import { getPhoneNumber } from '../db/phone-numbers.js';
import { problem } from '../errors.js';
import type { SchedulePlan } from './plan.js';
import { IN_PROGRESS } from './rule.js';
import { storedOccurrence } from './plan.js';
import { seriesInput, seriesNext } from './series.js';
import { settleEngine } from '../db/engine-store.js';

/** What saving needs. */
export interface ApplyDeps {
  db: Db;
  runtime: Runtime;
}

const IN_PROGRESS_DETAIL = 'The call is being placed now; change it once it has finished.';

/**
 * Turns a schedule's series off: from now on the engine makes no next occurrence for it. Its
 * unfinished occurrence is left as it is (the caller cancels it). Account deletion uses it.
 */
export async function disableSeries(deps: ApplyDeps, scheduleId: string): Promise<void> {
  const { db, runtime } = deps;
  const s = await getScheduleById(db, scheduleId);
  const account = s && (await findAccountById(db, s.accountId));
  if (!s || !account) return;
  const phone = s.phoneNumberId === null ? null : ((await getPhoneNumber(db, s.accountId, s.phoneNumberId)) ?? null);
  const r = await runtime.saveSeries(seriesInput({ ...s, enabled: false }, account, phone), 'keep');
  if (!r.ok && r.code !== 'series_not_found') throw new Error(`could not turn series ${scheduleId} off: ${r.code}`);
}

/** Writes the plan; returns the schedule as stored. */
export async function applyPlan(deps: ApplyDeps, plan: SchedulePlan): Promise<Schedule> {
  const { db, runtime } = deps;
  const { after, action } = plan;
  const r = await runtime.saveSeries(seriesInput(after, plan.account, plan.phone), seriesNext(action, plan.derivationSource));
  if (!r.ok) throw problem('occurrence_in_progress', { detail: IN_PROGRESS_DETAIL });
  if (plan.before) await updateSchedule(db, after);
  else await insertSchedule(db, after);
  return (await getSchedule(db, after.accountId, after.id))!;
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
  const stored = await storedOccurrence(db, before);
  if (stored && IN_PROGRESS.has(stored.status)) {
    throw problem('occurrence_in_progress', { detail: 'The call is being placed or is ringing now; delete it once it has finished.' });
  }
  const account = (await findAccountById(db, before.accountId))!;
  const phone = before.phoneNumberId === null ? null : ((await getPhoneNumber(db, before.accountId, before.phoneNumberId)) ?? null);
  // Off first (no next occurrence is made from now on), then the unfinished one is cancelled.
  const off = await runtime.saveSeries(seriesInput({ ...before, enabled: false }, account, phone), 'keep');
  if (!off.ok) throw problem('occurrence_in_progress', { detail: IN_PROGRESS_DETAIL });
  if (stored) await runtime.cancel(stored.id);
  await updateSchedule(db, { ...before, enabled: false, status: 'disabled', nextOccurrenceId: null, updatedAt: now });
  // The engine's journal may hold its occurrences' newest rows: fold them before reading and deleting.
  await settleEngine(db, { accounts: [before.accountId] });
  return await db.tx(async (tx) => {
    if (await scheduleHasRung(tx, before.id)) return 'kept' as const;
    await deleteScheduleOccurrences(tx, before.id);
    await deleteScheduleRow(tx, before.id);
    return 'removed' as const;
  });
}
