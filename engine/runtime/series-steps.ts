/**
 * The series steps of a unit of work: save a series and set its current occurrence, skip its
 * next call, follow a finished occurrence with the next one, resolve a pending occurrence again
 * when the zone rules change, and repair a series left without its occurrence at start-up.
 * A series has at most one unfinished occurrence, the one `nextOccurrenceId` names.
 * @module
 */
import type { EpochMs, Ids } from '../ports.js';
import type { OccurrenceRecord, SeriesRecord } from '../model.js';
import { isFinishedOccurrence } from '../machines/status.js';
import {
  nextAfterOccurrence,
  nextOccurrenceAfter,
  occurrenceOnDate,
  pruneSkipDates,
} from '../time/recurrence.js';
import type { ResolvedRuntimeOptions } from './options.js';
import { occurrenceOfSeries, type SeriesTime } from './record-factories.js';
import type { SaveSeriesResult, SeriesNext } from './types.js';

/** What the series steps need of a unit of work (the `UnitOfWork` gives it). */
export interface SeriesUnit {
  readonly now: EpochMs;
  series(id: string): SeriesRecord | undefined;
  occurrence(id: string): OccurrenceRecord | undefined;
  addOccurrence(rec: OccurrenceRecord): void;
  addSeries(rec: SeriesRecord): void;
  touchSeries(s: SeriesRecord): void;
  markOccurrence(o: OccurrenceRecord): void;
  cancel(id: string): unknown;
  amend(id: string, patch: Partial<OccurrenceRecord>): unknown;
}

/** The unit's dependencies the series steps use. */
export interface SeriesDeps {
  options: ResolvedRuntimeOptions;
  ids: Ids;
}

/**
 * An occurrence of a series finished (or was cancelled): when it is the series' current
 * one, the next occurrence is created in this same unit of work (strictly after it on
 * another local date, never more than the late grace in the past), or the series is
 * completed when its rule has no call left.
 */
export function advanceSeries(u: SeriesUnit, deps: SeriesDeps, o: OccurrenceRecord): void {
  const s = u.series(o.scheduleId!);
  if (!s || s.status !== 'active' || !s.enabled || s.nextOccurrenceId !== o.id) return;
  followWith(
    u,
    deps,
    s,
    nextAfterOccurrence(s.rule, o.scheduledAt, u.now - deps.options.lateGraceMs),
  );
}

/** Makes `time` the series' next occurrence, or completes the series when null. */
function followWith(
  u: SeriesUnit,
  deps: SeriesDeps,
  s: SeriesRecord,
  time: SeriesTime | null,
  id?: string,
): OccurrenceRecord | null {
  u.touchSeries(s);
  if (time === null) {
    s.status = 'completed';
    s.nextOccurrenceId = null;
    return null;
  }
  const o = occurrenceOfSeries(s, time, id ?? deps.ids.uuid(), u.now, deps.options);
  u.addOccurrence(o);
  s.nextOccurrenceId = o.id;
  return o;
}

/** The series' current occurrence when it is unfinished (and loaded). */
function currentOf(u: SeriesUnit, s: SeriesRecord | undefined): OccurrenceRecord | undefined {
  const o = s?.nextOccurrenceId ? u.occurrence(s.nextOccurrenceId) : undefined;
  return o && !isFinishedOccurrence(o.status) ? o : undefined;
}

/**
 * Creates or replaces a series (`record` complete but for version and times) and sets its
 * current occurrence as `next` says (see {@link SeriesNext}).
 */
export function saveSeries(
  u: SeriesUnit,
  deps: SeriesDeps,
  record: SeriesRecord,
  next: SeriesNext,
): SaveSeriesResult {
  const existing = u.series(record.id);
  const current = currentOf(u, existing);
  const running = current !== undefined && current.status !== 'pending';
  let want: SeriesTime | null | 'keep';
  let occurrenceId: string | undefined;
  if (next === 'keep') want = 'keep';
  else if (next === 'auto') {
    const time = record.enabled ? nextOccurrenceAfter(record.rule, u.now) : null;
    want = running ? 'keep' : time;
  } else {
    // A call between attempts may be cancelled (null), not moved; one being placed or ringing neither.
    const inProgress =
      current !== undefined && (current.status === 'dispatching' || current.status === 'calling');
    if (next === null ? inProgress : running) return { ok: false, code: 'occurrence_in_progress' };
    want = next === null ? null : { at: next.at, source: next.source ?? record.rule.kind };
    occurrenceId = next?.occurrenceId;
  }
  let s: SeriesRecord;
  if (existing) {
    Object.assign(existing, {
      ...record,
      version: existing.version,
      createdAt: existing.createdAt,
      nextOccurrenceId: null,
    });
    s = existing;
    u.touchSeries(s);
  } else {
    s = { ...record, nextOccurrenceId: null, createdAt: u.now, updatedAt: u.now };
    u.addSeries(s);
  }
  let occurrence: OccurrenceRecord | null = null;
  if (want === 'keep') {
    s.nextOccurrenceId = current?.id ?? null;
    occurrence = current ?? null;
  } else if (want === null) {
    // The series no longer names it, so its cancellation does not make a next one.
    if (current) u.cancel(current.id);
  } else if (current) {
    const fields = occurrenceOfSeries(s, want, current.id, u.now, deps.options);
    u.amend(current.id, {
      scheduledAt: fields.scheduledAt,
      derivationSource: fields.derivationSource,
      to: fields.to,
      phoneNumberId: fields.phoneNumberId,
      label: fields.label,
      message: fields.message,
      greetingName: fields.greetingName,
      voice: fields.voice,
      timezone: fields.timezone,
      policy: fields.policy,
      smsFallback: fields.smsFallback,
      backupAlarm: fields.backupAlarm,
      localDate: fields.localDate,
      tzdataVersion: fields.tzdataVersion,
    });
    s.nextOccurrenceId = current.id;
    occurrence = current;
  } else {
    occurrence = followWith(u, deps, s, want, occurrenceId);
  }
  s.status = !s.enabled ? 'disabled' : s.nextOccurrenceId !== null ? 'active' : 'completed';
  return { ok: true, series: s, occurrence };
}

/** Skips the next call of a weekly series (see Runtime.skipNext). */
export function skipNext(u: SeriesUnit, deps: SeriesDeps, id: string): SaveSeriesResult {
  const s = u.series(id);
  if (!s) return { ok: false, code: 'series_not_found' };
  if (s.rule.kind !== 'weekly') return { ok: false, code: 'not_recurring' };
  const current = currentOf(u, s);
  if (current && (current.status === 'dispatching' || current.status === 'calling'))
    return { ok: false, code: 'occurrence_in_progress' };
  // The call to skip: the pending one, or the one after the call between attempts, or the next from now.
  const after = !current
    ? u.now
    : current.status === 'pending'
      ? current.scheduledAt - 1
      : current.scheduledAt;
  const skipped = nextOccurrenceAfter(s.rule, after);
  if (skipped === null) return { ok: true, series: s, occurrence: current ?? null };
  const rule = pruneSkipDates({ ...s.rule, skipDates: [...s.rule.skipDates, skipped.date] }, u.now);
  return saveSeries(u, deps, { ...s, rule }, 'auto');
}

/**
 * The zone rules changed (tzdata `version`): a pending occurrence resolved under other rules
 * is resolved again from its series' wall time on the same local date (never one that is
 * being placed, ringing or between attempts). Returns the move, or null when nothing moved.
 */
export function reresolve(
  u: SeriesUnit,
  id: string,
  version: string,
): { occurrence: OccurrenceRecord; from: EpochMs } | null {
  const o = u.occurrence(id);
  if (
    !o ||
    o.status !== 'pending' ||
    o.tzdataVersion === null ||
    o.tzdataVersion === version ||
    o.localDate === null
  )
    return null;
  const s = o.scheduleId === null ? undefined : u.series(o.scheduleId);
  if (!s || s.rule.kind === 'in_minutes' || s.nextOccurrenceId !== o.id) return null;
  const time = occurrenceOnDate(s.rule, o.localDate);
  const from = o.scheduledAt;
  if (time === null || time.at === from) {
    Object.assign(o, { tzdataVersion: version });
    u.markOccurrence(o);
    return null;
  }
  u.amend(o.id, { scheduledAt: time.at, tzdataVersion: version });
  return { occurrence: o, from };
}

/**
 * Start-up repair of a series left without an unfinished occurrence (a crash, or a series
 * written without one): its next call after the last one, never more than the late grace
 * in the past, or completed when none remains.
 */
export function repairSeries(u: SeriesUnit, deps: SeriesDeps, id: string): void {
  const s = u.series(id);
  if (!s || s.status !== 'active' || !s.enabled || currentOf(u, s)) return;
  const last = s.nextOccurrenceId ? u.occurrence(s.nextOccurrenceId) : undefined;
  const floor = u.now - deps.options.lateGraceMs;
  followWith(
    u,
    deps,
    s,
    last
      ? nextAfterOccurrence(s.rule, last.scheduledAt, floor)
      : nextOccurrenceAfter(s.rule, floor),
  );
}
