/**
 * The operator's figures: the forecast of the next hours against the provider's
 * rate, the lateness of the calls placed, the outcomes per hour and the service's health.
 * Each is computed in SQL over the engine's read model (engine/ops-reads.ts) through the
 * indexes of migration 0024, one window at a time; on SQLite the engine's journal is folded
 * first (docs/decisions/0016), as every read of the read model does.
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import type { LatenessMinute } from '../../engine/internals.js';
import { engineReads, engineStore, type SqliteEngineStore } from '../db/engine-store.js';
import { listFailingEndpoints } from '../db/ops-reads.js';
import type { Db } from '../db/sql.js';
import { isoInstant, isoInstantOrNull } from '../instant.js';
import { forecastSeconds, projectMinutes } from './spike.js';

/** A call this short or shorter counts as short (Plivo's threshold; carriers' "Spam Likely" analytics). */
export const SHORT_CALL_SECONDS = 6;

/** Folds the engine's journal (SQLite) so that the figures see every commit. */
async function settled(db: Db): Promise<void> {
  await engineStore(db).settle?.();
}

const seconds = (ms: number) => Math.round(ms) / 1000;
const share = (part: number, whole: number) =>
  whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;

/** GET /ops/forecast. */
export async function forecast(
  db: Db,
  o: { now: EpochMs; hours: number; callsPerSecond: number | null; warnSeconds: number },
): Promise<Record<string, unknown>> {
  await settled(db);
  const to = o.now + o.hours * 3_600_000;
  const { due, projected } = await forecastSeconds(db, o.now, to);
  const minutes = projectMinutes(due, o.callsPerSecond ?? Number.POSITIVE_INFINITY, o.now);
  const projectedByMinute = new Map<number, number>();
  for (const p of projected) {
    const m = Math.floor(p.second / 60) * 60_000;
    projectedByMinute.set(m, (projectedByMinute.get(m) ?? 0) + p.calls);
  }
  const warnMs = o.warnSeconds * 1000;
  const overdue = due.filter((d) => d.second * 1000 <= o.now).reduce((n, d) => n + d.calls, 0);
  const out = minutes.map((m) => ({
    minute: isoInstant(m.minute),
    calls: m.calls,
    projected: projectedByMinute.get(m.minute) ?? 0,
    last_late_seconds: seconds(m.lastLateMs),
    warning: m.lastLateMs > warnMs,
  }));
  return {
    now: isoInstant(o.now),
    until: isoInstant(to),
    calls_per_second: o.callsPerSecond,
    warn_seconds: o.warnSeconds,
    total_calls: minutes.reduce((n, m) => n + m.calls, 0),
    projected_calls: projected.reduce((n, p) => n + p.calls, 0),
    overdue_calls: overdue,
    warnings: out.filter((m) => m.warning).length,
    worst_late_seconds: seconds(minutes.reduce((w, m) => Math.max(w, m.lastLateMs), 0)),
    minutes: out,
  };
}

/** GET /ops/lateness. */
export async function lateness(
  db: Db,
  o: { from: EpochMs; to: EpochMs; objectivePercent: number; objectiveSeconds: number },
): Promise<Record<string, unknown>> {
  await settled(db);
  const rows = await engineReads(db).latenessByMinute(o.from, o.to, o.objectiveSeconds * 1000);
  const measure = (r: LatenessMinute | undefined) =>
    r && { count: r.count, p50_ms: r.p50Ms, p95_ms: r.p95Ms, max_ms: r.maxMs };
  const byMinute = new Map<number, { requested?: LatenessMinute; ringing?: LatenessMinute }>();
  for (const r of rows) {
    const m = byMinute.get(r.minute) ?? {};
    m[r.measure] = r;
    byMinute.set(r.minute, m);
  }
  let count = 0;
  let onTime = 0;
  let worst = 0;
  const minutes = [...byMinute].map(([minute, m]) => {
    const requested = m.requested!;
    count += requested.count;
    onTime += requested.onTime;
    worst = Math.max(worst, requested.maxMs);
    return {
      minute: isoInstant(minute),
      count: requested.count,
      on_time: requested.onTime,
      on_time_share: share(requested.onTime, requested.count),
      requested: measure(requested),
      ringing: measure(m.ringing) ?? null,
    };
  });
  const onTimeShare = share(onTime, count);
  return {
    from: isoInstant(o.from),
    to: isoInstant(o.to),
    objective: { percent: o.objectivePercent, seconds: o.objectiveSeconds },
    count,
    on_time: onTime,
    on_time_share: onTimeShare,
    objective_met: onTimeShare === null ? null : onTimeShare * 100 >= o.objectivePercent,
    max_ms: worst,
    minutes,
  };
}

const OUTCOMES = ['confirmed', 'unconfirmed', 'missed', 'failed', 'cancelled'] as const;

/** GET /ops/outcomes. */
export async function outcomes(
  db: Db,
  o: { from: EpochMs; to: EpochMs },
): Promise<Record<string, unknown>> {
  await settled(db);
  const reads = engineReads(db);
  const finished = await reads.outcomesByHour(o.from, o.to);
  const attempts = await reads.attemptsByHour(o.from, o.to, SHORT_CALL_SECONDS);
  const hours = new Map<number, Record<string, unknown> & { outcomes: Record<string, number> }>();
  const hour = (h: number) => {
    let v = hours.get(h);
    if (!v) {
      v = {
        hour: isoInstant(h),
        outcomes: Object.fromEntries(OUTCOMES.map((k) => [k, 0])),
        placed: 0,
        answered: 0,
        answer_rate: null,
        short: 0,
        short_share: null,
        provider_errors: {},
      };
      hours.set(h, v);
    }
    return v;
  };
  for (const f of finished) hour(f.hour).outcomes[f.status] = f.count;
  for (const a of attempts) {
    Object.assign(hour(a.hour), {
      placed: a.placed,
      answered: a.answered,
      answer_rate: share(a.answered, a.placed),
      short: a.short,
      short_share: share(a.short, a.answered),
      provider_errors: a.errors,
    });
  }
  return {
    from: isoInstant(o.from),
    to: isoInstant(o.to),
    short_call_seconds: SHORT_CALL_SECONDS,
    hours: [...hours.keys()].sort((a, b) => a - b).map((h) => hours.get(h)),
  };
}

/** GET /ops/health (the providers come from the caller: the process's own view, as /readyz). */
export async function health(
  db: Db,
  o: { now: EpochMs; providers: Record<string, { status: string }> },
): Promise<Record<string, unknown>> {
  const store = engineStore(db);
  // The journal's size before the fold below empties it: how far the fold is behind.
  const unfolded =
    db.dialect === 'sqlite' ? ((store as Partial<SqliteEngineStore>).unfolded ?? 0) : null;
  await settled(db);
  const reads = engineReads(db);
  const inFlight = await reads.countInFlight();
  const overdue = await reads.countDueBySecond(o.now + 1);
  const leases = await reads.countLeases(o.now);
  const failing = await listFailingEndpoints(db, 50);
  return {
    now: isoInstant(o.now),
    database: db.dialect,
    providers: o.providers,
    failing_providers: Object.entries(o.providers)
      .filter(([, p]) => p.status === 'failing')
      .map(([port]) => port),
    webhook_endpoints_failing: failing.map((e) => ({
      id: e.id,
      account_id: e.accountId,
      url: e.url,
      enabled: e.enabled,
      disabled_reason: e.disabledReason,
      failing_since: isoInstantOrNull(e.failingSince),
    })),
    engine: {
      overdue_calls: overdue.reduce((n, r) => n + r.count, 0),
      oldest_due_at: isoInstantOrNull(overdue[0] ? overdue[0].second * 1000 : null),
      in_flight: {
        dispatching: inFlight.dispatching ?? 0,
        calling: inFlight.calling ?? 0,
        waiting: inFlight.waiting ?? 0,
      },
    },
    journal: { unfolded },
    hosts: leases.map((l) => ({
      owner: l.owner,
      leased_calls: l.occurrences,
      lease_until: isoInstant(l.until),
    })),
  };
}
