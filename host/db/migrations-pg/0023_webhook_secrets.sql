-- 0023_webhook_secrets: webhook signing secrets sealed at rest (issue 39; host/webhooks/secret-box.ts).
-- The SQLite twin is migrations/0023.
--
-- The columns stay: a sealed secret is stored as `sealed:v1:<base64>` in `secret` and
-- `previous_secret`. Sealing needs the server's key, which SQL does not have: the delivery
-- worker seals the secrets stored readable at its start (sealStoredSecrets). Here, previous
-- secrets whose grace period is over are erased: they sign nothing more.
UPDATE webhook_endpoints SET previous_secret = NULL, previous_secret_until = NULL
WHERE previous_secret_until IS NOT NULL AND previous_secret_until <= CAST(extract(epoch FROM now()) * 1000 AS bigint);
