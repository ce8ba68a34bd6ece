-- 0003_phone_numbers: the numbers an account may be called on, their verification codes,
-- and the blocks that stop calls and texts to a number.
--
-- Conventions as in 0001 (ids UUID strings, instants INTEGER epoch ms, booleans 0/1).
--
-- A block belongs to the phone line, not to an account: STOP texted from a number stops
-- every text and call to it, whichever accounts hold it, and adding it again elsewhere does
-- not get around it. PhoneNumberOut.blocked / blocked_reason are read from phone_blocks.

CREATE TABLE phone_numbers (
  id                       TEXT PRIMARY KEY,
  account_id               TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  e164                     TEXT NOT NULL,
  label                    TEXT NOT NULL,
  country_code             TEXT NOT NULL,             -- ISO 3166-1 alpha-2
  type                     TEXT NOT NULL CHECK (type IN ('mobile', 'fixed_line', 'fixed_line_or_mobile', 'voip', 'unknown')),
  is_primary               INTEGER NOT NULL DEFAULT 0,
  verified_at              INTEGER,
  verification_expires_at  INTEGER,                   -- verified_at + 365 days
  last_test_call_at        INTEGER,
  last_confirmed_at        INTEGER,
  -- The current verification code (one at a time; a new code replaces the old one).
  code_hash                TEXT,                      -- scrypt hex, NULL when none or used
  code_salt                TEXT,
  code_channel             TEXT CHECK (code_channel IN ('sms', 'call')),
  code_expires_at          INTEGER,
  -- Wrong codes count on the number, not on the code, so asking for a new code does not
  -- reset them; the fifth wrong code locks checks (and new codes) until locked_until.
  failed_count             INTEGER NOT NULL DEFAULT 0,
  locked_until             INTEGER,
  created_at               INTEGER NOT NULL,
  updated_at               INTEGER NOT NULL,
  deleted_at               INTEGER                    -- soft delete: history (calls) may still name it
);

-- An account holds a number once (deleted rows aside).
CREATE UNIQUE INDEX phone_numbers_account_e164 ON phone_numbers (account_id, e164) WHERE deleted_at IS NULL;
-- One primary per account.
CREATE UNIQUE INDEX phone_numbers_one_primary ON phone_numbers (account_id) WHERE is_primary = 1 AND deleted_at IS NULL;
-- GET /phone-numbers pages in creation order; rowid (in every index entry) breaks ties
-- between equal created_at, which the virtual clock produces.
CREATE INDEX phone_numbers_account_created ON phone_numbers (account_id, created_at) WHERE deleted_at IS NULL;
-- Inbound texts and blocks look numbers up by e164.
CREATE INDEX phone_numbers_e164 ON phone_numbers (e164) WHERE deleted_at IS NULL;

CREATE TABLE phone_blocks (
  e164        TEXT PRIMARY KEY,
  -- stop: texted STOP (START lifts it); complaint / manual: set by an operator (only an
  -- operator lifts it); key_9: pressed 9 on a call (verifying the number again lifts it).
  reason      TEXT NOT NULL CHECK (reason IN ('stop', 'complaint', 'manual', 'key_9')),
  note        TEXT,
  blocked_at  INTEGER NOT NULL
);

-- Audit trail of blocks and unblocks, for support.
CREATE TABLE phone_block_events (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  e164        TEXT NOT NULL,
  action      TEXT NOT NULL CHECK (action IN ('block', 'unblock')),
  reason      TEXT NOT NULL,
  source      TEXT NOT NULL CHECK (source IN ('sms', 'operator', 'keypad', 'verification', 'provider')),
  note        TEXT,
  at          INTEGER NOT NULL
);
CREATE INDEX phone_block_events_e164 ON phone_block_events (e164, at);
