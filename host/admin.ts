/**
 * Operator command line: `node --import tsx host/admin.ts <command>` (see
 * `host/phone/admin.ts` for the number commands and `host/billing/admin.ts` for `plan`).
 * Opens the same database as the server (WAKEUP_DB) and uses the real time: operator
 * actions happen now.
 * @module
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { createSystemClock } from './adapters/clock/system-clock.js';
import { openDatabase } from './db/open.js';
import { ADMIN_USAGE, runAdmin } from './phone/admin.js';
import { loadBillingConfig } from './billing/config.js';
import { createBillingService } from './billing/service.js';
import { PLAN_ADMIN_USAGE, runPlanAdmin } from './billing/admin.js';

const args = process.argv.slice(2);
if (args.length === 0 || args[0] === '--help' || args[0] === '-h') {
  console.log(`${ADMIN_USAGE}\n${PLAN_ADMIN_USAGE}`);
  process.exit(args.length === 0 ? 1 : 0);
}
const db = openDatabase(process.env.WAKEUP_DB?.trim() || './data/wakeup.sqlite');
try {
  const clock = createSystemClock();
  const now = clock.now();
  const out = (line: string) => console.log(line);
  if (args[0] === 'plan') {
    const billing = createBillingService({
      db,
      clock,
      ids: { uuid: () => randomUUID() },
      logger: pino({ level: 'silent' }),
      // The catalogue is the server's (WAKEUP_BILLING_PLANS); no provider is called.
      config: loadBillingConfig({ ...process.env, WAKEUP_PAYMENTS: 'none' }, true, (m) => new Error(m)),
      siteUrl: () => '',
      provider: null,
      inapp: null,
    });
    process.exitCode = runPlanAdmin(args, { billing, now, out });
  } else {
    process.exitCode = runAdmin(args, { db, now, out });
  }
  clock.stop();
} finally {
  db.close();
}
