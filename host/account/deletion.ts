/**
 * Account deletion (DELETE /me, POST /me/deletion-code) and the 30-day purge.
 *
 * Codes: 6 digits, valid 10 minutes, stored as scrypt hashes, e-mailed through the Messaging
 * port; at most 3 an hour per account (429 rate_limited). Wrong codes count per account as
 * for sign-in: the fifth locks deletion for 15 minutes (429 verification_locked).
 *
 * DELETE /me, in order:
 * 1. one transaction: the code is consumed, the account is marked deleted and anonymised, its
 *    sessions end, its API keys are revoked, and the deletion record (`account_deletions`) is
 *    written. A crash before the commit leaves nothing done.
 * 2. every schedule's series is turned off through the runtime (the engine makes no next
 *    call), every unfinished occurrence is cancelled (a ringing call is hung up; a cancelled
 *    occurrence sends no fallback text), then numbers, labels and messages are scrubbed from
 *    the series and the calls' rows and the record says `calls_stopped`. Meanwhile the
 *    admission rules already refuse every call of a deleted account.
 * 3. the identity provider's refresh token, if any, is revoked (retried at each start and at
 *    the purge while the provider is unreachable).
 * 4. a timer on the service clock purges every row 30 days later.
 * Steps 2 to 4 are resumed from the deletion record at every start ({@link DeletionService.resume}),
 * so a crash after step 1 yields a deletion that completes at restart. Each is idempotent.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { Clock, EpochMs, Messaging } from '../../engine/index.js';
import { findAccountById } from '../db/accounts.js';
import {
  findAccountDeletion,
  markAccountDeleted,
  openAccountDeletions,
  purgeAccount,
  scrubAccountCalls,
  setIdpRevoke,
  unfinishedOccurrenceIds,
} from '../db/account-deletions.js';
import { challengeStore } from '../db/code-challenges.js';
import { problem } from '../errors.js';
import { enforce, RateLimiter } from '../rate-limit/limiter.js';
import type { Logger } from '../logger.js';
import type { SharedState } from '../shared-state.js';
import { CODE_LOCK_MS, DAY_MS, MAX_CODE_FAILURES } from '../auth/index.js';
import {
  issueCode,
  retryAfterSeconds,
  runningLock,
  verifyCode,
  type CodeRules,
} from '../verification/code.js';
import type { IdpService } from './idp.js';

/** A deletion code is valid 10 minutes. */
export const DELETION_CODE_VALID_MINUTES = 10;
/** At most 3 deletion codes an hour per account. */
export const DELETION_CODES_PER_HOUR = 3;
/** The rules of deletion codes: as sign-in's, the fifth wrong code locks deletion for 15 minutes. */
const DELETION_CODES: CodeRules = {
  validMs: DELETION_CODE_VALID_MINUTES * 60_000,
  maxWrongTries: MAX_CODE_FAILURES,
  lockMs: CODE_LOCK_MS,
};
/** Personal data is purged 30 days after deletion. */
export const PURGE_AFTER_MS = 30 * DAY_MS;

/**
 * What a deletion stops of the account's schedules and calls. A use case
 * (host/use-cases/account-stops.ts) fills it from the schedules feature and the engine runtime:
 * this feature imports neither.
 */
export interface AccountStops {
  /** After the commit: the schedules' series off, so that no next occurrence is made. */
  stopSeries(accountId: string): Promise<void>;
  /** Cancels one unfinished occurrence (a ringing call is hung up; a cancelled occurrence sends no fallback text). */
  cancelOccurrence(occurrenceId: string): Promise<void>;
}

/** What {@link createDeletionService} needs. */
export interface DeletionServiceDeps {
  db: Db;
  clock: Clock;
  messaging: Messaging;
  logger: Logger;
  stop: AccountStops;
  idp: IdpService;
  /** Where the rate windows and the check queue live (host/shared-state.ts). */
  shared: SharedState;
}

/** The deletion operations. */
export interface DeletionService {
  /** POST /me/deletion-code. */
  sendCode(accountId: string): Promise<{ sent_to: string; valid_minutes: number }>;
  /** DELETE /me. */
  deleteAccount(
    accountId: string,
    input: { confirm: string | null | undefined; code: string | null | undefined },
  ): Promise<{ deletedAt: EpochMs }>;
  /** Resumes unfinished deletions (calls, revocation) and arms every purge timer; run at start. */
  resume(): Promise<void>;
  /** Purges one deleted account now if its time has come (the timer's job). */
  purgeIfDue(accountId: string): Promise<void>;
}

/** Creates the service (its code-send limiter lives as long as the app). */
export function createDeletionService(deps: DeletionServiceDeps): DeletionService {
  const { db, clock, messaging, stop, idp } = deps;
  const log = deps.logger.child({ component: 'account-deletion' });
  const sends = new RateLimiter({
    name: 'account.deletion-codes',
    limit: DELETION_CODES_PER_HOUR,
    windowSeconds: 3600,
    clock,
    store: deps.shared.rateWindows,
  });
  const checks = deps.shared.queues.queue('account-deletion');
  const purges = deps.shared.queues.queue('account-purge');
  const armed = new Set<string>();
  const codes = challengeStore(db, 'deletion_codes');

  const locked = (until: EpochMs, now: EpochMs) => {
    const seconds = retryAfterSeconds(until, now);
    return problem('verification_locked', {
      detail: `Too many wrong deletion codes. Try again in ${Math.ceil(seconds / 60)} minutes.`,
      headers: { 'Retry-After': String(seconds) },
    });
  };

  function armPurge(accountId: string, at: EpochMs): void {
    if (armed.has(accountId)) return;
    armed.add(accountId);
    clock.setTimer(at, async () => {
      armed.delete(accountId);
      try {
        // Every host arms the purge at start: one purge of an account at a time, across hosts.
        await purges.run(accountId, () => service.purgeIfDue(accountId));
      } catch (err) {
        log.error({ err, account: accountId }, 'purge failed; retried at the next start');
      }
    });
  }

  async function stopCalls(accountId: string): Promise<void> {
    try {
      // Series off first (no next occurrence is made from now on), then the unfinished calls go.
      await stop.stopSeries(accountId);
      for (const id of await unfinishedOccurrenceIds(db, accountId))
        await stop.cancelOccurrence(id);
      await scrubAccountCalls(db, accountId, clock.now());
    } catch (err) {
      // The deletion stands (calls are refused by admission meanwhile); the next start finishes it.
      log.error(
        { err, account: accountId },
        'could not cancel every call of a deleted account; resumed at the next start',
      );
    }
  }

  async function revoke(accountId: string): Promise<void> {
    const state = await idp.revokeFor(accountId);
    await setIdpRevoke(db, accountId, state);
  }

  const service: DeletionService = {
    async sendCode(accountId) {
      const account = await findAccountById(db, accountId);
      if (!account) throw problem('unauthenticated', { detail: 'The account no longer exists.' });
      const now = clock.now();
      const lock = runningLock(await codes.find(accountId), now);
      if (lock !== null) throw locked(lock, now);
      await enforce(sends, accountId, `At most ${DELETION_CODES_PER_HOUR} deletion codes an hour.`);
      const issued = await issueCode(DELETION_CODES, now);
      await codes.save(accountId, issued, now);
      const code = issued.code;
      const sent = await messaging.sendEmail({
        to: account.email,
        subject: 'Your Wake-Up Call account deletion code',
        body:
          `Your code to delete your Wake-Up Call account is ${code}. It is valid for ${DELETION_CODE_VALID_MINUTES} minutes.\n\n` +
          'Deleting the account stops every wake-up call at once. If you did not ask for this, ignore this email.',
      });
      if (!sent.ok) log.warn({ code: sent.code }, 'deletion code email not sent');
      return { sent_to: account.email, valid_minutes: DELETION_CODE_VALID_MINUTES };
    },

    deleteAccount(accountId, input) {
      if (input.confirm !== 'DELETE') {
        throw problem('confirmation_required', {
          detail: 'Set confirm to the word DELETE to delete the account.',
          field: 'confirm',
        });
      }
      // One check per account at a time, so parallel guesses cannot outrun the lock.
      return checks.run(accountId, async () => {
        const now = clock.now();
        // The code is consumed in the transaction that deletes the account.
        const checked = await verifyCode(codes, DELETION_CODES, accountId, input.code ?? '', now, {
          consume: async (codeHash) => {
            const idpRevoke = (await idp.hasToken(accountId)) ? 'pending' : 'none';
            return db.tx(async (tx) => {
              if (!(await codes.consume(accountId, codeHash, tx))) return undefined;
              await markAccountDeleted(tx, accountId, {
                now,
                purgeAt: now + PURGE_AFTER_MS,
                idpRevoke,
              });
              return true;
            });
          },
        });
        if (!checked.ok) {
          const until = checked.locked !== null ? checked.locked : checked.wrong.lockedUntil;
          if (until !== null && until > now) throw locked(until, now);
          throw problem('verification_code_invalid', {
            detail:
              'The deletion code is wrong or expired. Ask for a new one with POST /me/deletion-code.',
            field: 'code',
          });
        }
        log.info({ account: accountId }, 'account deleted; purge in 30 days');
        await stopCalls(accountId);
        if ((await findAccountDeletion(db, accountId))?.idpRevoke === 'pending')
          await revoke(accountId);
        armPurge(accountId, now + PURGE_AFTER_MS);
        return { deletedAt: now };
      });
    },

    async resume() {
      for (const d of await openAccountDeletions(db)) {
        if (!d.callsStopped) await stopCalls(d.accountId);
        if (d.idpRevoke === 'pending' || d.idpRevoke === 'failed') await revoke(d.accountId);
        armPurge(d.accountId, d.purgeAt);
      }
    },

    async purgeIfDue(accountId) {
      const d = await findAccountDeletion(db, accountId);
      if (!d || d.purgedAt !== null) return;
      if (clock.now() < d.purgeAt) {
        armPurge(accountId, d.purgeAt);
        return;
      }
      if (!d.callsStopped) await stopCalls(accountId);
      if (d.idpRevoke === 'pending' || d.idpRevoke === 'failed') await revoke(accountId);
      await purgeAccount(db, accountId, clock.now());
      log.info({ account: accountId }, 'deleted account purged');
    },
  };
  return service;
}
