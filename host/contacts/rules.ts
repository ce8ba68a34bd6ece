/**
 * The rules of contacts to tell (docs/decisions/0024-contacts.md), as values and
 * pure functions: the invitation's code, the holder's name a contact is texted, a contact's
 * shown status, and which finished calls tell whom.
 * @module
 */
import type { EpochMs, OccurrenceRecord } from '../../engine/index.js';
import type { CodeRules } from '../verification/code.js';
import { checkText, TEXT_LIMITS } from '../phone/content.js';
import type { Contact } from '../db/contacts.js';
import { holderNameProblem } from './holder-name.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * The invitation's code: valid 7 days (the contact may read it out to the holder later), the
 * 5th wrong try voids it and locks agreement for 15 minutes. A YES reply agrees within the same 7 days.
 */
export const INVITATION_CODES: CodeRules = {
  validMs: 7 * DAY_MS,
  maxWrongTries: 5,
  lockMs: 15 * MINUTE_MS,
};

/** Outcomes that ended within this window are caught up at start; older ones tell nobody. */
export const CATCH_UP_WINDOW_MS = DAY_MS;

/** The longest name a contact is texted as the account holder (a greeting name's limit). */
const HOLDER_NAME_MAX = TEXT_LIMITS.greetingName;

/**
 * The name a contact is told the account holder by: the account's greeting name, else its
 * display name, the first that passes the content rule of spoken and texted words and the rule
 * of holder names (./holder-name.ts: a name, not a link or a message); a display name made from
 * an e-mail address (`sam.smith`, `sam_smith+wake`) is read with spaces (`sam smith`). Null when
 * none can be put in a text.
 *
 * @example holderName({ greetingName: null, displayName: 'sam.smith' }) // 'sam smith'
 */
export function holderName(account: {
  greetingName: string | null;
  displayName: string;
}): string | null {
  const candidates = [
    account.greetingName,
    account.displayName,
    EMAIL_LOCAL_PART.test(account.displayName) ? spaced(account.displayName) : null,
  ];
  for (const c of candidates) {
    if (c === null) continue;
    const r = checkText(c, HOLDER_NAME_MAX);
    if (r.ok && holderNameProblem(r.value) === null) return r.value;
  }
  return null;
}

/** A display name made from an e-mail address's local part: no spaces, only its usual characters. */
const EMAIL_LOCAL_PART = /^[\p{L}\p{Nd}._+=~-]+$/u;

/** `sam.smith+wake` → `sam smith wake`: separators of e-mail local parts read as spaces. */
function spaced(name: string): string {
  return name
    .replace(/[._+=~]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** ContactOut.status at `now`: a pending contact whose invitation lapsed shows `expired`. */
export function shownStatus(
  c: Pick<Contact, 'status' | 'invitationExpiresAt'>,
  now: EpochMs,
): 'pending' | 'expired' | 'agreed' | 'stopped' {
  if (c.status === 'pending' && (c.invitationExpiresAt === null || c.invitationExpiresAt <= now))
    return 'expired';
  return c.status;
}

/** How a finished call of a schedule naming contacts ended, when it tells anyone. */
export type TellOutcome = 'missed' | 'unconfirmed';

/**
 * The outcome a finished occurrence tells contacts of, or null: it ended `missed` or
 * `unconfirmed`, and it rang at least once (someone or a machine answered, or it rang out or
 * was busy). A call that never rang (cancelled, refused by admission, failed at the provider,
 * or too late after downtime before any attempt) tells nobody: a contact is told only of a
 * call that was placed, which the account was entitled to place. Whether `unconfirmed` tells
 * depends on each schedule's rule.
 */
export function tellOutcome(
  o: Pick<
    OccurrenceRecord,
    'scheduleId' | 'status' | 'reachedPerson' | 'reachedVoicemail' | 'missReason' | 'finishedAt'
  >,
): TellOutcome | null {
  if (o.scheduleId === null || o.finishedAt === null) return null;
  if (o.status !== 'missed' && o.status !== 'unconfirmed') return null;
  return o.reachedPerson || o.reachedVoicemail || o.missReason !== null ? o.status : null;
}
