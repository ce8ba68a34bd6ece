/**
 * The SQL of the operator's figures ({@link StoreReads.latenessByMinute} and the other reads
 * of that section), one text for both stores: named parameters (`@from`), which the
 * PostgreSQL store numbers ({@link numbered}), and `@enabled`, the dialect's true. Each reads
 * one window through an index the host makes (its migration 0024), never every row.
 * @module
 */
import type { AttemptHour, LatenessMinute, StoreReads } from './reads.js';

const IN_FLIGHT = `('dispatching', 'calling', 'waiting')`;
const LATE = (to: string) => `CASE WHEN ${to} - due_at < 0 THEN 0 ELSE ${to} - due_at END`;

/** Calls in flight per status. */
export const COUNT_IN_FLIGHT = `SELECT status, COUNT(*) AS n FROM occurrences WHERE status IN ${IN_FLIGHT} GROUP BY status`;

/** The series whose current occurrence is in flight, with its rule. */
export const IN_FLIGHT_SERIES = `SELECT s.rule AS rule, o.scheduled_at AS scheduled_at FROM occurrences o JOIN series s ON s.id = o.schedule_id
  WHERE o.status IN ${IN_FLIGHT} AND s.next_occurrence_id = o.id AND s.status = 'active' AND s.enabled = @enabled`;

/** Per measure and minute: count, nearest-rank p50 and p95, max, on time. */
export const LATENESS_BY_MINUTE = `WITH l AS (
    SELECT 'requested' AS measure, requested_at / 60000 AS m, ${LATE('requested_at')} AS late FROM attempts
     WHERE requested_at >= @from AND requested_at < @to AND kind = 'first'
    UNION ALL
    SELECT 'ringing' AS measure, requested_at / 60000 AS m, ${LATE('ringing_at')} AS late FROM attempts
     WHERE requested_at >= @from AND requested_at < @to AND kind = 'first' AND ringing_at IS NOT NULL
  ), r AS (
    SELECT measure, m, late, ROW_NUMBER() OVER (PARTITION BY measure, m ORDER BY late) AS rn,
           COUNT(*) OVER (PARTITION BY measure, m) AS n FROM l
  )
  SELECT measure, m * 60000 AS minute, n AS count,
         MAX(CASE WHEN rn = (n * 50 + 99) / 100 THEN late END) AS p50,
         MAX(CASE WHEN rn = (n * 95 + 99) / 100 THEN late END) AS p95,
         MAX(late) AS max, SUM(CASE WHEN late <= @ontime THEN 1 ELSE 0 END) AS on_time
  FROM r GROUP BY measure, m, n ORDER BY m, measure`;

/** Finished occurrences per hour of their instant and status. */
export const OUTCOMES_BY_HOUR = `SELECT scheduled_at / 3600000 * 3600000 AS hour, status, COUNT(*) AS n FROM occurrences
  WHERE scheduled_at >= @from AND scheduled_at < @to AND status IN ('confirmed', 'unconfirmed', 'missed', 'failed', 'cancelled')
  GROUP BY scheduled_at / 3600000 * 3600000, status ORDER BY 1, 2`;

/** Attempts placed per hour, split by the failed ones' error code (null: not failed). */
export const ATTEMPTS_BY_HOUR = `SELECT requested_at / 3600000 * 3600000 AS hour,
    CASE WHEN status = 'failed' THEN COALESCE(error_code, 'unknown') END AS code, COUNT(*) AS placed,
    SUM(CASE WHEN answered_at IS NOT NULL THEN 1 ELSE 0 END) AS answered,
    SUM(CASE WHEN answered_at IS NOT NULL AND duration_seconds <= @short THEN 1 ELSE 0 END) AS short
  FROM attempts WHERE requested_at >= @from AND requested_at < @to
  GROUP BY requested_at / 3600000 * 3600000, CASE WHEN status = 'failed' THEN COALESCE(error_code, 'unknown') END`;

/** The PostgreSQL store's leases on rows with due work, per owner. */
export const LEASES = `SELECT lease_owner AS owner, COUNT(*) AS n, MAX(lease_until) AS until FROM occurrences
  WHERE lease_owner IS NOT NULL AND next_due_at IS NOT NULL AND lease_until > @now GROUP BY lease_owner ORDER BY lease_owner`;

/** `sql` with `@name` parameters as `$1…` and the values in that order. */
export function numbered(
  sql: string,
  params: Record<string, unknown>,
): { text: string; values: unknown[] } {
  const names: string[] = [];
  const text = sql.replace(/@([a-z]+)/g, (_, name: string) => {
    let i = names.indexOf(name);
    if (i < 0) i = names.push(name) - 1;
    return `$${i + 1}`;
  });
  return { text, values: names.map((n) => params[n]) };
}

const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));

/** Rows of {@link LATENESS_BY_MINUTE} as records. */
export function latenessRows(rows: readonly Record<string, unknown>[]): LatenessMinute[] {
  return rows.map((r) => ({
    minute: num(r.minute),
    measure: r.measure as LatenessMinute['measure'],
    count: num(r.count),
    p50Ms: num(r.p50),
    p95Ms: num(r.p95),
    maxMs: num(r.max),
    onTime: num(r.on_time),
  }));
}

/** Rows of {@link ATTEMPTS_BY_HOUR} folded per hour, in order. */
export function attemptHours(rows: readonly Record<string, unknown>[]): AttemptHour[] {
  const hours = new Map<number, AttemptHour>();
  for (const r of rows) {
    const hour = num(r.hour);
    let h = hours.get(hour);
    if (!h) hours.set(hour, (h = { hour, placed: 0, answered: 0, short: 0, errors: {} }));
    h.placed += num(r.placed);
    h.answered += num(r.answered);
    h.short += num(r.short);
    if (typeof r.code === 'string') h.errors[r.code] = (h.errors[r.code] ?? 0) + num(r.placed);
  }
  return [...hours.values()].sort((a, b) => a.hour - b.hour);
}

/** A rule read back: SQLite's JSON text or PostgreSQL's parsed jsonb. */
export function ruleOf(
  v: unknown,
): Awaited<ReturnType<StoreReads['listInFlightSeries']>>[number]['rule'] {
  return (typeof v === 'string' ? JSON.parse(v) : v) as Awaited<
    ReturnType<StoreReads['listInFlightSeries']>
  >[number]['rule'];
}
