-- 0014_hardening (issue 18): provider call ids looked up by the Twilio adapter before it
-- dials (a call some attempt owns is never adopted by another), durable deduplication of
-- provider webhooks, and the provider's timestamp of the last STOP/START per number.

CREATE INDEX attempts_provider_call ON attempts (provider_call_id) WHERE provider_call_id IS NOT NULL;

-- Every provider message and call event applied, keyed by the provider's ids
-- (`sms:<MessageSid>`, `call:<CallSid>:<event>`), kept until expires_at (epoch ms) so that a
-- replay (a provider retry, or a captured signed request sent again) changes nothing.
CREATE TABLE webhook_events (
  event_key   TEXT PRIMARY KEY,
  expires_at  INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX webhook_events_expiry ON webhook_events (expires_at);

-- The newest STOP or START a number texted, by the provider's timestamp: an older one
-- arriving later (late delivery, or a replay) never undoes it.
CREATE TABLE inbound_keyword_order (
  e164        TEXT PRIMARY KEY,
  keyword_at  INTEGER NOT NULL,   -- the provider's creation time of that text, epoch ms
  message_id  TEXT
) WITHOUT ROWID;
