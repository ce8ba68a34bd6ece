-- 0025_provider_texts: a text sent at most once across a crash (issue 39; host/db/provider-texts.ts).
-- The SQLite twin is migrations/0025.
--
-- Every text sent with an idempotency key through a provider that ignores such keys (Twilio),
-- noted before its create request and given the provider's message id once accepted. A send
-- of a key already noted without an id (the process died, or the answer was lost) looks up
-- the provider's messages to the number since `created_at` before it sends again.
CREATE TABLE provider_texts (
  idempotency_key  TEXT PRIMARY KEY,
  message_sid      TEXT,
  created_at       BIGINT NOT NULL
);
CREATE INDEX provider_texts_created ON provider_texts(created_at);
