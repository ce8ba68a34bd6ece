/**
 * A schedule as the engine's series: the host keeps its display columns in `schedules`, the
 * engine owns the rule's record in `series` (same id) and, from it, the schedule's next
 * occurrence. This file maps one to the other, and a plan's occurrence action to the
 * engine's {@link SeriesNext}. Pure.
 * @module
 */
import type { DerivationSource, SeriesInput, SeriesNext } from '../../engine/index.js';
import type { Account } from '../db/accounts.js';
import type { PhoneNumber } from '../db/phone-numbers.js';
import type { ScheduleWrite } from '../db/schedules.js';
import type { OccurrenceAction } from './plan.js';
import { occurrencePolicy, ruleOf } from './rule.js';

/** The series of a schedule row (with its account's defaults and its number). */
export function seriesInput(s: ScheduleWrite, account: Account, phone: PhoneNumber | null): SeriesInput {
  return {
    id: s.id,
    accountId: s.accountId,
    phoneNumberId: phone?.id ?? null,
    // A schedule that cannot ring has no number; it is never enabled and active then (plan.ts).
    to: phone?.e164 ?? '',
    rule: ruleOf(s),
    label: s.label,
    message: s.message,
    greetingName: s.greetingName ?? account.greetingName,
    voice: account.voice,
    policy: occurrencePolicy(s, account),
    smsFallback: s.smsFallback,
    backupAlarm: s.backupAlarm,
    enabled: s.enabled,
  };
}

/**
 * What the engine does to the series' current occurrence for a planned action. `source`
 * overrides how an amended call's instant was derived (a travel move records `moved`).
 */
export function seriesNext(action: OccurrenceAction, source?: DerivationSource): SeriesNext {
  switch (action.kind) {
    case 'keep':
      return 'keep';
    case 'schedule':
      return { at: action.at.at, source: action.at.source, occurrenceId: action.id };
    case 'amend':
      return { at: action.at.at, source: source ?? action.at.source };
    case 'cancel':
      return null;
  }
}
