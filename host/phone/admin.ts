/**
 * Operator commands on number blocks, for `host/admin.ts`:
 *
 *   block <e164> [--reason complaint|manual] [--note <text>]   record a complaint or a manual block
 *   unblock <e164> [--note <text>]                              lift any block (stop, complaint, manual, key_9)
 *   show <e164>                                                 the block and its history
 *
 * Pure over its inputs (database, instant, output sink), so tests run it without a process.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { EpochMs } from '../../engine/index.js';
import { blockNumber, getBlock, listBlockEvents, unblockNumber } from '../db/phone-numbers.js';
import { isoInstant } from '../instant.js';

/** Usage text. */
export const ADMIN_USAGE = `usage: node --import tsx host/admin.ts <command>
  block <e164> [--reason complaint|manual] [--note <text>]   block calls and texts to a number (default reason: manual)
  unblock <e164> [--note <text>]                              lift the number's block, whatever its reason
  show <e164>                                                 print the number's block and its history
The database is WAKEUP_DB (default ./data/wakeup.sqlite); the server may keep running.`;

/** Runs one command; returns the process exit code (0 done, 1 usage error, 2 nothing to change). */
export async function runAdmin(
  args: readonly string[],
  env: { db: Db; now: EpochMs; out: (line: string) => void },
): Promise<number> {
  const [command, e164, ...rest] = args;
  const flags = new Map<string, string>();
  for (let i = 0; i < rest.length; i += 2) {
    const name = rest[i];
    const value = rest[i + 1];
    if (!name?.startsWith('--') || value === undefined) {
      env.out(ADMIN_USAGE);
      return 1;
    }
    flags.set(name.slice(2), value);
  }
  if (!command || !e164 || !['block', 'unblock', 'show'].includes(command)) {
    env.out(ADMIN_USAGE);
    return 1;
  }
  if (!/^\+[1-9]\d{1,14}$/.test(e164)) {
    env.out(`${e164}: expected an E.164 number such as +12015550123`);
    return 1;
  }
  const note = flags.get('note') ?? null;
  if (command === 'block') {
    const reason = flags.get('reason') ?? 'manual';
    if (reason !== 'complaint' && reason !== 'manual') {
      env.out(`--reason ${reason}: expected complaint or manual`);
      return 1;
    }
    const inForce = await blockNumber(env.db, e164, reason, 'operator', env.now, note);
    env.out(`${e164} blocked (reason ${inForce})`);
    return 0;
  }
  if (command === 'unblock') {
    const lifted = await unblockNumber(
      env.db,
      e164,
      ['stop', 'complaint', 'manual', 'key_9'],
      'operator',
      env.now,
      note,
    );
    env.out(lifted ? `${e164} unblocked` : `${e164} was not blocked`);
    return lifted ? 0 : 2;
  }
  const block = await getBlock(env.db, e164);
  env.out(
    block
      ? `${e164} blocked since ${isoInstant(block.blockedAt)} (reason ${block.reason}${block.note ? `: ${block.note}` : ''})`
      : `${e164} not blocked`,
  );
  for (const e of await listBlockEvents(env.db, e164)) {
    env.out(
      `  ${isoInstant(e.at)} ${e.action} ${e.reason} by ${e.source}${e.note ? `: ${e.note}` : ''}`,
    );
  }
  return 0;
}
