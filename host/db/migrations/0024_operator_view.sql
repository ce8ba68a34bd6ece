-- 0024_operator_view: the operator's view (issue 43; docs/decisions/0027-operator-view.md).
-- The PostgreSQL twin is migrations-pg/0024.
--
-- ops_audit: one row per operator action (who, what, on what, when), listed by GET /ops/audit
-- newest first (by seq). The indexes on the engine's tables serve the ops figures, each a range of one
-- window (host/ops/figures.ts): the host's own indexes on them, as 0014's provider call ids.
CREATE TABLE ops_audit (
  -- Insertion order: the log's order (two actions may share an instant).
  seq         INTEGER PRIMARY KEY AUTOINCREMENT,
  id          TEXT NOT NULL UNIQUE,
  at          INTEGER NOT NULL,
  -- The operator's account and its email at the time (kept when the account goes).
  account_id  TEXT NOT NULL,
  email       TEXT NOT NULL,
  action      TEXT NOT NULL CHECK (action IN ('block_number', 'unblock_number', 'enable_webhook_endpoint', 'cancel_occurrence', 'redeliver_webhook')),
  -- What it acted on: an E.164 number, an endpoint, an occurrence or a delivery id.
  target      TEXT NOT NULL,
  -- JSON object: the action's details (reason, note, the account it touched, the result).
  detail      TEXT NOT NULL DEFAULT '{}'
);

-- Lateness, answers, short calls and provider errors: attempts by the instant they were placed.
CREATE INDEX IF NOT EXISTS ops_attempts_requested ON attempts (requested_at) WHERE requested_at IS NOT NULL;
-- Outcomes per hour: occurrences by their instant.
CREATE INDEX IF NOT EXISTS ops_occurrences_scheduled ON occurrences (scheduled_at);
-- Calls in flight (health), and the series they hold back (forecast).
CREATE INDEX IF NOT EXISTS ops_occurrences_in_flight ON occurrences (status) WHERE status IN ('dispatching', 'calling', 'waiting');
