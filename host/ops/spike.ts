/**
 * The spike foretold (issue 28): from the pending calls and the provider's rate, how late the
 * last call of each minute will ring. Calls go in due order at `callsPerSecond` (the
 * dispatcher's pacing, WAKEUP_CALLS_PER_SECOND), so a minute whose calls, plus the backlog
 * the minutes before it left, exceed a minute's worth of slots ends late by exactly that
 * backlog. `admin spike` prints the busiest minutes of the next 24 hours with it.
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import { isoInstant } from '../instant.js';
import type { Db } from '../db/sql.js';
import { engineReads } from '../db/engine-store.js';

/** Calls due in one second (epoch seconds). */
export interface DueSecond {
  second: number;
  calls: number;
}

/** One minute's projection. */
export interface MinuteProjection {
  /** Start of the minute, epoch ms. */
  minute: EpochMs;
  calls: number;
  /** When its last call is placed, epoch ms. */
  lastPlacedAt: EpochMs;
  /** How late its last call is placed (ms after its instant; 0 when on time). */
  lastLateMs: number;
}

/** Calls of pending occurrences due in [from, to), by second, in order (one read of the engine's tables as they are). */
export async function dueSeconds(db: Db, from: EpochMs, to: EpochMs): Promise<DueSecond[]> {
  const rows = await engineReads(db).countDueBySecond(to);
  // Overdue calls (due before `from`) are due now.
  const out: DueSecond[] = [];
  const nowS = Math.floor(from / 1000);
  for (const r of rows) {
    const second = Math.max(r.second, nowS);
    const last = out[out.length - 1];
    if (last && last.second === second) last.calls += r.count;
    else out.push({ second, calls: r.count });
  }
  return out;
}

/**
 * Places `due` (by second, in order) from `now` at `callsPerSecond`, one slot after another,
 * never before a call's second, and returns each minute's count and its last call's lateness.
 */
export function projectMinutes(due: readonly DueSecond[], callsPerSecond: number, now: EpochMs): MinuteProjection[] {
  const interval = 1000 / callsPerSecond;
  const minutes: MinuteProjection[] = [];
  let free = now; // the next free slot
  for (const d of due) {
    const at = d.second * 1000;
    const start = Math.max(free, at);
    const last = start + (d.calls - 1) * interval;
    free = last + interval;
    const minute = Math.floor(at / 60_000) * 60_000;
    let m = minutes[minutes.length - 1];
    if (!m || m.minute !== minute) minutes.push((m = { minute, calls: 0, lastPlacedAt: last, lastLateMs: 0 }));
    m.calls += d.calls;
    m.lastPlacedAt = last;
    m.lastLateMs = Math.max(m.lastLateMs, Math.max(0, Math.round(last - at)));
  }
  return minutes;
}

/** The backlog now: calls due by `now` and not yet placed, and how long the rate takes to place them. */
export function backlog(due: readonly DueSecond[], callsPerSecond: number, now: EpochMs): { calls: number; drainSeconds: number } {
  let calls = 0;
  for (const d of due) if (d.second * 1000 <= now) calls += d.calls;
  return { calls, drainSeconds: calls / callsPerSecond };
}

/** Lines of `admin spike`: the `top` busiest minutes of the next 24 hours, warnings past `warnMs`. */
export function spikeLines(
  minutes: readonly MinuteProjection[],
  o: { callsPerSecond: number | null; warnMs: number; top: number; now: EpochMs },
): { lines: string[]; warnings: number } {
  const lines: string[] = [];
  const total = minutes.reduce((n, m) => n + m.calls, 0);
  const rate = o.callsPerSecond === null ? 'no limit (WAKEUP_CALLS_PER_SECOND unset; --rate N to project one)' : `${o.callsPerSecond}/s`;
  const calls = (n: number) => `${n} call${n === 1 ? '' : 's'}`;
  lines.push(`${calls(total)} pending in the next 24 hours; provider rate ${rate}; warning past ${o.warnMs / 1000} s late`);
  const busiest = [...minutes].sort((a, b) => b.calls - a.calls || b.lastLateMs - a.lastLateMs).slice(0, o.top);
  busiest.sort((a, b) => a.minute - b.minute);
  for (const m of busiest) {
    const late = m.lastLateMs / 1000;
    const warn = m.lastLateMs > o.warnMs;
    lines.push(
      `${isoInstant(m.minute).slice(0, 16)}Z  ${calls(m.calls).padStart(11)}  last rings ${late.toFixed(1).padStart(8)} s late${warn ? '  WARNING' : ''}`,
    );
  }
  const worst = minutes.filter((m) => m.lastLateMs > o.warnMs).length;
  if (worst > 0)
    lines.push(
      `WARNING: ${worst === 1 ? '1 minute ends' : `${worst} minutes end`} more than ${o.warnMs / 1000} s late at this rate: raise the provider's rate (and WAKEUP_CALLS_PER_SECOND) or spread the calls`,
    );
  return { lines, warnings: worst };
}
