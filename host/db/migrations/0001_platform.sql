-- 0001: platform tables (accounts, sessions, API keys, idempotency, outbox).
-- Filled in by the host platform work; kept as a valid no-op until then.
SELECT 1;
