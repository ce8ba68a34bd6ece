-- 0008_billing: subscriptions, payment-provider customers, applied provider notifications,
-- pack credits, one-time web checkout links and the simulated payment provider's sessions.

-- The account's subscription (at most one row per account: the latest one, live or ended).
-- status: active | past_due | canceled (ends at ends_at) | expired (ended at ends_at).
-- period_anchor: start of a billing period; later periods follow by the plan's interval.
CREATE TABLE subscriptions (
  account_id                TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  plan_code                 TEXT NOT NULL,
  -- The plan's terms when it was bought (later catalogue changes do not alter a live plan).
  plan_name                 TEXT NOT NULL,
  interval                  TEXT NOT NULL CHECK (interval IN ('month', 'year', 'none')),
  included_calls            INTEGER NOT NULL,
  tier_b_multiplier         INTEGER NOT NULL,
  source                    TEXT NOT NULL CHECK (source IN ('web', 'ios_store', 'android_store', 'manual')),
  status                    TEXT NOT NULL CHECK (status IN ('active', 'past_due', 'canceled', 'expired')),
  period_anchor             INTEGER NOT NULL,
  ends_at                   INTEGER,
  provider_subscription_id  TEXT,
  created_at                INTEGER NOT NULL,
  updated_at                INTEGER NOT NULL
) STRICT;

-- The payment provider's customer of each account (one per account and provider).
CREATE TABLE billing_customers (
  account_id   TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  provider     TEXT NOT NULL,
  customer_id  TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  PRIMARY KEY (account_id, provider),
  UNIQUE (provider, customer_id)
) STRICT;

-- Provider notifications already applied: each event id is applied once.
CREATE TABLE billing_events (
  provider     TEXT NOT NULL,
  event_id     TEXT NOT NULL,
  type         TEXT NOT NULL,
  received_at  INTEGER NOT NULL,
  PRIMARY KEY (provider, event_id)
) STRICT;

-- Pack credits: + when a pack is paid, - when a call is paid with credits.
CREATE TABLE credit_ledger (
  id          INTEGER PRIMARY KEY,
  account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  delta       INTEGER NOT NULL,
  reason      TEXT NOT NULL,              -- pack (a paid pack) or call (a call paid with credits)
  plan_code   TEXT,                       -- the pack, on grants
  plan_name   TEXT,
  tier_b_multiplier INTEGER NOT NULL DEFAULT 1,
  ref         TEXT,
  at          INTEGER NOT NULL
) STRICT;
CREATE INDEX credit_ledger_account ON credit_ledger (account_id);
-- A pack is credited once per paid checkout.
CREATE UNIQUE INDEX credit_ledger_grant ON credit_ledger (ref) WHERE delta > 0;

-- One-time links from POST /billing/web-checkout (only the token's hash is kept).
CREATE TABLE web_checkout_links (
  token_hash  TEXT PRIMARY KEY,
  account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  plan_code   TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL,
  used_at     INTEGER
) STRICT;

-- The built-in payment simulator's hosted checkouts and portal sessions (its own state, as a
-- real provider would keep it on its side).
CREATE TABLE sim_payment_sessions (
  id           TEXT PRIMARY KEY,
  kind         TEXT NOT NULL CHECK (kind IN ('checkout', 'portal')),
  account_id   TEXT NOT NULL,
  customer_id  TEXT NOT NULL,
  plan_code    TEXT,
  success_url  TEXT NOT NULL,
  cancel_url   TEXT,
  status       TEXT NOT NULL CHECK (status IN ('open', 'paid', 'expired')),
  created_at   INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL
) STRICT;
