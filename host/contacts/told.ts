/**
 * The one place a contact is known told: {@link onContactTold} runs inside the transaction
 * that records a text to a contact as sent (host/contacts/tell.ts), so that whatever it
 * writes commits with that record or not at all. Issue 31's outbound webhooks connect their
 * `contact.told` event here (an outbox row written in `tx`); until then it does nothing.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { EpochMs } from '../../engine/index.js';

/** A contact was told, by one text, that a call went unanswered. */
export interface ContactTold {
  contactId: string;
  accountId: string;
  /** The call (occurrence) it was told of, and its schedule. */
  occurrenceId: string;
  scheduleId: string | null;
  /** How the call ended. */
  outcome: 'missed' | 'unconfirmed';
  /** When the provider took the text. */
  sentAt: EpochMs;
}

/**
 * Called once per text to a contact, inside the transaction (`tx`) that records it sent.
 * The webhook outbox (`contact.told`) is to be written here.
 */
export async function onContactTold(tx: Db, told: ContactTold): Promise<void> {
  void tx;
  void told;
  await Promise.resolve();
}
