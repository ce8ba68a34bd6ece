/**
 * Inbound texts (the provider's webhook, or POST /dev/sms/inbound): STOP and its aliases
 * block the line (reason `stop`, no reply: a blocked number is never texted); START,
 * UNSTOP or YES lift a `stop` block (and only that: an operator's or a key-9 block stays)
 * and confirm by text; HELP and INFO get the help text unless the line is blocked. Other
 * texts are ignored.
 *
 * STOP and START apply in the order the provider received them: each records its provider
 * time (`sentAt`, else the service clock) per number, and one older than the last recorded
 * changes nothing (a late delivery, or a replayed START after a newer STOP).
 *
 * Every text applied is then handed to `onKeyword` (contacts to tell: STOP ends them, YES
 * agrees; wired by the composition root, so this feature imports none of theirs).
 * @module
 */
import type { Db } from '../db/sql.js';
import type { Clock } from '../../engine/index.js';
import { blockNumber, isBlocked, unblockNumber } from '../db/phone-numbers.js';
import { claimKeywordOrder } from '../db/webhook-events.js';
import type { Logger } from '../logger.js';
import { classifyInbound, type InboundIntent } from './keywords.js';
import { maskE164 } from './numbers.js';
import type { PhoneRuntime } from './runtime.js';
import { helpText, startText } from '../reference/texts.js';

/** What the handler uses. */
export interface InboundDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  phone: Pick<PhoneRuntime, 'messaging' | 'text'>;
  /** Told of each text applied, with what it asked for (after the number's block changed). */
  onKeyword?: (text: { from: string; body: string }, intent: InboundIntent) => Promise<void>;
}

/** Handles one inbound text; returns what it understood (for logs and tests). */
export async function handleInboundText(
  deps: InboundDeps,
  text: { from: string; body: string; messageId?: string | null; sentAt?: number | null },
): Promise<InboundIntent> {
  const { db, clock, phone } = deps;
  const intent = classifyInbound(text.body);
  const now = clock.now();
  if (!/^\+[1-9]\d{1,14}$/.test(text.from)) {
    deps.logger.warn(
      { fromLength: text.from.length },
      'inbound text from a number that is not E.164: ignored',
    );
    return 'other';
  }
  if (
    (intent === 'stop' || intent === 'start') &&
    !(await claimKeywordOrder(db, text.from, text.sentAt ?? now, text.messageId ?? null))
  ) {
    deps.logger.info(
      { from: maskE164(text.from), intent, messageId: text.messageId },
      'inbound text older than the last STOP/START: ignored',
    );
    return intent;
  }
  switch (intent) {
    case 'stop':
      await blockNumber(db, text.from, 'stop', 'sms', now);
      break;
    case 'start':
      if (await unblockNumber(db, text.from, ['stop'], 'sms', now)) {
        await phone.messaging.sendText({ to: text.from, body: startText(phone.text()) });
      }
      break;
    case 'help':
      // The guard refuses blocked numbers anyway; checking first keeps the log quiet.
      if (!(await isBlocked(db, text.from)))
        await phone.messaging.sendText({ to: text.from, body: helpText(phone.text()) });
      break;
    case 'other':
      break;
  }
  await deps.onKeyword?.({ from: text.from, body: text.body }, intent);
  deps.logger.info({ from: maskE164(text.from), intent }, 'inbound text');
  return intent;
}
