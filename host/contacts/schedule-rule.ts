/**
 * A schedule's contacts to tell (`tell_contacts` of ScheduleIn, SchedulePatchIn and
 * ScheduleOut): checked before the schedule is saved, stored beside it in
 * `schedule_contacts` (keyed by the schedule's id, so the schedule's own storage is not
 * touched), and shown with it. The schedules feature calls these; telling is ./tell.ts.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { EpochMs } from '../../engine/index.js';
import { ownedContactIds, replaceTellRule, tellRulesOf } from '../db/contacts.js';
import { invalid } from '../errors.js';
import type { TellContactsIn, TellContactsOut } from '../generated/openapi.js';
import { toContactRef } from './present.js';

/** A checked rule: the contacts to tell and whether an unconfirmed call tells them too; null removes the rule. */
export type CheckedTellRule = { contactIds: string[]; tellUnconfirmed: boolean } | null;

/**
 * Checks `tell_contacts` of a request: undefined (left out) changes nothing; null or no
 * contacts removes the rule; otherwise every id must name a contact of the account (else 400
 * validation_error, field tell_contacts.contact_ids).
 */
export async function checkTellContacts(
  db: Db,
  accountId: string,
  input: TellContactsIn | undefined,
): Promise<CheckedTellRule | undefined> {
  if (input === undefined) return undefined;
  if (input === null || input.contact_ids.length === 0) return null;
  const owned = await ownedContactIds(db, accountId, input.contact_ids);
  const unknown = input.contact_ids.findIndex((id) => !owned.has(id));
  if (unknown >= 0) {
    throw invalid({
      field: `tell_contacts.contact_ids.${unknown}`,
      in: 'body',
      code: 'invalid',
      message: 'names no contact of this account (see GET /contacts)',
    });
  }
  return {
    contactIds: [...input.contact_ids],
    tellUnconfirmed: input.when === 'missed_or_unconfirmed',
  };
}

/** Stores a checked rule for a saved schedule (undefined: nothing to change). */
export async function saveTellContacts(
  db: Db,
  accountId: string,
  scheduleId: string,
  rule: CheckedTellRule | undefined,
  now: EpochMs,
): Promise<void> {
  if (rule === undefined) return;
  await replaceTellRule(
    db,
    {
      accountId,
      scheduleId,
      contactIds: rule?.contactIds ?? [],
      tellUnconfirmed: rule?.tellUnconfirmed ?? false,
    },
    now,
  );
}

/** Removes a removed schedule's rule, if it has one (a schedule without one is removed with no write here). */
export async function dropTellContacts(
  db: Db,
  accountId: string,
  scheduleId: string,
  now: EpochMs,
): Promise<void> {
  if (!(await tellRulesOf(db, [scheduleId])).has(scheduleId)) return;
  await replaceTellRule(db, { accountId, scheduleId, contactIds: [], tellUnconfirmed: false }, now);
}

/** ScheduleOut.tell_contacts of one schedule: its rule, or null. */
export async function tellContactsOut(
  db: Db,
  scheduleId: string,
  now: EpochMs,
): Promise<TellContactsOut | null> {
  const rule = (await tellRulesOf(db, [scheduleId])).get(scheduleId);
  if (!rule) return null;
  return {
    when: rule.tellUnconfirmed ? 'missed_or_unconfirmed' : 'missed',
    contacts: rule.contacts.map((c) => toContactRef(c, now)),
  };
}
