/**
 * What an account's deletion stops, after its commit: the series of its schedules (the
 * schedules feature, so that the engine makes no next occurrence) and each unfinished
 * occurrence (the engine runtime: a ringing call is hung up, no fallback text is sent). An
 * occurrence that finished or went away meanwhile has nothing left to stop.
 * @module
 */
import { EngineError, type Runtime } from '../../engine/index.js';
import type { AccountStops } from '../account/deletion.js';
import type { Db } from '../db/sql.js';
import { stopAccountSeries } from '../schedules/index.js';

/** The account lifecycle's `stop` port. */
export function accountStops(deps: { db: Db; runtime: Runtime }): AccountStops {
  return {
    stopSeries: (accountId) => stopAccountSeries(deps, accountId),
    cancelOccurrence: async (occurrenceId) => {
      try {
        await deps.runtime.cancel(occurrenceId);
      } catch (err) {
        const gone =
          EngineError.is(err) &&
          (err.code === 'occurrence_terminal' || err.code === 'occurrence_not_found');
        if (!gone) throw err;
      }
    },
  };
}
