-- 0005_calls: indexes for the calls API on the engine's tables (0002). No new tables: usage
-- and the daily cap are counted from occurrences and attempts (host/db/account-calls.ts),
-- and the calls-off switch is accounts.calls_revoked_at (0001).

-- POST /phone-numbers/{id}/test-call answers 200 with the live test call to that number.
CREATE INDEX attempts_live_test ON attempts (phone_number_id)
  WHERE occurrence_id IS NULL AND status IN ('requested', 'ringing', 'answered');
