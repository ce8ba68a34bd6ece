-- 0024_operator_view: the operator's view (issue 43; docs/decisions/0027-operator-view.md).
-- The SQLite twin is migrations/0024.
--
-- ops_audit: one row per operator action (who, what, on what, when), listed by GET /ops/audit
-- newest first (by seq). The indexes on the engine's tables serve the ops figures, each a range of one
-- window (host/ops/figures.ts): the host's own indexes on them, as attempts_provider_call.
CREATE TABLE ops_audit (
  -- Insertion order: the log's order (two actions may share an instant).
  seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id          text NOT NULL UNIQUE,
  at          bigint NOT NULL,
  -- The operator's account and its email at the time (kept when the account goes).
  account_id  text NOT NULL,
  email       text NOT NULL,
  action      text NOT NULL CHECK (action IN ('block_number', 'unblock_number', 'enable_webhook_endpoint', 'cancel_occurrence', 'redeliver_webhook')),
  -- What it acted on: an E.164 number, an endpoint, an occurrence or a delivery id.
  target      text NOT NULL,
  -- JSON object: the action's details (reason, note, the account it touched, the result).
  detail      text NOT NULL DEFAULT '{}'
);

-- Lateness, answers, short calls and provider errors: attempts by the instant they were placed.
CREATE INDEX IF NOT EXISTS ops_attempts_requested ON attempts (requested_at) WHERE requested_at IS NOT NULL;
-- Outcomes per hour: occurrences by their instant.
CREATE INDEX IF NOT EXISTS ops_occurrences_scheduled ON occurrences (scheduled_at);
-- Calls in flight (health), and the series they hold back (forecast).
CREATE INDEX IF NOT EXISTS ops_occurrences_in_flight ON occurrences (status) WHERE status IN ('dispatching', 'calling', 'waiting');
-- Each host's leases (health): rows with due work, by owner.
CREATE INDEX IF NOT EXISTS ops_occurrences_leased ON occurrences (lease_owner) WHERE lease_owner IS NOT NULL AND next_due_at IS NOT NULL;
