/**
 * The words texted to contacts: the invitation (with its code), the confirmation of their
 * agreement, and the one sentence telling them a call went unanswered. One file, so that
 * wording, length and the opt-out hint every text carries are reviewed together (as
 * host/phone/texts.ts for the account's own numbers).
 *
 * The holder's name is shown as a name, in quotes after "the user named", never as the text's
 * opening words: a name cannot pose as the sender or as an instruction to the contact
 * ("Wake-Up Call: PayPal Security: act now asks you…"). ./holder-name.ts refuses the names that
 * would still read as a link or a call to action.
 * @module
 */
import type { EpochMs } from '../../engine/index.js';
import { localTimeAt } from '../../engine/internals.js';

/** The product name that starts every text (WAKEUP_SERVICE_NAME). */
export interface ContactTextOptions {
  serviceName: string;
}

/** A schedule's label when none was given (ScheduleIn.label null): left out of the told text. */
const DEFAULT_LABEL = 'Wake-up call';

/** The holder as the texts show it. */
const named = (holder: string) => `the user named "${holder}"`;

/**
 * The invitation: who asks, what the contact will receive, how to agree (YES with the code, or
 * the code read out to the holder), how to refuse.
 * @example invitationText('Sam', '123456', { serviceName: 'Wake-Up Call' })
 * // 'Wake-Up Call: the user named "Sam" asks you to get a text when they miss a wake-up call. Reply YES 123456 to agree, or give them the code. Reply STOP to opt out.'
 */
export function invitationText(holder: string, code: string, o: ContactTextOptions): string {
  return `${o.serviceName}: ${named(holder)} asks you to get a text when they miss a wake-up call. Reply YES ${code} to agree, or give them the code. Reply STOP to opt out.`;
}

/** The confirmation once the contact agreed (by YES or by its code). */
export function agreedText(holder: string, o: ContactTextOptions): string {
  return `${o.serviceName}: you will get a text when ${named(holder)} misses a wake-up call. Reply STOP to opt out at any time.`;
}

/** The answer to a bare YES when more than one invitation to the number is valid: nothing was agreed. */
export function replyNeedsCodeText(o: ContactTextOptions): string {
  return `${o.serviceName}: more than one person invited this number. Reply YES and the code of the invitation you agree to, e.g. YES 123456. Nothing was agreed yet.`;
}

/** The answer to YES with a code of no valid invitation to the number: nothing was agreed. */
export function replyWrongCodeText(o: ContactTextOptions): string {
  return `${o.serviceName}: no invitation to this number has that code. Reply YES and the 6-digit code of the invitation. Nothing was agreed.`;
}

/** What {@link toldText} says of the call. */
export interface ToldCall {
  scheduledAt: EpochMs;
  timezone: string | null;
  label: string | null;
}

/**
 * The one sentence a contact is told: the holder, the call's local time and zone, its label.
 * @example toldText('Sam', { scheduledAt, timezone: 'Europe/Paris', label: null }, { serviceName: 'Wake-Up Call' })
 * // 'Wake-Up Call: the user named "Sam" did not confirm the 07:00 wake-up call, Europe/Paris. Reply STOP to opt out.'
 */
export function toldText(holder: string, call: ToldCall, o: ContactTextOptions): string {
  const zone = call.timezone ?? 'UTC';
  const at = localTimeAt(zone, call.scheduledAt).time;
  const label = call.label && call.label !== DEFAULT_LABEL ? ` "${call.label}"` : '';
  return `${o.serviceName}: ${named(holder)} did not confirm the ${at} wake-up call${label}, ${zone}. Reply STOP to opt out.`;
}
