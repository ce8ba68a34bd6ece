/**
 * The spike foretold: from the pending calls and the provider's rate, how late the
 * last call of each minute will ring. Calls go in due order at `callsPerSecond` (the
 * dispatcher's pacing, WAKEUP_CALLS_PER_SECOND), so a minute whose calls, plus the backlog
 * the minutes before it left, exceed a minute's worth of slots ends late by exactly that
 * backlog. `admin spike` prints the busiest minutes of the next 24 hours with it, and
 * GET /ops/forecast answers each minute (host/ops/figures.ts).
 *
 * The due calls are the pending occurrences, plus those the recurring series will create that
 * are not stored yet: a series stores its next occurrence when the current one finishes, so a
 * series whose call is in flight (placing, ringing, retrying) has its next call unstored. A
 * series rings at most once per local date, so that next call is the only one of it missing
 * from the next 24 hours, but on a day shortened by a clock change (23 hours): then the one
 * after a stored call may fall in the window too, and is not counted.
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import { nextAfterOccurrence } from '../../engine/internals.js';
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

/**
 * Calls due in [from, to), by second, in order: the pending occurrences', and (the `projected`
 * ones, also counted in `due`) the next calls of the series whose call is in flight. Reads the
 * engine's tables as they are (the server settles its journal first).
 */
export async function forecastSeconds(
  db: Db,
  from: EpochMs,
  to: EpochMs,
): Promise<{ due: DueSecond[]; projected: DueSecond[] }> {
  const reads = engineReads(db);
  const rows = await reads.countDueBySecond(to);
  const projected = new Map<number, number>();
  for (const s of await reads.listInFlightSeries()) {
    const next = nextAfterOccurrence(s.rule, s.scheduledAt, from);
    if (next === null || next.at >= to) continue;
    const second = Math.floor(next.at / 1000);
    projected.set(second, (projected.get(second) ?? 0) + 1);
  }
  const extra = [...projected].map(([second, count]) => ({ second, count }));
  const merged = [...rows, ...extra].sort((a, b) => a.second - b.second);
  return {
    due: bySecond(merged, from),
    projected: bySecond(
      extra.sort((a, b) => a.second - b.second),
      from,
    ),
  };
}

/** Calls due in [from, to), by second, in order, those of series in flight included (see {@link forecastSeconds}). */
export async function dueSeconds(db: Db, from: EpochMs, to: EpochMs): Promise<DueSecond[]> {
  return (await forecastSeconds(db, from, to)).due;
}

/** Counts per second (in order) summed per second, overdue ones (before `from`) counted at `from`. */
function bySecond(rows: readonly { second: number; count: number }[], from: EpochMs): DueSecond[] {
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
export function projectMinutes(
  due: readonly DueSecond[],
  callsPerSecond: number,
  now: EpochMs,
): MinuteProjection[] {
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
    if (!m || m.minute !== minute)
      minutes.push((m = { minute, calls: 0, lastPlacedAt: last, lastLateMs: 0 }));
    m.calls += d.calls;
    m.lastPlacedAt = last;
    m.lastLateMs = Math.max(m.lastLateMs, Math.max(0, Math.round(last - at)));
  }
  return minutes;
}

/** The backlog now: calls due by `now` and not yet placed, and how long the rate takes to place them. */
export function backlog(
  due: readonly DueSecond[],
  callsPerSecond: number,
  now: EpochMs,
): { calls: number; drainSeconds: number } {
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
  const rate =
    o.callsPerSecond === null
      ? 'no limit (WAKEUP_CALLS_PER_SECOND unset; --rate N to project one)'
      : `${o.callsPerSecond}/s`;
  const calls = (n: number) => `${n} call${n === 1 ? '' : 's'}`;
  lines.push(
    `${calls(total)} pending in the next 24 hours; provider rate ${rate}; warning past ${o.warnMs / 1000} s late`,
  );
  const busiest = [...minutes]
    .sort((a, b) => b.calls - a.calls || b.lastLateMs - a.lastLateMs)
    .slice(0, o.top);
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
