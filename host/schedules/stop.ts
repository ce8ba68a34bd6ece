/**
 * What an account's deletion stops of its schedules. `host/account/deletion.ts` does not
 * import this feature: a use case (host/use-cases/account-stops.ts) hands it {@link stopAccountSeries}, run after
 * the deletion's commit: each schedule's series turned off, so that the engine makes no next
 * occurrence (its unfinished occurrence is the caller's to cancel).
 * @module
 */
import { disableSeries, type ApplyDeps } from './apply.js';
import { accountScheduleIds } from './records.js';

/** Turns the series of every schedule of the account off. */
export async function stopAccountSeries(deps: ApplyDeps, accountId: string): Promise<void> {
  for (const id of await accountScheduleIds(deps.db, accountId)) await disableSeries(deps, id);
}
