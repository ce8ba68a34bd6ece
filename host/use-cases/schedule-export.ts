/**
 * What GET /me/export shows of schedules: the schedules feature's export rows (each schedule
 * as the API shows it, with whether its number is still live), as the account feature's
 * `scheduleRows` port.
 * @module
 */
import type { ExportServiceDeps } from '../account/export.js';
import type { Db } from '../db/sql.js';
import { scheduleExportBatches } from '../schedules/index.js';

/** The account export's `scheduleRows`. */
export function scheduleExport(db: Db): ExportServiceDeps['scheduleRows'] {
  return (accountId) => scheduleExportBatches(db, accountId);
}
