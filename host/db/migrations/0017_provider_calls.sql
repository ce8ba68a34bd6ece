-- Placing a call at a Twilio-compatible provider exactly once when several hosts share the
-- database (issue 17; host/db/provider-calls.ts). The PostgreSQL twin is migrations-pg/0017.

-- Every provider call this service created, with the attempt (idempotency key) it was
-- created for, recorded before the number's placement lock is let go: a host that lists the
-- provider's calls to a number knows which are an attempt's own and which belong to another.
CREATE TABLE provider_calls (
  call_sid         TEXT PRIMARY KEY,
  idempotency_key  TEXT NOT NULL,
  created_at       INTEGER NOT NULL
);
CREATE INDEX provider_calls_created ON provider_calls(created_at);

-- One placement to a number at a time across hosts: a row is a lock held by `owner` (a
-- random id per process) until `until` (so a dead host's lock lapses).
CREATE TABLE placement_locks (
  e164   TEXT PRIMARY KEY,
  owner  TEXT NOT NULL,
  until  INTEGER NOT NULL
);
