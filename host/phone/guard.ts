/**
 * The block guard: a {@link Messaging} whose `sendText` refuses every blocked number
 * (`ok: false`, code `number_blocked`) before the provider is asked, so that no part of the
 * host (fallback texts, reminders, HELP answers) can text a number that said STOP.
 * Verification codes for a number blocked by key 9 are the one exception, and they go
 * through the unguarded sender deliberately (see `verification.ts`).
 * @module
 */
import type { Db } from '../db/sql.js';
import type { Messaging } from '../../engine/index.js';
import { isBlocked } from '../db/phone-numbers.js';

/** Wraps `messaging`; e-mails pass through unchanged. */
export function guardTexts(messaging: Messaging, db: Db): Messaging {
  return {
    async sendText(message) {
      if (await isBlocked(db, message.to)) {
        return {
          ok: false,
          code: 'number_blocked',
          detail: 'Texts to this number are blocked (STOP, complaint, key 9 or a manual block).',
        };
      }
      return messaging.sendText(message);
    },
    sendEmail: (message) => messaging.sendEmail(message),
  };
}
