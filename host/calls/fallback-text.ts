/**
 * The fallback text: sent to the number when a wake-up call ends without a confirmation
 * (missed, unconfirmed or failed) and its schedule has `sms_fallback` on. One GSM-7 segment
 * where the label allows, with the opt-out hint every text carries.
 * @module
 */
import type { OccurrenceRecord } from '../../engine/index.js';
import { localTimeAt } from '../../engine/internals.js';
import { DEFAULT_LABEL } from './present.js';

/**
 * @example fallbackText(o, 'Wake-Up Call') // 'Wake-Up Call: your wake-up call at 07:00 was not confirmed. Time to get up! Reply STOP to opt out.'
 */
export function fallbackText(o: OccurrenceRecord, serviceName: string): string {
  const at = localTimeAt(o.timezone ?? 'UTC', o.scheduledAt).time;
  const what =
    o.label && o.label !== DEFAULT_LABEL ? `your wake-up call "${o.label}"` : 'your wake-up call';
  return `${serviceName}: ${what} at ${at} was not confirmed. Time to get up! Reply STOP to opt out.`;
}
