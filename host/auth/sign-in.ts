/**
 * Sign-in by emailed code (contract §2): start, verify, and the sessions it creates.
 *
 * - start: a fresh 6-digit code (10 minutes) replaces any earlier one and is emailed through
 *   the Messaging port. The answer never says whether an account exists. At most
 *   {@link CODE_SENDS_PER_HOUR} emails per address per hour (429 rate_limited).
 * - verify: wrong or expired code → 400 verification_code_invalid; the fifth wrong code for
 *   the address → 429 verification_locked for 15 minutes, during which every code (and every
 *   new start) is refused so. The wrong-code count belongs to the address, so asking for a
 *   new code does not reset it; it resets when a lock ends or a sign-in succeeds.
 * - A code is single use: consuming it is a conditional DELETE, so two concurrent verifies
 *   with the right code create one session, not two.
 * - The first verified sign-in creates the account and starts its trial.
 * - Per client address (the HTTP layer's `ctx.state.client`, an IPv6 one by its prefix): at most
 *   {@link CODE_SENDS_PER_CLIENT_PER_HOUR} code emails an hour whatever the addresses (no
 *   mail bombing across addresses) and {@link CODE_CHECKS_PER_CLIENT_PER_MINUTE} checks a
 *   minute by default (WAKEUP_SIGN_IN_CODES_PER_CLIENT, WAKEUP_SIGN_IN_CHECKS_PER_CLIENT); the slow hashes (scrypt) of starts and checks share a gate
 *   ({@link createWorkGate}): {@link CODE_HASH_CONCURRENCY} at once, round-robin across
 *   client addresses, {@link CODE_HASH_PER_CLIENT} per address, so one client's flood of
 *   wrong checks cannot starve another's sign-in.
 * - Rows: a challenge row holding no usable code and no lock is removed
 *   {@link SIGN_IN_ROW_IDLE_MS} after its last change (a batch on every start and verify),
 *   so guesses at addresses that never asked for a code leave nothing behind.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { Clock, Ids, Messaging } from '../../engine/index.js';
import type { Logger } from '../logger.js';
import { findAccountByEmail, insertAccount } from '../db/accounts.js';
import type { Account } from '../db/accounts.js';
import { endSession, insertSession } from '../db/sessions.js';
import { challengeStore, pruneIdleChallenges } from '../db/code-challenges.js';
import { problem } from '../errors.js';
import { enforce, RateLimiter } from '../rate-limit/limiter.js';
import {
  CODE_CHECKS_PER_CLIENT_PER_MINUTE,
  CODE_HASH_CONCURRENCY,
  CODE_HASH_PER_CLIENT,
  CODE_LOCK_MS,
  CODE_SENDS_PER_CLIENT_PER_HOUR,
  CODE_SENDS_PER_HOUR,
  CODE_VALID_MINUTES,
  DAY_MS,
  MAX_CODE_FAILURES,
  SIGN_IN_ROW_IDLE_MS,
} from './policy.js';
import { TRIAL_CALLS, TRIAL_DAYS } from '../entitlement/plan.js';
import { createWorkGate } from './work-gate.js';
import type { SharedState } from '../shared-state.js';
import { hashToken, mintCsrfToken, mintToken } from './secrets.js';
import {
  issueCode,
  retryAfterSeconds,
  runningLock,
  verifyCode,
  type CodeRules,
} from '../verification/code.js';

/** Lower-cases and trims an address (the account's identity). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Sign-in operations bound to one app's dependencies. */
export interface SignIn {
  /** `clientAddress`: the requester's address (per-client limits and hashing fairness). */
  start(email: string, clientAddress: string): Promise<{ sent_to: string; valid_minutes: number }>;
  verify(input: {
    email: string;
    code: string;
    client: 'app' | 'web';
    installationId: string | null;
    clientAddress: string;
  }): Promise<SignInResult>;
  /** Ends a session (POST /auth/logout): later use answers 401 session_expired. */
  logout(sessionId: string): Promise<void>;
}

/** What sign-in needs. */
export interface SignInDeps {
  db: Db;
  clock: Clock;
  ids: Ids;
  /** Sends the code e-mails. */
  messaging: Messaging;
  logger: Logger;
  /** Per client address: code emails an hour and code checks a minute (defaults in policy.ts). */
  clientLimits?: { codesPerHour: number; checksPerMinute: number };
  /** Where the rate windows and the check queue live (host/shared-state.ts). */
  shared: SharedState;
}

/** A successful verify: the account and the new session's secrets (shown once). */
export interface SignInResult {
  account: Account;
  created: boolean;
  sessionToken: string;
  /** Web sessions only. */
  csrfToken: string | null;
}

/** The rules of sign-in codes: 10 minutes; the fifth wrong code locks the address for 15 minutes. */
const SIGN_IN_CODES: CodeRules = {
  validMs: CODE_VALID_MINUTES * 60_000,
  maxWrongTries: MAX_CODE_FAILURES,
  lockMs: CODE_LOCK_MS,
};

function locked(until: number, now: number) {
  const seconds = retryAfterSeconds(until, now);
  return problem('verification_locked', {
    detail: `Too many wrong codes for this address. Try again in ${Math.ceil(seconds / 60)} minutes.`,
    headers: { 'Retry-After': String(seconds) },
  });
}

/** Creates the sign-in operations (the send limiter lives as long as the app). */
export function createSignIn(deps: SignInDeps): SignIn {
  const { db, clock, ids, messaging, logger } = deps;
  const store = deps.shared.rateWindows;
  const sends = new RateLimiter({
    name: 'sign-in.sends',
    limit: CODE_SENDS_PER_HOUR,
    windowSeconds: 3600,
    clock,
    store,
  });
  const perHour = deps.clientLimits?.codesPerHour ?? CODE_SENDS_PER_CLIENT_PER_HOUR;
  const perMinute = deps.clientLimits?.checksPerMinute ?? CODE_CHECKS_PER_CLIENT_PER_MINUTE;
  const sendsPerClient = new RateLimiter({
    name: 'sign-in.sends-per-client',
    limit: perHour,
    windowSeconds: 3600,
    clock,
    store,
  });
  const checksPerClient = new RateLimiter({
    name: 'sign-in.checks-per-client',
    limit: perMinute,
    windowSeconds: 60,
    clock,
    store,
  });
  const checks = deps.shared.queues.queue('sign-in');
  const hashing = createWorkGate({
    concurrency: CODE_HASH_CONCURRENCY,
    perClient: CODE_HASH_PER_CLIENT,
  });
  const codes = challengeStore(db, 'email_sign_in');

  const signIn: SignIn = {
    async start(rawEmail, clientAddress) {
      const email = normalizeEmail(rawEmail);
      const now = clock.now();
      await pruneIdleChallenges(db, now - SIGN_IN_ROW_IDLE_MS, now);
      const lock = runningLock(await codes.find(email), now);
      if (lock !== null) throw locked(lock, now);
      await enforce(
        sendsPerClient,
        clientAddress,
        `At most ${perHour} sign-in codes an hour are sent for one client.`,
      );
      await enforce(
        sends,
        email,
        `At most ${CODE_SENDS_PER_HOUR} sign-in codes an hour are sent to one address.`,
      );
      const issued = await issueCode(SIGN_IN_CODES, now, (work) =>
        hashing.run(clientAddress, work),
      );
      await codes.save(email, issued, now);
      const code = issued.code;
      const sent = await messaging.sendEmail({
        to: email,
        subject: 'Your Wake-Up Call sign-in code',
        body:
          `Your Wake-Up Call sign-in code is ${code}. It is valid for ${CODE_VALID_MINUTES} minutes.\n\n` +
          'If you did not ask for it, you can ignore this email.',
      });
      // A refused send answers the same 202: the answer must not tell whether the address works.
      if (!sent.ok) logger.warn({ code: sent.code }, 'sign-in email not sent');
      return { sent_to: email, valid_minutes: CODE_VALID_MINUTES };
    },

    async verify({ email: rawEmail, code, client, installationId, clientAddress }) {
      const email = normalizeEmail(rawEmail);
      await enforce(
        checksPerClient,
        clientAddress,
        `At most ${perMinute} code checks a minute from one client.`,
      );
      await pruneIdleChallenges(db, clock.now() - SIGN_IN_ROW_IDLE_MS, clock.now());
      // One check per address at a time, so parallel guesses cannot outrun the lock.
      return checks.run(email, () => verifyOne(email, code, client, installationId, clientAddress));
    },

    async logout(sessionId) {
      await endSession(db, sessionId, 'logout', clock.now());
    },
  };
  return signIn;

  async function verifyOne(
    email: string,
    code: string,
    client: 'app' | 'web',
    installationId: string | null,
    clientAddress: string,
  ): Promise<SignInResult> {
    const now = clock.now();
    // Hashed even when there is no code to compare, so the answer takes as long either way.
    const checked = await verifyCode(codes, SIGN_IN_CODES, email, code, now, {
      run: (work) => hashing.run(clientAddress, work),
    });
    if (!checked.ok) {
      const until = checked.locked !== null ? checked.locked : checked.wrong.lockedUntil;
      if (until !== null && until > now) throw locked(until, now);
      throw problem('verification_code_invalid', {
        detail: 'The code is wrong or expired. Ask for a new one if needed.',
        field: 'code',
      });
    }

    const kind = client === 'app' ? 'app_session' : 'web_session';
    const csrfToken = client === 'web' ? mintCsrfToken() : null;
    return await db.tx(async (tx) => {
      let account = await findAccountByEmail(tx, email);
      const created = !account;
      account ??= await insertAccount(tx, {
        id: ids.uuid(),
        email,
        displayName: email.split('@')[0]!.slice(0, 100),
        now,
        trialEndsAt: now + TRIAL_DAYS * DAY_MS,
        trialCallsIncluded: TRIAL_CALLS,
      });
      const minted = mintToken(kind);
      await insertSession(
        tx,
        {
          id: ids.uuid(),
          accountId: account.id,
          kind: client,
          lookup: minted.lookup,
          tokenHash: minted.hash,
          csrfHash: csrfToken === null ? null : hashToken(csrfToken),
          installationId: client === 'app' ? installationId : null,
        },
        now,
      );
      return { account, created, sessionToken: minted.token, csrfToken };
    });
  }
}
