-- 0021_contacts: contacts to tell (issue 31; host/contacts, host/db/contacts.ts,
-- docs/decisions/0024-contacts.md). The SQLite twin is migrations/0021; types as in 0015.
--
-- A contact is a person an account names (a name and an E.164 number). It is told nothing
-- until it agrees: a reply YES to its invitation, or the invitation's code entered by the
-- account. STOP from its number ends it for good (status stopped).

CREATE TABLE contacts (
  id                     text PRIMARY KEY,
  account_id             text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name                   text NOT NULL,
  e164                   text NOT NULL,
  country_code           text NOT NULL,             -- ISO 3166-1 alpha-2
  -- The account holder's name as the invitation gave it: every text to the contact uses it.
  holder_name            text NOT NULL,
  status                 text NOT NULL CHECK (status IN ('pending', 'agreed', 'stopped')),
  invited_at             bigint,                   -- the latest invitation
  invitation_expires_at  bigint,                   -- a YES or the code agrees until then
  agreed_at              bigint,
  agreed_by              text CHECK (agreed_by IN ('reply', 'code')),
  stopped_at             bigint,
  -- The invitation's code (host/verification/code.ts): hash only; wrong tries lock it.
  code_hash              text,
  code_salt              text,
  code_expires_at        bigint,
  failed_count           bigint NOT NULL DEFAULT 0,
  locked_until           bigint,
  created_at             bigint NOT NULL,
  updated_at             bigint NOT NULL,
  rowid  bigint GENERATED ALWAYS AS IDENTITY,  -- insertion order (SQLite's rowid)
  UNIQUE (account_id, e164)
);
-- GET /contacts: oldest first per account (rowid breaks ties of equal created_at).
CREATE INDEX contacts_account_created ON contacts (account_id, created_at);
-- STOP and YES from a number: its contacts across accounts.
CREATE INDEX contacts_e164 ON contacts (e164);

-- The contacts a schedule names, with its rule (the same `tell_unconfirmed` on every row of a
-- schedule). Keyed by the schedule's id without a foreign key: the schedule's storage belongs
-- to the schedules feature; a removed schedule's rows are deleted with it.
CREATE TABLE schedule_contacts (
  schedule_id       text NOT NULL,
  contact_id        text NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  account_id        text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  tell_unconfirmed  bigint NOT NULL,               -- 1: also when the call ends unconfirmed
  created_at        bigint NOT NULL,
  rowid  bigint GENERATED ALWAYS AS IDENTITY,  -- insertion order (SQLite's rowid)
  PRIMARY KEY (schedule_id, contact_id)
);
CREATE INDEX schedule_contacts_contact ON schedule_contacts (contact_id);

-- One text per contact per occurrence: the row is claimed (pending) before the text is sent,
-- with the idempotency key contact-told:<occurrence_id>:<contact_id>, and records how it went.
-- skipped: past the account's daily cap (reason daily_cap), the number blocked (number_blocked)
-- or the contact no longer agreed (not_agreed); failed: the provider refused it, or it could
-- not be sent within the catch-up window (expired).
CREATE TABLE contact_texts (
  occurrence_id  text NOT NULL,                      -- engine table: no foreign key
  contact_id     text NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  account_id     text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  schedule_id    text,
  outcome        text NOT NULL CHECK (outcome IN ('missed', 'unconfirmed')),
  status         text NOT NULL CHECK (status IN ('pending', 'sent', 'failed', 'skipped')),
  reason         text,                               -- skipped or failed: why
  body           text NOT NULL,                       -- the text, fixed at the claim (a resend sends the same)
  tries          bigint NOT NULL DEFAULT 0,         -- sends handed to the provider
  message_id     text,
  created_at     bigint NOT NULL,                   -- claimed
  updated_at     bigint NOT NULL,
  sent_at        bigint,
  rowid  bigint GENERATED ALWAYS AS IDENTITY,  -- insertion order (SQLite's rowid)
  PRIMARY KEY (occurrence_id, contact_id)
);
-- The daily cap: texts of an account in a UTC day.
CREATE INDEX contact_texts_account_created ON contact_texts (account_id, created_at);
-- Start-up catch-up: texts claimed but not known sent.
CREATE INDEX contact_texts_pending ON contact_texts (created_at) WHERE status = 'pending';
CREATE INDEX contact_texts_contact ON contact_texts (contact_id);
