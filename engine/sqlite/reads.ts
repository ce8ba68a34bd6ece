/**
 * The read model and the maintenance writes ({@link StoreReads}, {@link StoreMaintenance}) on
 * the SQLite store's tables. Each method runs synchronously, in one transaction when it reads
 * or writes more than one statement; `settle` (the store's) first folds the journal rows of
 * what it covers (docs/decisions/0016). Without `settle` (a reader in another process than the
 * store's, an operator's tool), the tables are read as they are.
 * @module
 */
import type { Database, Statement } from 'better-sqlite3';
import type { AttemptRecord, OccurrenceRecord, SeriesRecord } from '../model.js';
import type { SettleScope } from '../ports.js';
import type { AccountSummary, Sequenced, StoreMaintenance, StoreReads } from '../reads.js';
import * as ops from '../ops-reads.js';
import {
  ATTEMPT_COLUMNS,
  OCCURRENCE_COLUMNS,
  rowToAttempt,
  rowToOccurrence,
  rowToSeries,
  SERIES_COLUMNS,
} from './rows.js';

type Raw = unknown[];

const OCC = OCCURRENCE_COLUMNS.join(', ');
const ATT = ATTEMPT_COLUMNS.join(', ');
const SER = SERIES_COLUMNS.join(', ');
const IDS = '(SELECT value FROM json_each(?))';
const UNFINISHED = `('pending', 'dispatching', 'calling', 'waiting')`;
const LIVE_ATTEMPT = `('scheduled', 'requested', 'ringing', 'answered')`;

/** Folds the journal rows a read covers (the SQLite store passes its own); absent, the tables are read as they are. */
export type SqliteSettle = (scope: SettleScope) => void;

/** A row read with its rowid last: the record, and the rowid as `seq`. */
function sequenced<R>(rows: Raw[], toRecord: (row: Raw) => R): Sequenced<R>[] {
  return rows.map((row) => ({ record: toRecord(row), seq: row[row.length - 1] as number }));
}

/** Statements of `db`, each prepared once (raw: rows as arrays, for the reads). */
function statements(db: Database) {
  const prepared = new Map<string, Statement<unknown[]>>();
  const sql = (text: string): Statement<unknown[]> => {
    let s = prepared.get(text);
    if (!s) {
      s = db.prepare<unknown[]>(text);
      if (s.reader) s.raw(true);
      prepared.set(text, s);
    }
    return s;
  };
  return {
    sql,
    all: (text: string, ...params: unknown[]) => sql(text).all(...params) as Raw[],
    one: (text: string, ...params: unknown[]) => sql(text).get(...params) as Raw | undefined,
  };
}

const json = (v: unknown) => JSON.stringify(v);

/** The read model on `db` (see the module header). */
export function createSqliteReads(db: Database, settle?: SqliteSettle): StoreReads {
  const { all, one } = statements(db);
  const accounts = (ids: readonly string[]) => settle?.({ accounts: ids });

  const seriesByIds = (ids: readonly (string | null)[]): SeriesRecord[] => {
    const want = [...new Set(ids.filter((id): id is string => id !== null))];
    return want.length === 0
      ? []
      : all(`SELECT ${SER} FROM series WHERE id IN ${IDS}`, json(want)).map(rowToSeries);
  };
  const occurrencesByIds = (ids: readonly (string | null)[]): OccurrenceRecord[] => {
    const want = [...new Set(ids.filter((id): id is string => id !== null))];
    return want.length === 0
      ? []
      : all(`SELECT ${OCC} FROM occurrences WHERE id IN ${IDS}`, json(want)).map(rowToOccurrence);
  };

  const listSeries = db.transaction((q: Parameters<StoreReads['listSeries']>[0]) => {
    const rows = all(
      `SELECT ${SER}, rowid FROM series WHERE account_id = @account AND (@status IS NULL OR status = @status)
         AND (@createdAt IS NULL OR created_at < @createdAt OR (created_at = @createdAt AND rowid < @seq))
       ORDER BY created_at DESC, rowid DESC LIMIT @limit`,
      {
        account: q.accountId,
        status: q.status ?? null,
        createdAt: q.before?.createdAt ?? null,
        seq: q.before?.seq ?? null,
        limit: q.limit,
      },
    );
    const series = sequenced(rows, rowToSeries);
    return { series, occurrences: occurrencesByIds(series.map((s) => s.record.nextOccurrenceId)) };
  });

  const listOccurrences = db.transaction((q: Parameters<StoreReads['listOccurrences']>[0]) => {
    const occurrences = all(
      `SELECT ${OCC} FROM occurrences WHERE account_id = @account AND (@status IS NULL OR status = @status)
         AND (@from IS NULL OR scheduled_at >= @from) AND (@to IS NULL OR scheduled_at < @to)
         AND (@afterAt IS NULL OR scheduled_at > @afterAt OR (scheduled_at = @afterAt AND id > @afterId))
       ORDER BY scheduled_at, id LIMIT @limit`,
      {
        account: q.accountId,
        status: q.status ?? null,
        from: q.from ?? null,
        to: q.to ?? null,
        afterAt: q.after?.scheduledAt ?? null,
        afterId: q.after?.id ?? '',
        limit: q.limit,
      },
    ).map(rowToOccurrence);
    return { occurrences, series: seriesByIds(occurrences.map((o) => o.scheduleId)) };
  });

  const exportOccurrences = db.transaction((accountId: string, afterSeq: number, limit: number) => {
    const occurrences = sequenced(
      all(
        `SELECT ${OCC}, rowid FROM occurrences WHERE account_id = ? AND rowid > ? ORDER BY rowid LIMIT ?`,
        accountId,
        afterSeq,
        limit,
      ),
      rowToOccurrence,
    );
    const ids = occurrences.map((o) => o.record.id);
    const attempts =
      ids.length === 0
        ? []
        : all(
            `SELECT ${ATT} FROM attempts WHERE occurrence_id IN ${IDS} ORDER BY occurrence_id, n`,
            json(ids),
          );
    return { occurrences, attempts: attempts.map(rowToAttempt) };
  });

  // The operator's figures: rows as objects (the other reads' statements are raw).
  const named = new Map<string, Statement<unknown[]>>();
  const objects = (text: string, params: Record<string, unknown>): Record<string, unknown>[] => {
    let s = named.get(text);
    if (!s) named.set(text, (s = db.prepare<unknown[]>(text)));
    return s.all(params) as Record<string, unknown>[];
  };

  return {
    countInFlight: async () =>
      Object.fromEntries(
        objects(ops.COUNT_IN_FLIGHT, {}).map((r) => [r.status as string, r.n as number]),
      ),
    listInFlightSeries: async () =>
      objects(ops.IN_FLIGHT_SERIES, { enabled: 1 }).map((r) => ({
        rule: ops.ruleOf(r.rule),
        scheduledAt: r.scheduled_at as number,
      })),
    latenessByMinute: async (from, to, onTimeMs) =>
      ops.latenessRows(objects(ops.LATENESS_BY_MINUTE, { from, to, ontime: onTimeMs })),
    outcomesByHour: async (from, to) =>
      objects(ops.OUTCOMES_BY_HOUR, { from, to }).map((r) => ({
        hour: r.hour as number,
        status: r.status as OccurrenceRecord['status'],
        count: r.n as number,
      })),
    attemptsByHour: async (from, to, shortSeconds) =>
      ops.attemptHours(objects(ops.ATTEMPTS_BY_HOUR, { from, to, short: shortSeconds })),
    countLeases: async () => [],
    listSeries: async (q) => {
      accounts([q.accountId]);
      return listSeries(q);
    },
    countSeries: async (accountIds) => {
      const out = new Map<string, { series: number; active: number }>();
      if (accountIds.length === 0) return out;
      const rows = all(
        `SELECT account_id, COUNT(*), SUM(CASE WHEN status = 'active' AND enabled = 1 THEN 1 ELSE 0 END)
         FROM series WHERE account_id IN ${IDS} GROUP BY account_id`,
        json(accountIds),
      ) as [string, number, number][];
      for (const [account, series, active] of rows) out.set(account, { series, active });
      return out;
    },
    isPhoneNumberInUse: async (accountId, phoneNumberId) => {
      accounts([accountId]);
      const row = one(
        `SELECT EXISTS (SELECT 1 FROM series WHERE phone_number_id = @phone AND account_id = @account AND status = 'active' AND enabled = 1)
             OR EXISTS (SELECT 1 FROM occurrences WHERE account_id = @account AND phone_number_id = @phone AND status IN ${UNFINISHED})`,
        { account: accountId, phone: phoneNumberId },
      );
      return row?.[0] === 1;
    },
    listOccurrences: async (q) => {
      accounts([q.accountId]);
      return listOccurrences(q);
    },
    listUnfinishedOccurrenceIds: async (accountId) => {
      accounts([accountId]);
      return all(
        `SELECT id FROM occurrences WHERE account_id = ? AND status IN ${UNFINISHED}`,
        accountId,
      ).map((r) => r[0] as string);
    },
    countDueBySecond: async (until) =>
      (
        all(
          `SELECT next_due_at / 1000, COUNT(*) FROM occurrences
           WHERE status = 'pending' AND next_due_at IS NOT NULL AND next_due_at < ? GROUP BY next_due_at / 1000 ORDER BY 1`,
          until,
        ) as [number, number][]
      ).map(([second, count]) => ({ second, count })),
    listOccurrenceAttempts: async (accountId, occurrenceId) => {
      accounts([accountId]);
      return all(
        `SELECT ${ATT} FROM attempts WHERE occurrence_id = ? ORDER BY n`,
        occurrenceId,
      ).map(rowToAttempt);
    },
    listAccountAttempts: async (q) => {
      accounts([q.accountId]);
      const rows = all(
        `SELECT ${ATT}, rowid FROM attempts WHERE account_id = @account AND kind IN (SELECT value FROM json_each(@kinds))
           AND (@createdAt IS NULL OR created_at < @createdAt OR (created_at = @createdAt AND rowid < @seq))
         ORDER BY created_at DESC, rowid DESC LIMIT @limit`,
        {
          account: q.accountId,
          kinds: json(q.kinds),
          createdAt: q.before?.createdAt ?? null,
          seq: q.before?.seq ?? 0,
          limit: q.limit,
        },
      );
      return sequenced(rows, rowToAttempt);
    },
    findLiveStandaloneAttempt: async (accountId, phoneNumberId, kind) => {
      accounts([accountId]);
      const row = one(
        `SELECT ${ATT} FROM attempts
         WHERE phone_number_id = ? AND account_id = ? AND occurrence_id IS NULL AND kind = ? AND status IN ('requested', 'ringing', 'answered')
         ORDER BY created_at DESC, rowid DESC LIMIT 1`,
        phoneNumberId,
        accountId,
        kind,
      );
      return row ? rowToAttempt(row) : null;
    },
    findAttemptByProviderCallId: async (callId) => {
      const row = one(`SELECT ${ATT} FROM attempts WHERE provider_call_id = ? LIMIT 1`, callId);
      return row ? rowToAttempt(row) : null;
    },
    countPlacedAttempts: async (accountIds, from, to, kinds) => {
      const out = new Map<string, number>();
      if (accountIds.length === 0) return out;
      accounts(accountIds);
      const rows = all(
        `SELECT account_id, COUNT(*) FROM attempts
         WHERE account_id IN ${IDS} AND created_at >= ? AND created_at < ? AND kind IN ${IDS}
           AND requested_at IS NOT NULL AND status <> 'failed'
         GROUP BY account_id`,
        json(accountIds),
        from,
        to,
        json(kinds),
      ) as [string, number][];
      for (const [account, n] of rows) out.set(account, n);
      return out;
    },
    listCallsUsed: async (windows, standaloneKind) => {
      const out = new Map<string, string[]>();
      if (windows.length === 0) return out;
      accounts(windows.map((w) => w.accountId));
      const rows = all(
        `WITH w AS (SELECT json_extract(value, '$[0]') AS account_id, json_extract(value, '$[1]') AS f, json_extract(value, '$[2]') AS t
                    FROM json_each(@windows))
         SELECT w.account_id, (SELECT a.to_e164 FROM attempts a WHERE a.occurrence_id = o.id AND a.status <> 'failed' ORDER BY a.n LIMIT 1)
           FROM w JOIN occurrences o ON o.account_id = w.account_id AND o.dispatched_at >= w.f AND o.dispatched_at < w.t
          WHERE EXISTS (SELECT 1 FROM attempts a WHERE a.occurrence_id = o.id AND a.status <> 'failed')
         UNION ALL
         SELECT w.account_id, t.to_e164
           FROM w JOIN attempts t ON t.account_id = w.account_id AND t.occurrence_id IS NULL AND t.kind = @kind
            AND t.created_at >= w.f AND t.created_at < w.t AND t.requested_at IS NOT NULL AND t.status <> 'failed'`,
        { windows: json(windows.map((w) => [w.accountId, w.from, w.to])), kind: standaloneKind },
      ) as [string, string][];
      for (const [account, to] of rows) {
        const list = out.get(account);
        if (list) list.push(to);
        else out.set(account, [to]);
      }
      return out;
    },
    occurrencesWithPlacedAttempt: async (ids) => {
      if (ids.length === 0) return new Set();
      settle?.({ occurrences: ids });
      const rows = all(
        `SELECT DISTINCT occurrence_id FROM attempts WHERE occurrence_id IN ${IDS} AND status <> 'failed'`,
        json(ids),
      );
      return new Set(rows.map((r) => r[0] as string));
    },
    summarizeAccount: async ({
      accountId,
      kinds,
      standaloneKind,
      usedIn,
    }): Promise<AccountSummary> => {
      accounts([accountId]);
      const [series, active, lastConfirmedAt, standaloneConfirmed, used, lastAt, lastStatus] = one(
        `SELECT
           (SELECT COUNT(*) FROM series WHERE account_id = @account),
           (SELECT COUNT(*) FROM series WHERE account_id = @account AND status = 'active' AND enabled = 1),
           (SELECT MAX(COALESCE(ended_at, answered_at, updated_at)) FROM attempts
              WHERE account_id = @account AND status = 'confirmed' AND kind IN (SELECT value FROM json_each(@kinds))),
           (SELECT COUNT(*) FROM attempts WHERE account_id = @account AND occurrence_id IS NULL AND kind = @kind AND status = 'confirmed'),
           (SELECT COUNT(*) FROM occurrences o
              WHERE o.account_id = @account AND o.dispatched_at >= @from AND o.dispatched_at < @to
                AND EXISTS (SELECT 1 FROM attempts a WHERE a.occurrence_id = o.id AND a.status <> 'failed'))
           + (SELECT COUNT(*) FROM attempts
              WHERE account_id = @account AND occurrence_id IS NULL AND kind = @kind
                AND created_at >= @from AND created_at < @to AND requested_at IS NOT NULL AND status <> 'failed'),
           t.created_at, t.status
         FROM (SELECT 1) AS x
         LEFT JOIN (SELECT created_at, status FROM attempts
              WHERE account_id = @account AND occurrence_id IS NULL AND kind = @kind AND requested_at IS NOT NULL
              ORDER BY created_at DESC, id DESC LIMIT 1) AS t ON 1 = 1`,
        {
          account: accountId,
          kinds: json(kinds),
          kind: standaloneKind,
          from: usedIn?.from ?? null,
          to: usedIn?.to ?? null,
        },
      ) as [number, number, number | null, number, number, number | null, string | null];
      return {
        series,
        activeSeries: active,
        lastConfirmedAt,
        standaloneConfirmed,
        lastStandalone:
          lastAt === null
            ? null
            : { createdAt: lastAt, status: lastStatus as AttemptRecord['status'] },
        callsUsed: used,
      };
    },
    exportSeries: async (accountId, afterSeq, limit) =>
      sequenced(
        all(
          `SELECT ${SER}, rowid FROM series WHERE account_id = ? AND rowid > ? ORDER BY rowid LIMIT ?`,
          accountId,
          afterSeq,
          limit,
        ),
        rowToSeries,
      ),
    exportOccurrences: async (accountId, afterSeq, limit) => {
      accounts([accountId]);
      return exportOccurrences(accountId, afterSeq, limit);
    },
    exportStandaloneAttempts: async (accountId, afterSeq, limit) => {
      accounts([accountId]);
      return sequenced(
        all(
          `SELECT ${ATT}, rowid FROM attempts WHERE account_id = ? AND occurrence_id IS NULL AND rowid > ? ORDER BY rowid LIMIT ?`,
          accountId,
          afterSeq,
          limit,
        ),
        rowToAttempt,
      );
    },
  };
}

/**
 * The maintenance writes on `db`, each in one transaction after `settle` folded the account's
 * journal rows (so that no image folded later brings a row back). They write the tables
 * directly: every write here runs after a `settle` (the store forgets the versions its loads
 * noted there, ./table-versions.ts).
 */
export function createSqliteMaintenance(db: Database, settle: SqliteSettle): StoreMaintenance {
  const { sql, one } = statements(db);
  const accounts = (ids: readonly string[]) => settle({ accounts: ids });

  const deleteSeries = db.transaction((id: string): boolean => {
    if (
      one(
        'SELECT 1 FROM occurrences WHERE schedule_id = ? AND dispatched_at IS NOT NULL LIMIT 1',
        id,
      )
    )
      return false;
    sql(
      'DELETE FROM attempts WHERE occurrence_id IN (SELECT id FROM occurrences WHERE schedule_id = ?)',
    ).run(id);
    sql('DELETE FROM occurrences WHERE schedule_id = ?').run(id);
    return sql('DELETE FROM series WHERE id = ?').run(id).changes > 0;
  });

  const eraseAccount = db.transaction((accountId: string) => {
    sql(
      `UPDATE occurrences SET to_e164 = '', label = NULL, message = NULL, greeting_name = NULL, version = version + 1
       WHERE account_id = ? AND status NOT IN ${UNFINISHED}`,
    ).run(accountId);
    sql(
      `UPDATE series SET to_e164 = '', label = NULL, message = NULL, greeting_name = NULL, attributes = NULL, version = version + 1
       WHERE account_id = ? AND enabled = 0`,
    ).run(accountId);
    sql(
      `UPDATE attempts SET to_e164 = '', digits = NULL, script = NULL, version = version + 1
       WHERE account_id = ? AND status NOT IN ${LIVE_ATTEMPT}`,
    ).run(accountId);
  });

  const purgeAccount = db.transaction((accountId: string) => {
    sql(
      'DELETE FROM attempts WHERE occurrence_id IN (SELECT id FROM occurrences WHERE account_id = ?)',
    ).run(accountId);
    sql('DELETE FROM occurrences WHERE account_id = ?').run(accountId);
    sql('DELETE FROM attempts WHERE account_id = ?').run(accountId);
    sql('DELETE FROM series WHERE account_id = ?').run(accountId);
  });

  return {
    deleteSeries: async (id) => {
      const owner = one('SELECT account_id FROM series WHERE id = ?', id);
      if (!owner) return false;
      accounts([owner[0] as string]);
      return deleteSeries(id);
    },
    eraseAccount: async (accountId) => {
      accounts([accountId]);
      eraseAccount(accountId);
    },
    purgeAccount: async (accountId) => {
      accounts([accountId]);
      purgeAccount(accountId);
    },
  };
}
