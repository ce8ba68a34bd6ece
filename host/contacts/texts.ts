/**
 * The words texted to contacts: the invitation (with its code), the confirmation of their
 * agreement, and the one sentence telling them a call went unanswered. One file, so that
 * wording, length and the opt-out hint every text carries are reviewed together (as
 * host/phone/texts.ts for the account's own numbers).
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

/**
 * The invitation: who asks, what the contact will receive, how to agree (YES, or the code read
 * out to the holder), how to refuse.
 * @example invitationText('Sam', '123456', { serviceName: 'Wakeup' })
 * // 'Wakeup: Sam asks you to get a text when they miss a wake-up call. Reply YES to agree, or give Sam the code 123456. Reply STOP to opt out.'
 */
export function invitationText(holder: string, code: string, o: ContactTextOptions): string {
  return `${o.serviceName}: ${holder} asks you to get a text when they miss a wake-up call. Reply YES to agree, or give ${holder} the code ${code}. Reply STOP to opt out.`;
}

/** The confirmation once the contact agreed (by YES or by its code). */
export function agreedText(holder: string, o: ContactTextOptions): string {
  return `${o.serviceName}: you will get a text when ${holder} misses a wake-up call. Reply STOP to opt out at any time.`;
}

/** What {@link toldText} says of the call. */
export interface ToldCall {
  scheduledAt: EpochMs;
  timezone: string | null;
  label: string | null;
}

/**
 * The one sentence a contact is told: the holder, the call's local time and zone, its label.
 * @example toldText('Sam', { scheduledAt, timezone: 'Europe/Paris', label: null }, { serviceName: 'Wakeup' })
 * // 'Wakeup: Sam did not confirm the 07:00 wake-up call, Europe/Paris. Reply STOP to opt out.'
 */
export function toldText(holder: string, call: ToldCall, o: ContactTextOptions): string {
  const zone = call.timezone ?? 'UTC';
  const at = localTimeAt(zone, call.scheduledAt).time;
  const label = call.label && call.label !== DEFAULT_LABEL ? ` "${call.label}"` : '';
  return `${o.serviceName}: ${holder} did not confirm the ${at} wake-up call${label}, ${zone}. Reply STOP to opt out.`;
}
