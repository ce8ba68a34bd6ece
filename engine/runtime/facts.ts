/**
 * The discrete facts the machines' guards read, derived from the stored rows, and the
 * memoised steps over both machines. Keys must cover every fact and event field a guard
 * reads (see machines/memo.ts).
 * @module
 */
import type { AttemptRecord, AttemptStatus, OccurrenceRecord, OccurrenceStatus } from '../model.js';
import {
  attemptMachine,
  type AttemptActionName,
  type AttemptEvent,
  type AttemptFacts,
} from '../machines/attempt.machine.js';
import { memoStep } from '../machines/memo.js';
import {
  occurrenceMachine,
  type OccurrenceActionName,
  type OccurrenceEvent,
  type OccurrenceFacts,
} from '../machines/occurrence.machine.js';

/** Facts of an occurrence row. */
export function occurrenceFacts(o: OccurrenceRecord): OccurrenceFacts {
  return {
    smsFallback: o.smsFallback,
    retriesLeft: o.retryIndex < o.policy.offsetsMinutes.length,
    reachedPerson: o.reachedPerson,
    reachedVoicemail: o.reachedVoicemail,
    missReason: o.missReason,
  };
}

/** True for the attempt kinds of a wake-up call (first, retry, snooze). */
export function isWakeUpKind(kind: AttemptRecord['kind']): boolean {
  return kind === 'first' || kind === 'retry' || kind === 'snooze';
}

/** Facts of an attempt row (with its occurrence, for the snooze allowance). */
export function attemptFacts(a: AttemptRecord, o: OccurrenceRecord | undefined): AttemptFacts {
  const wakeUp = isWakeUpKind(a.kind);
  return {
    wakeUp,
    snoozeAllowed: wakeUp && o !== undefined && o.snoozeCount < o.policy.maxSnoozes,
    answeredBy: a.answeredBy,
  };
}

const b = (x: boolean) => (x ? '1' : '0');

/** Memoised occurrence steps (process-wide; the cache holds only XState's answers). */
export const occurrenceStep = memoStep<
  OccurrenceStatus,
  OccurrenceActionName,
  OccurrenceFacts,
  OccurrenceEvent
>(occurrenceMachine, {
  facts: (f) =>
    `${b(f.smsFallback)}${b(f.retriesLeft)}${b(f.reachedPerson)}${b(f.reachedVoicemail)}${f.missReason ?? '-'}`,
  event: (e) =>
    e.type === 'DUE'
      ? `DUE:${e.verdict}`
      : e.type === 'ATTEMPT_ENDED'
        ? `ENDED:${e.outcome}`
        : e.type,
});

/** Memoised attempt steps. */
export const attemptStep = memoStep<AttemptStatus, AttemptActionName, AttemptFacts, AttemptEvent>(
  attemptMachine,
  {
    facts: (f) => `${b(f.wakeUp)}${b(f.snoozeAllowed)}${f.answeredBy ?? '-'}`,
    event: (e) =>
      e.type === 'DIGITS' ? `DIGITS:${e.key}` : e.type === 'ENDED' ? `ENDED:${e.reason}` : e.type,
  },
);
