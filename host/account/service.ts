/**
 * The account service: the caller's profile (GET/PATCH /me), usage and the calls-off switch
 * (GET /me/usage, POST /me/resume-calls). Routes call it with the principal's account id.
 * @module
 */
import type { Db } from '../db/sql.js';
import { checkTimeZone, type Clock, type EpochMs } from '../../engine/index.js';
import { clearCallsRevoked } from '../db/account-calls.js';
import { findAccountById, updateAccountProfile } from '../db/accounts.js';
import type { Account, ProfileChange } from '../db/accounts.js';
import { invalid, problem } from '../errors.js';
import type { MeBilling, MeOut, MePatchIn, UsageOut } from '../generated/openapi.js';
import { usageOut } from '../entitlement/usage.js';
import { meOut } from './me.js';
import { resolveRetryPolicy } from './retry-policy.js';

/** What the account operations need. */
export interface AccountServiceDeps {
  db: Db;
  clock: Clock;
  /** MeOut.billing: the web checkout offer (the billing service's `meBilling`); null when absent. */
  meBilling?: (account: Account, now: EpochMs, hasPlan?: boolean) => Promise<MeBilling | null>;
}

/** The account operations. */
export interface AccountService {
  /** The caller's account; 401 unauthenticated when it no longer exists. */
  get(accountId: string): Promise<Account>;
  /** MeOut of an account now (sign-in answers it too). */
  present(account: Account): Promise<MeOut>;
  /** `known`: the account as this request's credential check read it (else read now). */
  me(accountId: string, known?: Account): Promise<MeOut>;
  update(accountId: string, body: MePatchIn): Promise<MeOut>;
  /** The account's home zone (null when unset or when the account is gone). */
  homeTimezone(accountId: string): Promise<string | null>;
  usage(accountId: string): Promise<UsageOut>;
  /** Turns calls back on after key 9 (consent already checked). */
  resumeCalls(accountId: string): Promise<MeOut>;
}

/**
 * Turns the patch into a change. null leaves a field unchanged, except greeting_name,
 * home_timezone and default_retry_policy, where it clears the value (schema MePatchIn).
 */
export function toProfileChange(body: MePatchIn): ProfileChange {
  const change: ProfileChange = {};
  if (body.display_name != null) {
    const name = body.display_name.trim();
    if (name === '')
      throw invalid({
        field: 'display_name',
        in: 'body',
        code: 'min_length',
        message: 'must not be blank',
      });
    change.displayName = name;
  }
  if (body.time_format != null) change.timeFormat = body.time_format;
  if (body.locale != null) change.locale = body.locale;
  if (body.voice != null) change.voice = body.voice;
  if (body.marketing_opt_in != null) change.marketingOptIn = body.marketing_opt_in;
  if (body.digest_opt_in != null) change.digestOptIn = body.digest_opt_in;
  if (body.default_backup_alarm != null) change.defaultBackupAlarm = body.default_backup_alarm;
  if (body.greeting_name !== undefined) change.greetingName = body.greeting_name;
  if (body.home_timezone !== undefined) {
    if (body.home_timezone === null) {
      change.homeTimezone = null;
    } else {
      const zone = checkTimeZone(body.home_timezone);
      if (!zone.ok) {
        throw problem(zone.code, {
          detail:
            zone.code === 'timezone_not_allowed'
              ? `${body.home_timezone} is a fixed offset, not a place; pick a city zone such as Europe/Paris, or UTC.`
              : `${body.home_timezone} is not an IANA city zone; send a zone such as America/New_York, or UTC.`,
          field: 'home_timezone',
        });
      }
      change.homeTimezone = zone.timezone;
    }
  }
  if (body.default_retry_policy !== undefined) {
    change.defaultRetryPolicy =
      body.default_retry_policy === null
        ? null
        : resolveRetryPolicy(body.default_retry_policy, 'default_retry_policy');
  }
  return change;
}

/** Creates the account service. */
export function createAccountService({ db, clock, meBilling }: AccountServiceDeps): AccountService {
  const present = async (account: Account, now: EpochMs): Promise<MeOut> =>
    await meOut(db, account, now, meBilling ? (hasPlan) => meBilling(account, now, hasPlan) : null);
  const get = async (accountId: string): Promise<Account> => {
    const a = await findAccountById(db, accountId);
    if (!a) throw problem('unauthenticated', { detail: 'The account no longer exists.' });
    return a;
  };
  return {
    get,
    present: async (account) => await present(account, clock.now()),
    me: async (accountId, known) => await present(known ?? (await get(accountId)), clock.now()),
    async update(accountId, body) {
      const change = toProfileChange(body);
      const now = clock.now();
      const updated =
        (await updateAccountProfile(db, accountId, change, now)) ?? (await get(accountId));
      return await present(updated, now);
    },
    homeTimezone: async (accountId) => (await findAccountById(db, accountId))?.homeTimezone ?? null,
    usage: async (accountId) => await usageOut(db, await get(accountId), clock.now()),
    async resumeCalls(accountId) {
      const now = clock.now();
      await clearCallsRevoked(db, accountId, now);
      return await present(await get(accountId), now);
    },
  };
}
