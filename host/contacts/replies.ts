/**
 * What a text from a contact's number does to its contacts (issue 31). The phone feature
 * handles every inbound text (host/phone/inbound.ts: STOP blocks the number, START lifts a
 * STOP block) and tells this module of each keyword it applied:
 * - a stop word ends every contact with that number, in every account, at once and for good
 *   (status stopped: a later START lifts the number's block but agrees to nothing);
 * - `YES` agrees to the newest invitation still valid to that number (one per reply), and the
 *   contact gets a confirmation text.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { Clock, Messaging } from '../../engine/index.js';
import { agreeNewestByReply, stopContactsByNumber } from '../db/contacts.js';
import type { Logger } from '../logger.js';
import { agreedText, type ContactTextOptions } from './texts.js';

/** What {@link onContactKeyword} uses. */
export interface ContactRepliesDeps {
  db: Db;
  clock: Clock;
  /** Guarded messaging (the confirmation never reaches a blocked number). */
  messaging: Messaging;
  logger: Logger;
  text: () => ContactTextOptions;
}

/** The keyword of a text, as carriers read it: the whole text, case and trailing punctuation ignored. */
function keyword(body: string): string {
  return body
    .trim()
    .replace(/[.!?\s]+$/u, '')
    .toUpperCase();
}

/** Applies one inbound text the phone feature classified (`stop`, `start`, `help` or `other`) to the contacts of its number. */
export async function onContactKeyword(
  deps: ContactRepliesDeps,
  text: { from: string; body: string },
  intent: 'stop' | 'start' | 'help' | 'other',
): Promise<void> {
  const now = deps.clock.now();
  if (intent === 'stop') {
    const stopped = await stopContactsByNumber(deps.db, text.from, now);
    if (stopped > 0) deps.logger.info({ stopped }, 'STOP from a contact: its contacts stopped');
    return;
  }
  if (keyword(text.body) !== 'YES') return;
  const agreed = await agreeNewestByReply(deps.db, text.from, now);
  if (!agreed) return;
  deps.logger.info({ contact: agreed.id, account: agreed.accountId }, 'contact agreed by YES');
  const sent = await deps.messaging.sendText({ to: text.from, body: agreedText(agreed.holderName, deps.text()) });
  if (!sent.ok) deps.logger.warn({ contact: agreed.id, code: sent.code }, 'confirmation text to a contact not sent');
}
