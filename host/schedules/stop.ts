/**
 * What an account's deletion stops of its schedules. `host/account/deletion.ts` does not
 * import this feature: the root (host/compose.ts) hands it these as functions.
 * - {@link disableAccountSchedules}, inside the deletion's transaction: every schedule of the
 *   account disabled, its next call forgotten, its label, message and greeting scrubbed;
 * - {@link stopAccountSeries}, after the commit: each schedule's series turned off, so that
 *   the engine makes no next occurrence (its unfinished occurrence is the caller's to cancel).
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import { accountScheduleIds } from '../db/account-deletions.js';
import { getScheduleById, updateSchedule } from '../db/schedules.js';
import type { Db } from '../db/sql.js';
import { disableSeries, type ApplyDeps } from './apply.js';

/** Disables and scrubs every schedule of the account; `tx` is the deletion's transaction. */
export async function disableAccountSchedules(tx: Db, accountId: string, now: EpochMs): Promise<void> {
  for (const id of await accountScheduleIds(tx, accountId)) {
    const s = await getScheduleById(tx, id);
    if (!s) continue;
    await updateSchedule(tx, {
      ...s,
      enabled: false,
      status: 'disabled',
      nextOccurrenceId: null,
      label: '',
      message: null,
      greetingName: null,
      updatedAt: now,
    });
  }
}

/** Turns the series of every schedule of the account off. */
export async function stopAccountSeries(deps: ApplyDeps, accountId: string): Promise<void> {
  for (const id of await accountScheduleIds(deps.db, accountId)) await disableSeries(deps, id);
}
