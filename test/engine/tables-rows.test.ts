/**
 * The row mappers made from the tables' definitions (engine/tables/rows.ts): SQLite rows are
 * the arrays the hand-written mappers made (the journal's images of rows written before read
 * back, and new images are byte for byte the old ones), records come back with their fields in
 * the same order, and PostgreSQL rows read back alike from JSON (numbers) and from plain rows
 * (`bigint` as strings).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Sqlite from 'better-sqlite3';
import type { AttemptRecord, OccurrenceRecord, SeriesRecord } from '../../engine/index.js';
import * as pgRows from '../../engine/postgres/index.js';
import * as sqliteRows from '../../engine/sqlite/index.js';

const occurrence: OccurrenceRecord = {
  id: 'o1',
  scheduleId: 's1',
  accountId: 'a1',
  phoneNumberId: 'p1',
  to: '+14155550123',
  label: 'Gym',
  message: 'Up',
  greetingName: 'Sam',
  voice: 'female',
  timezone: 'Europe/Paris',
  derivationSource: 'weekly',
  scheduledAt: 1809500400000,
  policy: { maxSnoozes: 2, offsetsMinutes: [5, 10], ringTimeoutSeconds: 45, snoozeMinutes: 9 },
  smsFallback: true,
  backupAlarm: false,
  status: 'calling',
  outcomeReason: null,
  attemptCount: 1,
  snoozeCount: 0,
  seriesBase: 1809500400000,
  retryIndex: 0,
  nextDueAt: 1809500445000,
  liveAttemptId: 'c1',
  backupAlarmAt: null,
  reachedPerson: false,
  reachedVoicemail: true,
  missReason: 'busy',
  fallbackState: 'none',
  dispatchedAt: 1809500400012,
  confirmedAt: null,
  finishedAt: null,
  createdAt: 1809400000000,
  updatedAt: 1809500400012,
  version: 3,
  localDate: '2027-05-05',
  tzdataVersion: '2025b',
};

const attempt: AttemptRecord = {
  id: 'c1',
  occurrenceId: null,
  accountId: 'a1',
  phoneNumberId: 'p1',
  kind: 'test',
  n: 1,
  status: 'ringing',
  to: '+14155550123',
  dueAt: 1809500400000,
  createdAt: 1809500400000,
  requestedAt: 1809500400010,
  ringingAt: 1809500401000,
  answeredAt: null,
  endedAt: null,
  answeredBy: null,
  digits: null,
  durationSeconds: null,
  errorCode: null,
  providerCallId: 'CA123',
  idempotencyKey: 'c1',
  ringTimeoutSeconds: 45,
  deadlineAt: 1809500450000,
  script: { kind: 'test', greetingName: 'Sam', voice: 'female' },
  updatedAt: 1809500401000,
  version: 2,
};

const series: SeriesRecord = {
  id: 's1',
  accountId: 'a1',
  phoneNumberId: null,
  to: '+14155550123',
  label: null,
  message: null,
  greetingName: null,
  voice: null,
  rule: {
    kind: 'weekly',
    timezone: 'Europe/Paris',
    localTime: '07:00',
    daysOfWeek: ['wed'],
    startDate: null,
    endDate: null,
    pausedUntil: null,
    skipDates: [],
  },
  policy: { maxSnoozes: 2, offsetsMinutes: [5, 10], ringTimeoutSeconds: 45, snoozeMinutes: 9 },
  smsFallback: false,
  backupAlarm: true,
  enabled: true,
  status: 'active',
  nextOccurrenceId: 'o1',
  createdAt: 1809400000000,
  updatedAt: 1809400000000,
  version: 1,
  attributes: '{"source":"app"}',
};

// The images the hand-written mappers of commit 46f3547 made of the records above (a series'
// image ends with its attributes since migration 0019).
const IMAGES = {
  occurrence:
    '["o1","s1","a1","p1","+14155550123","Gym","Up","Sam","female","Europe/Paris","weekly",1809500400000,2,"[5,10]",45,9,1,0,"calling",null,1,0,1809500400000,0,1809500445000,"c1",null,0,1,"busy","none",1809500400012,null,null,1809400000000,1809500400012,3,"2027-05-05","2025b"]',
  attempt:
    '["c1",null,"a1","p1","test",1,"ringing","+14155550123",1809500400000,1809500400000,1809500400010,1809500401000,null,null,null,null,null,null,"CA123","c1",45,1809500450000,"{\\"kind\\":\\"test\\",\\"greetingName\\":\\"Sam\\",\\"voice\\":\\"female\\"}",1809500401000,2]',
  series:
    '["s1","a1",null,"+14155550123",null,null,null,null,"{\\"kind\\":\\"weekly\\",\\"timezone\\":\\"Europe/Paris\\",\\"localTime\\":\\"07:00\\",\\"daysOfWeek\\":[\\"wed\\"],\\"startDate\\":null,\\"endDate\\":null,\\"pausedUntil\\":null,\\"skipDates\\":[]}","{\\"maxSnoozes\\":2,\\"offsetsMinutes\\":[5,10],\\"ringTimeoutSeconds\\":45,\\"snoozeMinutes\\":9}",0,1,1,"active","o1",1809400000000,1809400000000,1,"{\\"source\\":\\"app\\"}"]',
};

/** Every field null that may be, to cover both branches of each nullable column. */
function nulled<R extends object>(r: R, keep: (keyof R)[]): R {
  const out = { ...r } as Record<string, unknown>;
  for (const [k, v] of Object.entries(out))
    if (v !== null && !keep.includes(k as keyof R) && nullable.has(k)) out[k] = null;
  return out as R;
}
const nullable = new Set([
  'scheduleId',
  'phoneNumberId',
  'label',
  'message',
  'greetingName',
  'voice',
  'timezone',
  'outcomeReason',
  'nextDueAt',
  'liveAttemptId',
  'backupAlarmAt',
  'missReason',
  'dispatchedAt',
  'confirmedAt',
  'finishedAt',
  'localDate',
  'tzdataVersion',
  'occurrenceId',
  'accountId',
  'requestedAt',
  'ringingAt',
  'answeredAt',
  'endedAt',
  'answeredBy',
  'digits',
  'durationSeconds',
  'errorCode',
  'providerCallId',
  'deadlineAt',
  'script',
  'nextOccurrenceId',
  'attributes',
]);

const cases = [
  {
    table: 'occurrences',
    record: occurrence,
    variants: [
      occurrence,
      nulled(occurrence, ['accountId']),
      { ...occurrence, outcomeReason: 'confirmed' as const, confirmedAt: 1 },
    ],
    image: IMAGES.occurrence,
    sqlite: {
      columns: sqliteRows.OCCURRENCE_COLUMNS,
      toRow: sqliteRows.occurrenceToRow,
      fromRow: sqliteRows.rowToOccurrence,
    },
    pg: {
      columns: pgRows.OCCURRENCE_COLUMNS,
      toRow: pgRows.occurrenceToRow,
      fromRow: pgRows.rowToOccurrence,
    },
  },
  {
    table: 'attempts',
    record: attempt,
    variants: [
      attempt,
      nulled(attempt, []),
      { ...attempt, answeredBy: 'person' as const, digits: '1', durationSeconds: 12 },
    ],
    image: IMAGES.attempt,
    sqlite: {
      columns: sqliteRows.ATTEMPT_COLUMNS,
      toRow: sqliteRows.attemptToRow,
      fromRow: sqliteRows.rowToAttempt,
    },
    pg: {
      columns: pgRows.ATTEMPT_COLUMNS,
      toRow: pgRows.attemptToRow,
      fromRow: pgRows.rowToAttempt,
    },
  },
  {
    table: 'series',
    record: series,
    variants: [
      series,
      nulled(series, ['accountId']),
      { ...series, enabled: false, smsFallback: true, backupAlarm: false },
    ],
    image: IMAGES.series,
    sqlite: {
      columns: sqliteRows.SERIES_COLUMNS,
      toRow: sqliteRows.seriesToRow,
      fromRow: sqliteRows.rowToSeries,
    },
    pg: { columns: pgRows.SERIES_COLUMNS, toRow: pgRows.seriesToRow, fromRow: pgRows.rowToSeries },
  },
] as const;

type AnyMapper = {
  columns: readonly string[];
  toRow: (r: any) => any;
  fromRow: (v: any) => unknown;
};

describe('row mappers from the table definitions', () => {
  for (const c of cases) {
    const sqlite = c.sqlite as AnyMapper;
    const pg = c.pg as AnyMapper;

    it(`${c.table}: SQLite images are the ones written before, and read back field for field`, () => {
      assert.equal(JSON.stringify(sqlite.toRow(c.record)), c.image);
      assert.equal(
        JSON.stringify(sqlite.fromRow(JSON.parse(c.image))),
        JSON.stringify(c.record),
        'same fields, same order',
      );
      for (const r of c.variants)
        assert.deepEqual(sqlite.fromRow(JSON.parse(JSON.stringify(sqlite.toRow(r)))), r);
    });

    it(`${c.table}: a SQLite row is the table's columns in order, written and read by the database`, () => {
      const db = new Sqlite(':memory:');
      sqliteRows.ensureEngineSchema(db);
      db.pragma('foreign_keys = OFF');
      const names = (db.pragma(`table_info(${c.table})`) as { name: string }[]).map((x) => x.name);
      assert.deepEqual(names, [...sqlite.columns]);
      const cols = sqlite.columns.join(', ');
      for (const [i, r] of c.variants.entries()) {
        const row = sqlite.toRow({ ...r, id: `x${i}` });
        db.prepare(
          `INSERT INTO ${c.table} (${cols}) VALUES (${sqlite.columns.map(() => '?').join(', ')})`,
        ).run(row);
        const back = db
          .prepare(`SELECT ${cols} FROM ${c.table} WHERE id = ?`)
          .raw(true)
          .get(`x${i}`);
        assert.deepEqual(sqlite.fromRow(back), { ...r, id: `x${i}` });
      }
    });

    it(`${c.table}: PostgreSQL rows read back from JSON and from plain rows (bigint as text)`, () => {
      assert.deepEqual([...pg.columns], [...sqlite.columns]);
      for (const r of c.variants) {
        const row = pg.toRow(r) as Record<string, unknown>;
        assert.deepEqual(Object.keys(row), [...pg.columns]);
        const json = JSON.parse(JSON.stringify(row)) as Record<string, unknown>;
        assert.deepEqual(pg.fromRow(json), r);
        const plain = Object.fromEntries(
          Object.entries(json).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]),
        );
        assert.deepEqual(pg.fromRow({ ...plain, lease_owner: null, lease_until: null }), r);
      }
      assert.equal(
        JSON.stringify(pg.fromRow(JSON.parse(JSON.stringify(pg.toRow(c.record))))),
        JSON.stringify(c.record),
      );
    });
  }
});
