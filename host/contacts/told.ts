/**
 * The one place a contact is known told: {@link onContactTold} runs inside the transaction
 * that records a text to a contact as sent (host/contacts/tell.ts), so that whatever it
 * writes commits with that record or not at all: the `contact.told` webhook event, an outbox
 * row written in `tx` (docs/decisions/0023), once per contact and call.
 * @module
 */
import type { Db } from '../db/sql.js';
import { getContact } from '../db/contacts.js';
import { recordContactTold } from '../db/webhook-outbox.js';
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

/** Called once per text to a contact, inside the transaction (`tx`) that records it sent: writes `contact.told`. */
export async function onContactTold(tx: Db, told: ContactTold): Promise<void> {
  const contact = await getContact(tx, told.accountId, told.contactId);
  await recordContactTold(tx, {
    accountId: told.accountId,
    contactId: told.contactId,
    contactName: contact?.name ?? '',
    occurrenceId: told.occurrenceId,
    scheduleId: told.scheduleId,
    outcome: told.outcome,
    at: told.sentAt,
  });
}
