/**
 * Accounts: queries on the `accounts` table. Every function takes the database handle.
 * @module
 */
import { idsIn, type Db } from './sql.js';
import type { EpochMs } from '../../engine/index.js';

/** Retry policy as stored (all four fields present). */
export interface StoredRetryPolicy {
  max_snoozes: number;
  offsets_minutes: number[];
  ring_timeout_seconds: number;
  snooze_minutes: number;
}

/** One account, with instants as epoch milliseconds. */
export interface Account {
  id: string;
  email: string;
  displayName: string;
  greetingName: string | null;
  homeTimezone: string | null;
  timeFormat: '24h' | '12h';
  locale: string;
  voice: 'female' | 'male';
  onboardingState: Record<string, unknown>;
  marketingOptIn: boolean;
  digestOptIn: boolean;
  defaultRetryPolicy: StoredRetryPolicy | null;
  defaultBackupAlarm: boolean;
  callsRevokedAt: EpochMs | null;
  trialStartedAt: EpochMs;
  trialEndsAt: EpochMs;
  trialCallsIncluded: number;
  createdAt: EpochMs;
  updatedAt: EpochMs;
}

/** A row of `accounts` as stored. */
export interface AccountRow {
  id: string;
  email: string;
  display_name: string;
  greeting_name: string | null;
  home_timezone: string | null;
  time_format: '24h' | '12h';
  locale: string;
  voice: 'female' | 'male';
  onboarding_state: string;
  marketing_opt_in: number;
  digest_opt_in: number;
  default_retry_policy: string | null;
  default_backup_alarm: number;
  calls_revoked_at: number | null;
  trial_started_at: number;
  trial_ends_at: number;
  trial_calls_included: number;
  created_at: number;
  updated_at: number;
}

/** The account of a stored row. */
export function accountOfRow(r: AccountRow): Account {
  return {
    id: r.id,
    email: r.email,
    displayName: r.display_name,
    greetingName: r.greeting_name,
    homeTimezone: r.home_timezone,
    timeFormat: r.time_format,
    locale: r.locale,
    voice: r.voice,
    onboardingState: JSON.parse(r.onboarding_state) as Record<string, unknown>,
    marketingOptIn: r.marketing_opt_in === 1,
    digestOptIn: r.digest_opt_in === 1,
    defaultRetryPolicy:
      r.default_retry_policy === null
        ? null
        : (JSON.parse(r.default_retry_policy) as StoredRetryPolicy),
    defaultBackupAlarm: r.default_backup_alarm === 1,
    callsRevokedAt: r.calls_revoked_at,
    trialStartedAt: r.trial_started_at,
    trialEndsAt: r.trial_ends_at,
    trialCallsIncluded: r.trial_calls_included,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The live (not deleted) account with this id. */
export async function findAccountById(db: Db, id: string): Promise<Account | undefined> {
  const row = await db.get<AccountRow>(
    'SELECT * FROM accounts WHERE id = ? AND deleted_at IS NULL',
    [id],
  );
  return row && accountOfRow(row);
}

/**
 * What admission and usage read of an account (host/entitlement/): its calls-off switch and its
 * trial. A dispatch batch reads these for every account of the batch, so not the whole row.
 */
export type AccountTerms = Pick<
  Account,
  'id' | 'callsRevokedAt' | 'trialStartedAt' | 'trialEndsAt' | 'trialCallsIncluded'
>;

/**
 * The {@link AccountTerms} of the live (not deleted) accounts among these ids, in one
 * statement of five columns (a dispatch batch's accounts: the whole rows cost several times
 * as much to read and map, docs/performance/spike-profile.md). On SQLite the rows come back as
 * one JSON array of arrays: better-sqlite3 makes an object per row otherwise, and that was
 * most of this read's time (the search itself about a sixth of it).
 */
export async function findAccountTerms(db: Db, ids: readonly string[]): Promise<AccountTerms[]> {
  if (ids.length === 0) return [];
  const where = `FROM accounts WHERE id IN ${idsIn(db)} AND deleted_at IS NULL`;
  if (db.dialect === 'sqlite') {
    const row = await db.get<{ terms: string }>(
      `SELECT json_group_array(json_array(id, calls_revoked_at, trial_started_at, trial_ends_at,
         trial_calls_included)) AS terms ${where}`,
      [JSON.stringify(ids)],
    );
    const terms = JSON.parse(row!.terms) as [string, number | null, number, number, number][];
    return terms.map(([id, callsRevokedAt, trialStartedAt, trialEndsAt, trialCallsIncluded]) => ({
      id,
      callsRevokedAt,
      trialStartedAt,
      trialEndsAt,
      trialCallsIncluded,
    }));
  }
  const rows = await db.all<
    Pick<
      AccountRow,
      'id' | 'calls_revoked_at' | 'trial_started_at' | 'trial_ends_at' | 'trial_calls_included'
    >
  >(`SELECT id, calls_revoked_at, trial_started_at, trial_ends_at, trial_calls_included ${where}`, [
    JSON.stringify(ids),
  ]);
  return rows.map((r) => ({
    id: r.id,
    callsRevokedAt: r.calls_revoked_at,
    trialStartedAt: r.trial_started_at,
    trialEndsAt: r.trial_ends_at,
    trialCallsIncluded: r.trial_calls_included,
  }));
}

/** The live account with this (lower-cased) e-mail address. */
export async function findAccountByEmail(db: Db, email: string): Promise<Account | undefined> {
  const row = await db.get<AccountRow>(
    'SELECT * FROM accounts WHERE email = ? AND deleted_at IS NULL',
    [email],
  );
  return row && accountOfRow(row);
}

/** What a new account needs; the trial starts at `now`. */
export interface NewAccount {
  id: string;
  email: string;
  displayName: string;
  now: EpochMs;
  trialEndsAt: EpochMs;
  trialCallsIncluded: number;
}

/** Creates an account with its trial started. */
export async function insertAccount(db: Db, a: NewAccount): Promise<Account> {
  await db.run(
    `INSERT INTO accounts (id, email, display_name, trial_started_at, trial_ends_at, trial_calls_included, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [a.id, a.email, a.displayName, a.now, a.trialEndsAt, a.trialCallsIncluded, a.now, a.now],
  );
  return (await findAccountById(db, a.id))!;
}

/** Profile fields PATCH /me may change, already validated and normalised. */
export interface ProfileChange {
  displayName?: string;
  greetingName?: string | null;
  homeTimezone?: string | null;
  timeFormat?: '24h' | '12h';
  locale?: string;
  voice?: 'female' | 'male';
  marketingOptIn?: boolean;
  digestOptIn?: boolean;
  defaultRetryPolicy?: StoredRetryPolicy | null;
  defaultBackupAlarm?: boolean;
}

const COLUMNS: Record<keyof ProfileChange, string> = {
  displayName: 'display_name',
  greetingName: 'greeting_name',
  homeTimezone: 'home_timezone',
  timeFormat: 'time_format',
  locale: 'locale',
  voice: 'voice',
  marketingOptIn: 'marketing_opt_in',
  digestOptIn: 'digest_opt_in',
  defaultRetryPolicy: 'default_retry_policy',
  defaultBackupAlarm: 'default_backup_alarm',
};

/** Applies a profile change (one UPDATE) and returns the account as stored. */
export async function updateAccountProfile(
  db: Db,
  id: string,
  change: ProfileChange,
  now: EpochMs,
): Promise<Account | undefined> {
  const sets: string[] = [];
  const values: unknown[] = [];
  for (const [field, column] of Object.entries(COLUMNS) as Array<[keyof ProfileChange, string]>) {
    if (!(field in change)) continue;
    const v = change[field];
    sets.push(`${column} = ?`);
    values.push(
      typeof v === 'boolean'
        ? v
          ? 1
          : 0
        : v !== null && typeof v === 'object'
          ? JSON.stringify(v)
          : v,
    );
  }
  sets.push('updated_at = ?');
  values.push(now);
  // Column names come from the fixed COLUMNS table above, never from input.
  await db.run(`UPDATE accounts SET ${sets.join(', ')} WHERE id = ? AND deleted_at IS NULL`, [
    ...values,
    id,
  ]);
  return await findAccountById(db, id);
}

/** Replaces the stored onboarding flags (JSON object) of a live account. */
export async function updateOnboardingState(
  db: Db,
  id: string,
  state: Record<string, unknown>,
  now: EpochMs,
): Promise<Account | undefined> {
  await db.run(
    'UPDATE accounts SET onboarding_state = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL',
    [JSON.stringify(state), now, id],
  );
  return await findAccountById(db, id);
}
