/**
 * Account routes: GET /me and PATCH /me.
 * @module
 */
import { checkTimeZone } from '../../../engine/index.js';
import type { AppDeps } from '../../deps.js';
import { findAccountById, updateAccountProfile } from '../../db/accounts.js';
import type { Account, ProfileChange } from '../../db/accounts.js';
import { meOut } from '../../account/me.js';
import { resolveRetryPolicy } from '../../account/retry-policy.js';
import { requirePrincipal } from '../context.js';
import { invalid, problem } from '../../errors.js';
import type { Routes } from '../registrar.js';
import { billingOf } from './billing.js';

import type { MePatchIn } from '../../generated/openapi.js';

/** The caller's account (its credentials were just checked, so it exists). */
function account(deps: AppDeps, accountId: string): Account {
  const a = findAccountById(deps.db, accountId);
  if (!a) throw problem('unauthenticated', { detail: 'The account no longer exists.' });
  return a;
}

/**
 * Turns the patch into a change. null leaves a field unchanged, except greeting_name,
 * home_timezone and default_retry_policy, where it clears the value (schema MePatchIn).
 */
export function toProfileChange(body: MePatchIn): ProfileChange {
  const change: ProfileChange = {};
  if (body.display_name != null) {
    const name = body.display_name.trim();
    if (name === '') throw invalid({ field: 'display_name', in: 'body', code: 'min_length', message: 'must not be blank' });
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
      body.default_retry_policy === null ? null : resolveRetryPolicy(body.default_retry_policy, 'default_retry_policy');
  }
  return change;
}

/** Registers the account operations. */
export function register(routes: Routes, deps: AppDeps): void {
  routes.operation('getMe', ({ principal }) => {
    const p = requirePrincipal(principal);
    const a = account(deps, p.accountId);
    const now = deps.clock.now();
    return { status: 200, body: meOut(deps.db, a, now, billingOf(deps).meBilling(a, now)) };
  });

  routes.operation<MePatchIn>('updateMe', ({ principal, body }) => {
    const p = requirePrincipal(principal);
    const change = toProfileChange(body);
    const now = deps.clock.now();
    const updated = updateAccountProfile(deps.db, p.accountId, change, now) ?? account(deps, p.accountId);
    return { status: 200, body: meOut(deps.db, updated, now, billingOf(deps).meBilling(updated, now)) };
  });
}
