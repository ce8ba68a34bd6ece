-- 0022_webhook_lanes: fair webhook delivery (issue 39; host/webhooks/worker.ts, host/db/webhook-claims.ts).
-- The PostgreSQL twin is migrations-pg/0022.

-- Consecutive attempts to the endpoint that timed out (connection or answer); from
-- SLOW_AFTER_TIMEOUTS on, its deliveries go out through the slow lane. Any answer resets it.
ALTER TABLE webhook_endpoints ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;

-- Deliveries in flight (leased), counted per endpoint and account by every claim.
CREATE INDEX webhook_deliveries_leased ON webhook_deliveries(claimed_until) WHERE status = 'pending' AND claimed_until IS NOT NULL;

-- Test events of an endpoint in the last hour (the test-event limit).
CREATE INDEX webhook_outbox_endpoint ON webhook_outbox(endpoint_id, created_at) WHERE endpoint_id IS NOT NULL;
