/** ContactOut and ContactRef: a stored contact as the API shows it at `now`. @module */
import type { EpochMs } from '../../engine/index.js';
import type { Contact } from '../db/contacts.js';
import type { ContactOut, ContactRef } from '../generated/openapi.js';
import { isoInstant, isoInstantOrNull as iso } from '../instant.js';
import { maskE164 } from '../phone/numbers.js';
import { shownStatus } from './rules.js';

/** ContactOut of a stored contact. */
export function toContactOut(c: Contact, now: EpochMs): ContactOut {
  return {
    id: c.id,
    name: c.name,
    e164: c.e164,
    e164_masked: maskE164(c.e164),
    country_code: c.countryCode,
    status: shownStatus(c, now),
    blocked: c.blocked,
    invited_at: iso(c.invitedAt),
    invitation_expires_at: iso(c.invitationExpiresAt),
    agreed_at: iso(c.agreedAt),
    agreed_by: c.agreedBy,
    stopped_at: iso(c.stoppedAt),
    created_at: isoInstant(c.createdAt),
    updated_at: isoInstant(c.updatedAt),
  };
}

/** ContactRef (in a schedule's tell_contacts). */
export function toContactRef(c: Contact, now: EpochMs): ContactRef {
  return { id: c.id, name: c.name, status: shownStatus(c, now) };
}
