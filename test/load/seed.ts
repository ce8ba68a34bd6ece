/**
 * Seeding many due wake-up calls straight into the service's database, through its own
 * modules (accounts, phone numbers, the engine's Store on SQLite or PostgreSQL): what HTTP would take minutes
 * and the rate limits to do. Shared by the host spike benchmark (bench/dispatch-host.ts), the
 * end-to-end cell (bench/e2e.ts) and the load tests (test/load/crash-loop.ts, spike-run.ts).
 * @module
 */
import {
  DEFAULT_RETRY_POLICY,
  type OccurrenceRecord,
  type RetryPolicy,
} from '../../engine/index.js';
import { insertAccount } from '../../host/db/accounts.js';
import { insertPhoneNumber, markVerified } from '../../host/db/phone-numbers.js';
import { createEngineStore } from '../../host/db/engine-store.js';
import type { Db } from '../../host/db/sql.js';

const DAY = 86_400_000;

/** What {@link pendingOccurrence} needs. */
export interface PendingOccurrenceInput {
  id: string;
  accountId: string;
  /** Destination, E.164. */
  to: string;
  phoneNumberId?: string | null;
  /** Due instant. */
  at: number;
  /** Creation instant. */
  now: number;
  /** @defaultValue DEFAULT_RETRY_POLICY with offsets [5, 10] */
  policy?: RetryPolicy;
}

/** A one-off wake-up call (no schedule) waiting for its instant, as the Store holds it. */
export function pendingOccurrence(input: PendingOccurrenceInput): OccurrenceRecord {
  const { at, now } = input;
  return {
    id: input.id,
    scheduleId: null,
    accountId: input.accountId,
    phoneNumberId: input.phoneNumberId ?? null,
    to: input.to,
    label: null,
    message: null,
    greetingName: null,
    voice: null,
    timezone: 'America/New_York',
    derivationSource: 'weekly',
    scheduledAt: at,
    policy: input.policy ?? { ...DEFAULT_RETRY_POLICY, offsetsMinutes: [5, 10] },
    smsFallback: false,
    backupAlarm: false,
    status: 'pending',
    outcomeReason: null,
    attemptCount: 0,
    snoozeCount: 0,
    seriesBase: at,
    retryIndex: 0,
    nextDueAt: at,
    liveAttemptId: null,
    backupAlarmAt: null,
    reachedPerson: false,
    reachedVoicemail: false,
    missReason: null,
    fallbackState: 'none',
    dispatchedAt: null,
    confirmedAt: null,
    finishedAt: null,
    createdAt: now,
    updatedAt: now,
    version: 1,
    localDate: null,
    tzdataVersion: null,
  };
}

/** Inserts accounts `${prefix}${i}` for i in [0, n), each on a fresh trial (7 days, 5 calls), in one transaction. */
export async function seedAccounts(db: Db, prefix: string, n: number, now: number): Promise<void> {
  await db.tx(async (tx) => {
    for (let i = 0; i < n; i++) {
      await insertAccount(tx, {
        id: `${prefix}${i}`,
        email: `${prefix}${i}@example.com`,
        displayName: `Sleeper ${i}`,
        now,
        trialEndsAt: now + 7 * DAY,
        trialCallsIncluded: 5,
      });
    }
  });
}

/**
 * Commits occurrences through the engine's Store, 10,000 per unit, then folds its journal into
 * the tables (docs/decisions/0016): seeding writes the rows a server opening the database later
 * reads, and moves them with SQL (setBatchDue).
 */
export async function commitOccurrences(db: Db, rows: readonly OccurrenceRecord[]): Promise<void> {
  const store = createEngineStore(db);
  for (let i = 0; i < rows.length; i += 10_000) {
    await store.commit({
      occurrences: rows.slice(i, i + 10_000).map((record) => ({ record, expectedVersion: null })),
      attempts: [],
      series: [],
    });
  }
  await store.settle?.();
}

/** Options of {@link seedDueCalls}. */
export interface SeedDueCallsOptions {
  /** Calls to seed. */
  n: number;
  /** The instant every call is due. */
  dueAt: number;
  /** Creation instant (accounts, numbers, occurrences). */
  now: number;
  /** Distinguishes batches: ids and numbers of one batch never meet another's. 0 to 79. */
  batch: number;
  /** @defaultValue DEFAULT_RETRY_POLICY without retries, 15 s ring timeout */
  policy?: RetryPolicy;
  /**
   * The index (0 ≤ index < n) of the seeded account that owns call i, which calls its own
   * number: several calls of one account due together. @defaultValue each call its own account (i)
   */
  accountOf?: (i: number) => number;
}

/** The id of the i-th account of a seeded batch. */
export function seededAccountId(batch: number, i: number): string {
  return `crash-b${batch}-acct-${i}`;
}

/** The occurrence ids of a seeded batch. */
export interface SeededBatch {
  batch: number;
  dueAt: number;
  occurrenceIds: string[];
}

/**
 * N accounts on a trial, each with one verified number of its own (+1 2xx…, distinct across
 * batches, so that no two calls share a destination) and one one-off wake-up call to it due
 * at `dueAt`. With `accountOf`, call i and its number belong to account `accountOf(i)`
 * instead (accounts that own no call are still seeded).
 */
export async function seedDueCalls(db: Db, o: SeedDueCallsOptions): Promise<SeededBatch> {
  if (o.n > 100_000 || o.batch < 0 || o.batch > 79)
    throw new Error('seedDueCalls: at most 100,000 calls per batch, batches 0 to 79');
  const prefix = `crash-b${o.batch}-`;
  const policy = o.policy ?? {
    ...DEFAULT_RETRY_POLICY,
    offsetsMinutes: [],
    ringTimeoutSeconds: 15,
  };
  await seedAccounts(db, `${prefix}acct-`, o.n, o.now);
  const rows: OccurrenceRecord[] = [];
  await db.tx(async (tx) => {
    for (let i = 0; i < o.n; i++) {
      const owner = o.accountOf ? o.accountOf(i) : i;
      if (!Number.isInteger(owner) || owner < 0 || owner >= o.n)
        throw new Error(`seedDueCalls: accountOf(${i}) = ${owner}, not an account index`);
      const accountId = seededAccountId(o.batch, owner);
      const e164 = `+1${2_010_000_000 + o.batch * 100_000 + i}`;
      const number = await insertPhoneNumber(tx, {
        id: `${prefix}num-${i}`,
        accountId,
        e164,
        label: 'Bedside',
        countryCode: 'US',
        type: 'mobile',
        at: o.now,
      });
      await markVerified(tx, number.id, o.now, o.now + 365 * DAY);
      rows.push(
        pendingOccurrence({
          id: `${prefix}occ-${i}`,
          accountId,
          to: e164,
          phoneNumberId: number.id,
          at: o.dueAt,
          now: o.now,
          policy,
        }),
      );
    }
  });
  await commitOccurrences(db, rows);
  return { batch: o.batch, dueAt: o.dueAt, occurrenceIds: rows.map((r) => r.id) };
}

/**
 * Moves every still-pending call of a seeded batch to `dueAt` (seeding 20,000 calls takes
 * seconds; the batch is seeded first and its instant set just before the server starts).
 */
export async function setBatchDue(db: Db, batch: SeededBatch, dueAt: number): Promise<void> {
  await db.run(
    `UPDATE occurrences SET scheduled_at = ?, next_due_at = ?, series_base = ? WHERE id LIKE ? AND status = 'pending'`,
    [dueAt, dueAt, dueAt, `crash-b${batch.batch}-occ-%`],
  );
  batch.dueAt = dueAt;
}
