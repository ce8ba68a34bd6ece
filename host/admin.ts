/**
 * Operator command line: `node --import tsx host/admin.ts <command>` (see
 * `host/phone/admin.ts` for the commands). Opens the same database as the server
 * (WAKEUP_DB) and uses the real time: operator actions happen now.
 * @module
 */
import { createSystemClock } from './adapters/clock/system-clock.js';
import { openDatabase } from './db/open.js';
import { ADMIN_USAGE, runAdmin } from './phone/admin.js';

const args = process.argv.slice(2);
if (args.length === 0 || args[0] === '--help' || args[0] === '-h') {
  console.log(ADMIN_USAGE);
  process.exit(args.length === 0 ? 1 : 0);
}
const db = openDatabase(process.env.WAKEUP_DB?.trim() || './data/wakeup.sqlite');
try {
  process.exitCode = runAdmin(args, { db, now: createSystemClock().now(), out: (line) => console.log(line) });
} finally {
  db.close();
}
