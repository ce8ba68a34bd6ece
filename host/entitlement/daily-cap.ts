/**
 * The daily cap: phone calls placed per account per UTC day (every attempt and test call),
 * at most WAKEUP_DAILY_CAP (`host/config.ts`, default 20); admission refuses the next one
 * with `daily_cap_reached` until midnight UTC (`admission.ts`).
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import { countCallsPlaced } from '../db/account-calls.js';
import type { Db } from '../db/sql.js';

const DAY_MS = 86_400_000;

/** Start (inclusive) and end (exclusive) of the UTC day holding `at`. */
export function utcDay(at: EpochMs): { start: EpochMs; end: EpochMs } {
  const start = Math.floor(at / DAY_MS) * DAY_MS;
  return { start, end: start + DAY_MS };
}

/** Whole seconds from `now` to the next midnight UTC (at least 1): the daily cap's Retry-After. */
export function secondsToUtcMidnight(now: EpochMs): number {
  return Math.max(1, Math.ceil((utcDay(now).end - now) / 1000));
}

/** Phone calls the account placed in the UTC day holding `now`. */
export async function callsPlacedToday(db: Db, accountId: string, now: EpochMs): Promise<number> {
  const day = utcDay(now);
  return await countCallsPlaced(db, accountId, day.start, day.end);
}
