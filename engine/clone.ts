/**
 * Copies of the records (occurrences, attempts, series) deep enough that neither holder of a
 * copy can change the other's: what the runtime hands its callers and what a store keeps.
 * @module
 */
import type { AttemptRecord, OccurrenceRecord, SeriesRecord } from './model.js';

/** Copies an occurrence so that neither the caller nor the store can change the other's object. */
export function cloneOccurrence(r: OccurrenceRecord): OccurrenceRecord {
  return { ...r, policy: { ...r.policy, offsetsMinutes: [...r.policy.offsetsMinutes] } };
}

/** Copies an attempt (the script is cloned too). */
export function cloneAttempt(r: AttemptRecord): AttemptRecord {
  return { ...r, script: r.script === null ? null : { ...r.script } };
}

/** Copies a series (rule and policy included). */
export function cloneSeries(r: SeriesRecord): SeriesRecord {
  const rule =
    r.rule.kind === 'weekly'
      ? { ...r.rule, daysOfWeek: [...r.rule.daysOfWeek], skipDates: [...r.rule.skipDates] }
      : { ...r.rule };
  return { ...r, rule, policy: { ...r.policy, offsetsMinutes: [...r.policy.offsetsMinutes] } };
}
