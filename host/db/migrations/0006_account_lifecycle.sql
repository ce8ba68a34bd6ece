-- 0006_account_lifecycle: account deletion (emailed codes, the deletion record that drives
-- the 30-day purge) and the identity-provider link. Conventions as in 0001.

-- The current account-deletion code of an account (one at a time; a new code replaces the
-- old one). Wrong codes count here, not on the code, as for sign-in: the fifth wrong code
-- locks DELETE /me until locked_until.
CREATE TABLE deletion_codes (
  account_id       TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  code_hash        TEXT,             -- scrypt hex, NULL once used or after a lock
  code_salt        TEXT,
  code_expires_at  INTEGER,
  failed_count     INTEGER NOT NULL DEFAULT 0,
  locked_until     INTEGER,
  updated_at       INTEGER NOT NULL
);

-- One row per deleted account. Written in the same transaction that marks the account
-- deleted and anonymises it, so a crash leaves either nothing or this row; the steps after
-- that transaction (cancelling calls, revoking the identity-provider token, the purge) are
-- resumed from it at every start. No foreign key: it outlives the purged account row.
CREATE TABLE account_deletions (
  account_id     TEXT PRIMARY KEY,
  deleted_at     INTEGER NOT NULL,
  purge_at       INTEGER NOT NULL,   -- deleted_at + 30 days
  calls_stopped  INTEGER NOT NULL DEFAULT 0,   -- 1 once every unfinished occurrence was cancelled
  idp_revoke     TEXT NOT NULL CHECK (idp_revoke IN ('none', 'pending', 'done', 'failed')),
  purged_at      INTEGER
);
CREATE INDEX account_deletions_open ON account_deletions (purge_at) WHERE purged_at IS NULL;

-- The identity-provider identity linked to an account (POST /me/idp-authorization): its
-- subject, and the refresh token sealed with AES-256-GCM under WAKEUP_IDP_TOKEN_KEY, kept
-- only to revoke it when the account is deleted.
CREATE TABLE idp_links (
  account_id             TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  subject                TEXT NOT NULL UNIQUE,
  refresh_token_sealed   BLOB,
  linked_at              INTEGER NOT NULL,
  updated_at             INTEGER NOT NULL
);
