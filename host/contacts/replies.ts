/**
 * What a text from a contact's number does to its contacts. The phone feature
 * handles every inbound text (host/phone/inbound.ts: STOP blocks the number, START lifts a
 * STOP block) and tells this module of each keyword it applied:
 * - a stop word ends every contact with that number, in every account, at once and for good
 *   (status stopped: a later START lifts the number's block but agrees to nothing);
 * - `YES <code>` agrees to the valid invitation to that number whose code it is; a bare `YES`
 *   agrees only when one invitation to the number is valid. With several (more than one account
 *   invited the number), a bare YES agrees to none and the number is asked for the code: a
 *   consent meant for one account is never credited to another. The contact agreed gets a
 *   confirmation naming the holder.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { Clock, Messaging } from '../../engine/index.js';
import { agreeByReply, stopContactsByNumber, validInvitations } from '../db/contacts.js';
import type { Logger } from '../logger.js';
import { maskE164 } from '../phone/numbers.js';
import { matchCode } from '../verification/code.js';
import {
  agreedText,
  replyNeedsCodeText,
  replyWrongCodeText,
  type ContactTextOptions,
} from './texts.js';

/** What {@link onContactKeyword} uses. */
export interface ContactRepliesDeps {
  db: Db;
  clock: Clock;
  /** Guarded messaging (the confirmation never reaches a blocked number). */
  messaging: Messaging;
  logger: Logger;
  text: () => ContactTextOptions;
}

/** `YES`, or `YES` and a 6-digit code (`YES 123456`, `yes: 123 456`), as carriers read a text: case and trailing punctuation ignored. */
export function parseYes(body: string): { code: string | null } | null {
  const words = body
    .trim()
    .replace(/[.!?\s]+$/u, '')
    .toUpperCase();
  const m = /^YES(?:[\s,:;-]+((?:\d\s?){5}\d))?$/u.exec(words);
  return m ? { code: m[1]?.replace(/\s/g, '') ?? null } : null;
}

/** Applies one inbound text the phone feature classified (`stop`, `start`, `help` or `other`) to the contacts of its number. */
export async function onContactKeyword(
  deps: ContactRepliesDeps,
  text: { from: string; body: string },
  intent: 'stop' | 'start' | 'help' | 'other',
): Promise<void> {
  const now = deps.clock.now();
  const from = maskE164(text.from);
  if (intent === 'stop') {
    const stopped = await stopContactsByNumber(deps.db, text.from, now);
    if (stopped > 0)
      deps.logger.info({ from, stopped }, 'STOP from a contact: its contacts stopped');
    return;
  }
  const yes = parseYes(text.body);
  if (!yes) return;
  const invitations = await validInvitations(deps.db, text.from, now);
  if (invitations.length === 0) return;
  const reply = (body: string) =>
    deps.messaging
      .sendText({ to: text.from, body })
      .catch((err: unknown) => ({ ok: false as const, code: String(err), detail: '' }));
  let chosen: (typeof invitations)[number] | undefined;
  if (yes.code !== null) {
    for (const i of invitations) if (await matchCode(yes.code, i.code)) chosen = i;
    if (!chosen) {
      deps.logger.info(
        { from, invitations: invitations.length },
        'YES from a contact with a code of no valid invitation',
      );
      await reply(replyWrongCodeText(deps.text()));
      return;
    }
  } else if (invitations.length === 1) {
    chosen = invitations[0];
  } else {
    deps.logger.info(
      { from, invitations: invitations.length },
      'bare YES to several invitations: asked for the code',
    );
    await reply(replyNeedsCodeText(deps.text()));
    return;
  }
  const agreed = await agreeByReply(deps.db, chosen!.contact.id, now);
  if (!agreed) return;
  deps.logger.info({ contact: agreed.id, account: agreed.accountId }, 'contact agreed by YES');
  const sent = await reply(agreedText(agreed.holderName, deps.text()));
  if (!sent.ok)
    deps.logger.warn(
      { contact: agreed.id, code: sent.code },
      'confirmation text to a contact not sent',
    );
}

/**
 * {@link onContactKeyword} as the phone feature's keyword listener. The phone feature applies
 * the number's block first; a failure here is logged, never the text's answer (a stopped
 * contact's number is blocked anyway, so the guard refuses every text to it).
 */
export function contactKeywordListener(
  deps: ContactRepliesDeps,
): (
  text: { from: string; body: string },
  intent: 'stop' | 'start' | 'help' | 'other',
) => Promise<void> {
  return (text, intent) =>
    onContactKeyword(deps, text, intent).catch((err: unknown) =>
      deps.logger.error({ err, intent }, 'inbound text: contacts not updated'),
    );
}
