-- The call recorded for an attempt, by its idempotency key (issue 28; host/db/provider-calls.ts).
-- The SQLite twin is migrations/0018.
-- A fresh placement (no earlier request for its attempt) asks the ledger, not the provider,
-- whether another host's recovery already placed or is placing the attempt's call.
CREATE INDEX provider_calls_key ON provider_calls(idempotency_key);
