/**
 * The PostgreSQL store's tables: the same tables and columns as the SQLite store's (the
 * service's migrations 0002 and 0010: occurrences, attempts, series), in PostgreSQL's types
 * (`bigint` epoch ms, `boolean`, `jsonb`), plus each due row's lease (`lease_owner`,
 * `lease_until`) for several processes sharing the work. Ids sort bytewise (`COLLATE "C"`),
 * as the port's keyset order and the other stores do, whatever the database's locale.
 *
 * {@link ensurePostgresEngineSchema} applies it idempotently under an advisory lock, so
 * several hosts starting at once do not race; the service's own PostgreSQL migrations
 * (issue 17, later) include the same statements.
 * @module
 */
import type { Queryable } from './rows.js';

/** Advisory lock key held while the schema is applied (any constant; "wakeupeng" in ASCII, truncated). */
const SCHEMA_LOCK = 0x77616b6575;

/** The schema, as idempotent statements (no parameters, several statements: the simple query protocol). */
export const POSTGRES_ENGINE_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS occurrences (
  id                    text COLLATE "C" PRIMARY KEY,
  schedule_id           text COLLATE "C",
  account_id            text NOT NULL,
  phone_number_id       text,
  to_e164               text NOT NULL,
  label                 text,
  message               text,
  greeting_name         text,
  voice                 text,
  timezone              text,
  derivation_source     text NOT NULL CHECK (derivation_source IN ('one_off', 'in_minutes', 'weekly', 'moved')),
  scheduled_at          bigint NOT NULL,
  max_snoozes           integer NOT NULL,
  offsets_minutes       jsonb NOT NULL,
  ring_timeout_seconds  integer NOT NULL,
  snooze_minutes        integer NOT NULL,
  sms_fallback          boolean NOT NULL,
  backup_alarm          boolean NOT NULL,
  status                text NOT NULL CHECK (status IN ('pending', 'dispatching', 'calling', 'waiting',
                          'confirmed', 'missed', 'failed', 'cancelled', 'unconfirmed')),
  outcome_reason        text CHECK (outcome_reason IN ('confirmed', 'stopped', 'no_input', 'voicemail',
                          'no_answer', 'busy', 'provider_error', 'cancelled', 'late_dispatch', 'calls_revoked',
                          'number_blocked', 'no_entitlement', 'daily_cap_reached', 'snoozes_exhausted')),
  attempt_count         integer NOT NULL,
  snooze_count          integer NOT NULL,
  series_base           bigint NOT NULL,
  retry_index           integer NOT NULL,
  next_due_at           bigint,
  live_attempt_id       text COLLATE "C",
  backup_alarm_at       bigint,
  reached_person        boolean NOT NULL,
  reached_voicemail     boolean NOT NULL,
  miss_reason           text CHECK (miss_reason IN ('no_answer', 'busy')),
  fallback_state        text NOT NULL CHECK (fallback_state IN ('none', 'pending', 'sent', 'failed')),
  dispatched_at         bigint,
  confirmed_at          bigint,
  finished_at           bigint,
  created_at            bigint NOT NULL,
  updated_at            bigint NOT NULL,
  version               bigint NOT NULL DEFAULT 1,
  local_date            text,
  tzdata_version        text,
  -- The process that claimed this row's due work (DueQuery.lease) and until when; the
  -- version is bumped when the owner changes, so it is the claim's fencing value.
  lease_owner           text,
  lease_until           bigint
);
CREATE INDEX IF NOT EXISTS occurrences_due ON occurrences (next_due_at, id) WHERE next_due_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS occurrences_account ON occurrences (account_id, scheduled_at);
CREATE INDEX IF NOT EXISTS occurrences_schedule ON occurrences (schedule_id, scheduled_at);
CREATE INDEX IF NOT EXISTS occurrences_tzdata ON occurrences (id) WHERE status = 'pending' AND tzdata_version IS NOT NULL;
CREATE INDEX IF NOT EXISTS occurrences_fallback ON occurrences (id) WHERE fallback_state = 'pending';

CREATE TABLE IF NOT EXISTS attempts (
  id                    text COLLATE "C" PRIMARY KEY,
  occurrence_id         text COLLATE "C" REFERENCES occurrences(id) ON DELETE CASCADE,
  account_id            text,
  phone_number_id       text,
  kind                  text NOT NULL CHECK (kind IN ('first', 'retry', 'snooze', 'test', 'demo')),
  n                     integer NOT NULL,
  status                text NOT NULL CHECK (status IN ('scheduled', 'requested', 'ringing', 'answered',
                          'confirmed', 'snoozed', 'stopped', 'no_input', 'voicemail', 'no_answer', 'busy',
                          'failed', 'cancelled')),
  to_e164               text NOT NULL,
  due_at                bigint NOT NULL,
  created_at            bigint NOT NULL,
  requested_at          bigint,
  ringing_at            bigint,
  answered_at           bigint,
  ended_at              bigint,
  answered_by           text CHECK (answered_by IN ('person', 'machine')),
  digits                text,
  duration_seconds      integer,
  error_code            text,
  provider_call_id      text,
  idempotency_key       text NOT NULL,
  ring_timeout_seconds  integer NOT NULL,
  deadline_at           bigint,
  script                jsonb,
  updated_at            bigint NOT NULL,
  version               bigint NOT NULL DEFAULT 1,
  lease_owner           text,
  lease_until           bigint
);
CREATE INDEX IF NOT EXISTS attempts_occurrence ON attempts (occurrence_id, n);
CREATE INDEX IF NOT EXISTS attempts_account ON attempts (account_id, created_at);
CREATE INDEX IF NOT EXISTS attempts_unacknowledged ON attempts (id) WHERE status = 'requested' AND provider_call_id IS NULL;
CREATE INDEX IF NOT EXISTS attempts_standalone_due ON attempts (deadline_at, id) WHERE occurrence_id IS NULL AND deadline_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS attempts_live_test ON attempts (phone_number_id)
  WHERE occurrence_id IS NULL AND status IN ('requested', 'ringing', 'answered');

CREATE TABLE IF NOT EXISTS series (
  id                  text COLLATE "C" PRIMARY KEY,
  account_id          text NOT NULL,
  phone_number_id     text,
  to_e164             text NOT NULL,
  label               text,
  message             text,
  greeting_name       text,
  voice               text,
  rule                jsonb NOT NULL,
  policy              jsonb NOT NULL,
  sms_fallback        boolean NOT NULL,
  backup_alarm        boolean NOT NULL,
  enabled             boolean NOT NULL,
  status              text NOT NULL CHECK (status IN ('active', 'completed', 'disabled')),
  next_occurrence_id  text COLLATE "C",
  created_at          bigint NOT NULL,
  updated_at          bigint NOT NULL,
  version             bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS series_active ON series (id) WHERE status = 'active' AND enabled;
`;

/**
 * Creates the store's tables when absent, in one transaction under an advisory lock (so that
 * hosts starting together do not race on `CREATE TABLE IF NOT EXISTS`). Tables go to the
 * connection's `search_path` (its first schema).
 */
export async function ensurePostgresEngineSchema(db: Queryable): Promise<void> {
  // Several statements in one simple query run as one implicit transaction (all or nothing),
  // which also bounds the advisory lock; no explicit BEGIN that could leave a pooled
  // connection inside an aborted transaction.
  await db.query({ text: `SELECT pg_advisory_xact_lock(${SCHEMA_LOCK}); ${POSTGRES_ENGINE_SCHEMA_SQL}` });
}
