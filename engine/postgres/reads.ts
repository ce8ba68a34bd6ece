/**
 * The read model and the maintenance writes ({@link StoreReads}, {@link StoreMaintenance}) on
 * the PostgreSQL store's tables: each method is ONE statement (CTEs where it reads or writes
 * several tables), prepared once per pooled connection, so one round trip, atomic on its own.
 * @module
 */
import type { AttemptRecord, OccurrenceRecord, SeriesRecord } from '../model.js';
import type { AccountSummary, Sequenced, StoreMaintenance, StoreReads } from '../reads.js';
import * as ops from '../ops-reads.js';
import { type Queryable, type Row, rowToAttempt, rowToOccurrence, rowToSeries } from './rows.js';

const UNFINISHED = `('pending', 'dispatching', 'calling', 'waiting')`;
const LIVE_ATTEMPT = `('scheduled', 'requested', 'ringing', 'answered')`;
const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : num(v));

/** Rows with their `rowid` as `seq`. */
function sequenced<R>(rows: Row[], toRecord: (row: Row) => R): Sequenced<R>[] {
  return rows.map((row) => ({ record: toRecord(row), seq: num(row.rowid) }));
}

/** The read model and the maintenance writes on `db` (`prefix` names its prepared statements). */
export function createPostgresReads(
  db: Queryable,
  prefix = 'wakeup_engine',
): StoreReads & StoreMaintenance {
  const q = async (name: string, text: string, values: unknown[]): Promise<Row[]> =>
    (await db.query({ name: `${prefix}_${name}`, text, values })).rows;

  const named = async (
    name: string,
    sql: string,
    params: Record<string, unknown>,
  ): Promise<Row[]> => {
    const { text, values } = ops.numbered(sql, params);
    return q(name, text, values);
  };

  return {
    async countInFlight() {
      return Object.fromEntries(
        (await named('ops_in_flight', ops.COUNT_IN_FLIGHT, {})).map((r) => [
          r.status as string,
          num(r.n),
        ]),
      );
    },
    async listInFlightSeries() {
      return (await named('ops_in_flight_series', ops.IN_FLIGHT_SERIES, { enabled: true })).map(
        (r) => ({
          rule: ops.ruleOf(r.rule),
          scheduledAt: num(r.scheduled_at),
        }),
      );
    },
    async latenessByMinute(from, to, onTimeMs) {
      return ops.latenessRows(
        await named('ops_lateness', ops.LATENESS_BY_MINUTE, { from, to, ontime: onTimeMs }),
      );
    },
    async outcomesByHour(from, to) {
      return (await named('ops_outcomes', ops.OUTCOMES_BY_HOUR, { from, to })).map((r) => ({
        hour: num(r.hour),
        status: r.status as OccurrenceRecord['status'],
        count: num(r.n),
      }));
    },
    async attemptsByHour(from, to, shortSeconds) {
      return ops.attemptHours(
        await named('ops_attempts', ops.ATTEMPTS_BY_HOUR, { from, to, short: shortSeconds }),
      );
    },
    async countLeases(now) {
      return (await named('ops_leases', ops.LEASES, { now })).map((r) => ({
        owner: r.owner as string,
        occurrences: num(r.n),
        until: num(r.until),
      }));
    },
    async listSeries(query) {
      const b = query.before;
      const [row] = await q(
        'list_series',
        `WITH s AS (SELECT * FROM series WHERE account_id = $1 AND ($2::text IS NULL OR status = $2)
                      AND ($3::bigint IS NULL OR created_at < $3 OR (created_at = $3 AND rowid < $4))
                    ORDER BY created_at DESC, rowid DESC LIMIT $5)
         SELECT (SELECT coalesce(json_agg(s ORDER BY s.created_at DESC, s.rowid DESC), '[]') FROM s) AS series,
                (SELECT coalesce(json_agg(o), '[]') FROM occurrences o
                   WHERE o.id = ANY(ARRAY(SELECT next_occurrence_id FROM s WHERE next_occurrence_id IS NOT NULL))) AS occurrences`,
        [query.accountId, query.status ?? null, b?.createdAt ?? null, b?.seq ?? null, query.limit],
      );
      return {
        series: sequenced(row!.series as Row[], rowToSeries),
        occurrences: (row!.occurrences as Row[]).map(rowToOccurrence),
      };
    },

    async countSeries(accountIds) {
      const out = new Map<string, { series: number; active: number }>();
      if (accountIds.length === 0) return out;
      const rows = await q(
        'count_series',
        `SELECT account_id, count(*) AS series, count(*) FILTER (WHERE status = 'active' AND enabled) AS active
         FROM series WHERE account_id = ANY($1::text[]) GROUP BY account_id`,
        [[...accountIds]],
      );
      for (const r of rows)
        out.set(r.account_id as string, { series: num(r.series), active: num(r.active) });
      return out;
    },

    async isPhoneNumberInUse(accountId, phoneNumberId) {
      const [row] = await q(
        'number_in_use',
        `SELECT EXISTS (SELECT 1 FROM series WHERE phone_number_id = $2 AND account_id = $1 AND status = 'active' AND enabled)
             OR EXISTS (SELECT 1 FROM occurrences WHERE account_id = $1 AND phone_number_id = $2 AND status IN ${UNFINISHED}) AS used`,
        [accountId, phoneNumberId],
      );
      return row!.used === true;
    },

    async listOccurrences(query) {
      const [row] = await q(
        'list_occurrences',
        `WITH o AS (SELECT * FROM occurrences WHERE account_id = $1 AND ($2::text IS NULL OR status = $2)
                      AND ($3::bigint IS NULL OR scheduled_at >= $3) AND ($4::bigint IS NULL OR scheduled_at < $4)
                      AND ($5::bigint IS NULL OR scheduled_at > $5 OR (scheduled_at = $5 AND id > $6))
                    ORDER BY scheduled_at, id LIMIT $7)
         SELECT (SELECT coalesce(json_agg(o ORDER BY o.scheduled_at, o.id), '[]') FROM o) AS occurrences,
                (SELECT coalesce(json_agg(s), '[]') FROM series s
                   WHERE s.id = ANY(ARRAY(SELECT DISTINCT schedule_id FROM o WHERE schedule_id IS NOT NULL))) AS series`,
        [
          query.accountId,
          query.status ?? null,
          query.from ?? null,
          query.to ?? null,
          query.after?.scheduledAt ?? null,
          query.after?.id ?? '',
          query.limit,
        ],
      );
      return {
        occurrences: (row!.occurrences as Row[]).map(rowToOccurrence),
        series: (row!.series as Row[]).map(rowToSeries),
      };
    },

    async listUnfinishedOccurrenceIds(accountId) {
      const rows = await q(
        'unfinished_ids',
        `SELECT id FROM occurrences WHERE account_id = $1 AND status IN ${UNFINISHED}`,
        [accountId],
      );
      return rows.map((r) => r.id as string);
    },

    async countDueBySecond(until) {
      const rows = await q(
        'due_by_second',
        `SELECT next_due_at / 1000 AS second, count(*) AS count FROM occurrences
         WHERE status = 'pending' AND next_due_at IS NOT NULL AND next_due_at < $1 GROUP BY next_due_at / 1000 ORDER BY 1`,
        [until],
      );
      return rows.map((r) => ({ second: num(r.second), count: num(r.count) }));
    },

    async listOccurrenceAttempts(_accountId, occurrenceId) {
      return (
        await q(
          'occurrence_attempts',
          'SELECT * FROM attempts WHERE occurrence_id = $1 ORDER BY n',
          [occurrenceId],
        )
      ).map(rowToAttempt);
    },

    async listAccountAttempts(query) {
      const b = query.before;
      const rows = await q(
        'account_attempts',
        `SELECT * FROM attempts WHERE account_id = $1 AND kind = ANY($2::text[])
           AND ($3::bigint IS NULL OR created_at < $3 OR (created_at = $3 AND rowid < $4))
         ORDER BY created_at DESC, rowid DESC LIMIT $5`,
        [query.accountId, [...query.kinds], b?.createdAt ?? null, b?.seq ?? 0, query.limit],
      );
      return sequenced(rows, rowToAttempt);
    },

    async findLiveStandaloneAttempt(accountId, phoneNumberId, kind) {
      const [row] = await q(
        'live_standalone',
        `SELECT * FROM attempts
         WHERE phone_number_id = $1 AND account_id = $2 AND occurrence_id IS NULL AND kind = $3 AND status IN ('requested', 'ringing', 'answered')
         ORDER BY created_at DESC, rowid DESC LIMIT 1`,
        [phoneNumberId, accountId, kind],
      );
      return row ? rowToAttempt(row) : null;
    },

    async findAttemptByProviderCallId(callId) {
      const [row] = await q(
        'attempt_by_call',
        'SELECT * FROM attempts WHERE provider_call_id = $1 LIMIT 1',
        [callId],
      );
      return row ? rowToAttempt(row) : null;
    },

    async countPlacedAttempts(accountIds, from, to, kinds) {
      const out = new Map<string, number>();
      if (accountIds.length === 0) return out;
      const rows = await q(
        'placed_attempts',
        `SELECT account_id, count(*) AS n FROM attempts
         WHERE account_id = ANY($1::text[]) AND created_at >= $2 AND created_at < $3 AND kind = ANY($4::text[])
           AND requested_at IS NOT NULL AND status <> 'failed'
         GROUP BY account_id`,
        [[...accountIds], from, to, [...kinds]],
      );
      for (const r of rows) out.set(r.account_id as string, num(r.n));
      return out;
    },

    async listCallsUsed(windows, standaloneKind) {
      const out = new Map<string, string[]>();
      if (windows.length === 0) return out;
      const rows = await q(
        'calls_used',
        `WITH w AS (SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS w(account_id, f, t))
         SELECT w.account_id, (SELECT a.to_e164 FROM attempts a WHERE a.occurrence_id = o.id AND a.status <> 'failed' ORDER BY a.n LIMIT 1) AS to_e164
           FROM w JOIN occurrences o ON o.account_id = w.account_id AND o.dispatched_at >= w.f AND o.dispatched_at < w.t
          WHERE EXISTS (SELECT 1 FROM attempts a WHERE a.occurrence_id = o.id AND a.status <> 'failed')
         UNION ALL
         SELECT w.account_id, t.to_e164
           FROM w JOIN attempts t ON t.account_id = w.account_id AND t.occurrence_id IS NULL AND t.kind = $4
            AND t.created_at >= w.f AND t.created_at < w.t AND t.requested_at IS NOT NULL AND t.status <> 'failed'`,
        [
          windows.map((w) => w.accountId),
          windows.map((w) => w.from),
          windows.map((w) => w.to),
          standaloneKind,
        ],
      );
      for (const r of rows) {
        const account = r.account_id as string;
        const list = out.get(account);
        if (list) list.push(r.to_e164 as string);
        else out.set(account, [r.to_e164 as string]);
      }
      return out;
    },

    async occurrencesWithPlacedAttempt(ids) {
      if (ids.length === 0) return new Set();
      const rows = await q(
        'placed_occurrences',
        `SELECT DISTINCT occurrence_id FROM attempts WHERE occurrence_id = ANY($1::text[]) AND status <> 'failed'`,
        [[...ids]],
      );
      return new Set(rows.map((r) => r.occurrence_id as string));
    },

    async summarizeAccount({ accountId, kinds, standaloneKind, usedIn }): Promise<AccountSummary> {
      const [r] = await q(
        'account_summary',
        `SELECT
           (SELECT count(*) FROM series WHERE account_id = $1) AS series,
           (SELECT count(*) FROM series WHERE account_id = $1 AND status = 'active' AND enabled) AS active,
           (SELECT max(coalesce(ended_at, answered_at, updated_at)) FROM attempts
              WHERE account_id = $1 AND status = 'confirmed' AND kind = ANY($2::text[])) AS success_at,
           (SELECT count(*) FROM attempts WHERE account_id = $1 AND occurrence_id IS NULL AND kind = $3 AND status = 'confirmed') AS test_done,
           (SELECT count(*) FROM occurrences o
              WHERE o.account_id = $1 AND o.dispatched_at >= $4 AND o.dispatched_at < $5
                AND EXISTS (SELECT 1 FROM attempts a WHERE a.occurrence_id = o.id AND a.status <> 'failed'))
           + (SELECT count(*) FROM attempts
              WHERE account_id = $1 AND occurrence_id IS NULL AND kind = $3
                AND created_at >= $4 AND created_at < $5 AND requested_at IS NOT NULL AND status <> 'failed') AS used,
           t.created_at AS last_at, t.status AS last_status
         FROM (SELECT 1) AS x
         LEFT JOIN (SELECT created_at, status FROM attempts
              WHERE account_id = $1 AND occurrence_id IS NULL AND kind = $3 AND requested_at IS NOT NULL
              ORDER BY created_at DESC, id DESC LIMIT 1) AS t ON true`,
        [accountId, [...kinds], standaloneKind, usedIn?.from ?? null, usedIn?.to ?? null],
      );
      const lastAt = numOrNull(r!.last_at);
      return {
        series: num(r!.series),
        activeSeries: num(r!.active),
        lastConfirmedAt: numOrNull(r!.success_at),
        standaloneConfirmed: num(r!.test_done),
        lastStandalone:
          lastAt === null
            ? null
            : { createdAt: lastAt, status: r!.last_status as AttemptRecord['status'] },
        callsUsed: num(r!.used),
      };
    },

    async exportSeries(accountId, afterSeq, limit): Promise<Sequenced<SeriesRecord>[]> {
      const rows = await q(
        'export_series',
        'SELECT * FROM series WHERE account_id = $1 AND rowid > $2 ORDER BY rowid LIMIT $3',
        [accountId, afterSeq, limit],
      );
      return sequenced(rows, rowToSeries);
    },

    async exportOccurrences(accountId, afterSeq, limit) {
      const [row] = await q(
        'export_occurrences',
        `WITH o AS (SELECT * FROM occurrences WHERE account_id = $1 AND rowid > $2 ORDER BY rowid LIMIT $3)
         SELECT (SELECT coalesce(json_agg(o ORDER BY o.rowid), '[]') FROM o) AS occurrences,
                (SELECT coalesce(json_agg(a ORDER BY a.occurrence_id, a.n), '[]') FROM attempts a
                   WHERE a.occurrence_id = ANY(ARRAY(SELECT id FROM o))) AS attempts`,
        [accountId, afterSeq, limit],
      );
      return {
        occurrences: sequenced(row!.occurrences as Row[], rowToOccurrence),
        attempts: (row!.attempts as Row[]).map(rowToAttempt),
      };
    },

    async exportStandaloneAttempts(accountId, afterSeq, limit) {
      const rows = await q(
        'export_standalone',
        'SELECT * FROM attempts WHERE account_id = $1 AND occurrence_id IS NULL AND rowid > $2 ORDER BY rowid LIMIT $3',
        [accountId, afterSeq, limit],
      );
      return sequenced(rows, rowToAttempt);
    },

    async deleteSeries(id) {
      const [row] = await q(
        'delete_series',
        `WITH rang AS (SELECT EXISTS (SELECT 1 FROM occurrences WHERE schedule_id = $1 AND dispatched_at IS NOT NULL) AS yes),
         occ AS (SELECT id FROM occurrences WHERE schedule_id = $1 AND NOT (SELECT yes FROM rang)),
         da AS (DELETE FROM attempts WHERE occurrence_id IN (SELECT id FROM occ) RETURNING 1),
         dox AS (DELETE FROM occurrences WHERE id IN (SELECT id FROM occ) RETURNING 1),
         ds AS (DELETE FROM series WHERE id = $1 AND NOT (SELECT yes FROM rang) RETURNING 1)
         SELECT (SELECT count(*) FROM ds) AS removed, (SELECT count(*) FROM da) + (SELECT count(*) FROM dox) AS rows`,
        [id],
      );
      return num(row!.removed) > 0;
    },

    async eraseAccount(accountId) {
      await q(
        'erase_account',
        `WITH o AS (UPDATE occurrences SET to_e164 = '', label = NULL, message = NULL, greeting_name = NULL, version = version + 1
                    WHERE account_id = $1 AND status NOT IN ${UNFINISHED} RETURNING 1),
         s AS (UPDATE series SET to_e164 = '', label = NULL, message = NULL, greeting_name = NULL, attributes = NULL, version = version + 1
               WHERE account_id = $1 AND NOT enabled RETURNING 1),
         a AS (UPDATE attempts SET to_e164 = '', digits = NULL, script = NULL, version = version + 1
               WHERE account_id = $1 AND status NOT IN ${LIVE_ATTEMPT} RETURNING 1)
         SELECT (SELECT count(*) FROM o) + (SELECT count(*) FROM s) + (SELECT count(*) FROM a) AS n`,
        [accountId],
      );
    },

    async purgeAccount(accountId) {
      await q(
        'purge_account',
        `WITH a AS (DELETE FROM attempts WHERE account_id = $1 OR occurrence_id IN (SELECT id FROM occurrences WHERE account_id = $1) RETURNING 1),
         o AS (DELETE FROM occurrences WHERE account_id = $1 RETURNING 1),
         s AS (DELETE FROM series WHERE account_id = $1 RETURNING 1)
         SELECT (SELECT count(*) FROM a) + (SELECT count(*) FROM o) + (SELECT count(*) FROM s) AS n`,
        [accountId],
      );
    },
  };
}
