/**
 * The virtual clock's time, kept across a restart (dev mode, WAKEUP_CLOCK=virtual): the
 * server saves it when it stops and starts from it again, so calls, codes and sessions made
 * at a moved time do not find the clock gone back to the real now. One row (table dev_clock,
 * migration 0026).
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import type { Db } from './sql.js';

/** The saved virtual time, or null when none was saved. */
export async function readDevClock(db: Db): Promise<EpochMs | null> {
  const row = await db.get<{ now_ms: number | string }>(
    'SELECT now_ms FROM dev_clock WHERE id = 1',
  );
  return row ? Number(row.now_ms) : null;
}

/** Saves the virtual time. */
export async function saveDevClock(db: Db, now: EpochMs): Promise<void> {
  await db.run(
    'INSERT INTO dev_clock (id, now_ms) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET now_ms = excluded.now_ms',
    [now],
  );
}
