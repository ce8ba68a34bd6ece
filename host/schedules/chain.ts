/**
 * The next-occurrence chain: an enabled, active schedule always has exactly one unfinished
 * occurrence stored (the one `schedules.next_occurrence_id` names). When it finishes
 * (runtime event `occurrence:status` to a finished status), the next one is computed
 * strictly after it, never one already more than the late-dispatch grace in the past (a
 * server that was down for a day does not ring yesterday's calls), and stored with
 * `runtime.schedule` in the same transaction as the schedule row; when none remains the
 * schedule becomes completed.
 *
 * The reaction is synchronous (it runs right after the runtime's unit of work commits), so
 * with the virtual clock the following call is armed before the clock moves on.
 *
 * A crash between the two steps (occurrence finished, next one not yet stored) is repaired
 * by {@link sweepSchedules} at start: every active schedule left without an unfinished
 * occurrence gets its next one (or becomes completed).
 * @module
 */
import type { Database } from 'better-sqlite3';
import { isFinishedOccurrence, type Clock, type OccurrenceRecord, type Runtime } from '../../engine/index.js';
import { findAccountById } from '../db/accounts.js';
import { getPhoneNumber } from '../db/phone-numbers.js';
import { getOccurrenceRecord, getScheduleById, listActiveScheduleIds, updateSchedule, type Schedule } from '../db/schedules.js';
import type { Logger } from '../logger.js';
import { UNFINISHED, nextAfterOccurrence, nextOf, occurrenceFields } from './rule.js';

/** What the chain needs. */
export interface ChainDeps {
  db: Database;
  clock: Clock;
  runtime: Runtime;
  logger: Logger;
  newId(): string;
}

const wired = new WeakSet<Runtime>();

/**
 * Subscribes the chain to the runtime (once per runtime) and runs the startup sweep.
 * Returns the unsubscribe function.
 */
export function startScheduleChain(deps: ChainDeps): () => void {
  if (wired.has(deps.runtime)) return () => undefined;
  wired.add(deps.runtime);
  const log = deps.logger.child({ component: 'schedules' });
  const off = deps.runtime.on('occurrence:status', ({ occurrence }) => {
    if (occurrence.scheduleId === null || !isFinishedOccurrence(occurrence.status)) return;
    const failed = (err: unknown) =>
      // The sweep at the next start repairs it; log so that it is seen.
      log.error({ err, schedule: occurrence.scheduleId, occurrence: occurrence.id }, 'could not store the next occurrence');
    try {
      advanceSchedule(deps, occurrence.scheduleId, occurrence).catch(failed);
    } catch (err) {
      failed(err);
    }
  });
  void sweepSchedules(deps).then(
    (swept) => swept > 0 && log.info({ swept }, 'startup sweep stored missing next occurrences'),
    (err: unknown) => log.error({ err }, 'startup sweep failed'),
  );
  return () => {
    off();
    wired.delete(deps.runtime);
  };
}

/**
 * Moves a schedule to its next occurrence after `finished` (null: the schedule has no
 * stored occurrence at all). Does nothing when the schedule names another occurrence (an
 * edit replaced it) or still has an unfinished one. Returns whether the schedule changed.
 */
export function advanceSchedule(deps: ChainDeps, scheduleId: string, finished: OccurrenceRecord | null): Promise<boolean> {
  const { db, runtime } = deps;
  let store: (() => Promise<unknown>) | null = null;
  const changed = db.transaction(() => {
    const s = getScheduleById(db, scheduleId);
    if (!s || s.status !== 'active') return false;
    if (finished !== null && s.nextOccurrenceId !== finished.id) return false;
    const current = s.nextOccurrenceId === null ? null : getOccurrenceRecord(db, s.nextOccurrenceId);
    if (current && UNFINISHED.has(current.status)) return false;
    const now = deps.clock.now();
    const floor = now - runtime.options.lateGraceMs;
    // Never a call already more than the late-dispatch grace in the past (after downtime).
    const next = !s.enabled ? null : current ? nextAfterOccurrence(s, current.scheduledAt, floor) : nextOf(s, floor);
    const account = findAccountById(db, s.accountId);
    const phone = s.phoneNumberId === null ? undefined : getPhoneNumber(db, s.accountId, s.phoneNumberId);
    if (next === null || !account || !phone) {
      // No call left (or nothing it could ring: the account or number is gone).
      updateSchedule(db, {
        ...s,
        status: next === null ? 'completed' : 'disabled',
        enabled: next === null ? s.enabled : false,
        nextOccurrenceId: null,
        updatedAt: now,
      });
      return true;
    }
    const id = deps.newId();
    // The row names the new occurrence first; a crash before the runtime stores it is
    // repaired by the sweep (a schedule naming a missing occurrence).
    updateSchedule(db, { ...s, nextOccurrenceId: id, updatedAt: now });
    store = () => runtime.schedule({ id, scheduleId: s.id, accountId: s.accountId, ...occurrenceFields(s, account, phone, next) });
    return true;
  })();
  return store === null ? Promise.resolve(changed) : (store as () => Promise<unknown>)().then(() => changed);
}

/** Stores the missing next occurrence of every active schedule; returns how many changed. */
export async function sweepSchedules(deps: ChainDeps): Promise<number> {
  let changed = 0;
  let after: string | null = null;
  for (;;) {
    const ids = listActiveScheduleIds(deps.db, 500, after);
    for (const id of ids) if (needsAdvance(deps.db, id) && (await advanceSchedule(deps, id, null))) changed++;
    if (ids.length < 500) return changed;
    after = ids[ids.length - 1]!;
  }
}

function needsAdvance(db: Database, id: string): boolean {
  const s: Schedule | undefined = getScheduleById(db, id);
  if (!s) return false;
  if (s.nextOccurrenceId === null) return true;
  const o = getOccurrenceRecord(db, s.nextOccurrenceId);
  return !o || isFinishedOccurrence(o.status);
}
