/**
 * A schedule's save as the engine's series (schedule.ts: a schedule is its series): the
 * series input of a plan, with the account's defaults, the number and the retry policy the plan
 * resolved, and the schedule's own fields in `attributes`; and a plan's occurrence action as
 * the engine's {@link SeriesNext}. Pure.
 * @module
 */
import type {
  DerivationSource,
  RetryPolicy,
  SeriesInput,
  SeriesNext,
  SeriesRecord,
} from '../../engine/index.js';
import type { Account } from '../db/accounts.js';
import type { PhoneNumber } from '../db/phone-numbers.js';
import type { OccurrenceAction } from './plan.js';
import { ruleOf } from './rule.js';
import { scheduleAttributes, type ScheduleWrite } from './records.js';

/** The series of a schedule draft (with its account's defaults, its number and its policy in effect). */
export function seriesInput(
  s: ScheduleWrite,
  account: Account,
  phone: PhoneNumber | null,
  policy: RetryPolicy,
): SeriesInput {
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
    policy,
    smsFallback: s.smsFallback,
    backupAlarm: s.backupAlarm,
    enabled: s.enabled,
    attributes: scheduleAttributes(s),
  };
}

/** A stored series saved again as it is but for `change` (turning it off, say). */
export function seriesAgain(s: SeriesRecord, change: Partial<SeriesInput>): SeriesInput {
  const {
    id,
    accountId,
    phoneNumberId,
    to,
    rule,
    label,
    message,
    greetingName,
    voice,
    policy,
    smsFallback,
    backupAlarm,
    enabled,
    attributes,
  } = s;
  return {
    ...{
      id,
      accountId,
      phoneNumberId,
      to,
      rule,
      label,
      message,
      greetingName,
      voice,
      policy,
      smsFallback,
      backupAlarm,
      enabled,
      attributes,
    },
    ...change,
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
