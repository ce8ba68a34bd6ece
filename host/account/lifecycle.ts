/**
 * The account lifecycle service: onboarding flags and skips, deletion by emailed code with
 * the 30-day purge, the data export, and the identity-provider link. Built once per app
 * (its rate limiters and purge timers live as long as it); call `start()` once.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { Clock, Messaging } from '../../engine/index.js';
import { findAccountById, updateOnboardingState } from '../db/accounts.js';
import { problem } from '../errors.js';
import type { Logger } from '../logger.js';
import { createDeletionService, type AccountStops, type DeletionService } from './deletion.js';
import { createExportService, type ExportService, type ExportServiceDeps } from './export.js';
import type { IdentityProvider } from '../ports/identity.js';
import { createIdpService, type IdpService } from './idp.js';
import { withFlag, withSkipped, type OnboardingFlag, type SkippableSlug } from './onboarding.js';
import type { Account } from '../db/accounts.js';
import type { SharedState } from '../shared-state.js';

/** What {@link createAccountLifecycleService} needs. */
export interface AccountLifecycleDeps {
  db: Db;
  clock: Clock;
  messaging: Messaging;
  logger: Logger;
  /** What a deletion stops of the account's schedules and calls (host/account/deletion.ts). */
  stop: AccountStops;
  /** The account's schedules as GET /me/export shows them (host/account/export.ts). */
  scheduleRows: ExportServiceDeps['scheduleRows'];
  /** The identity provider (built by the root from WAKEUP_IDP_*), or null when none is configured. */
  idp: { provider: IdentityProvider; tokenKey: Buffer } | null;
  /** Where the deletion code's rate windows and check queue live (host/shared-state.ts). */
  shared: SharedState;
}

/** The account lifecycle operations. */
export interface AccountLifecycleService {
  /** POST /me/onboarding: sets a self-reported flag; returns the account as stored. */
  setOnboardingFlag(accountId: string, flag: OnboardingFlag, done: boolean): Promise<Account>;
  /** POST /me/onboarding/skip: remembers the skip; returns the account as stored. */
  skipOnboardingStep(accountId: string, slug: SkippableSlug): Promise<Account>;
  readonly deletion: DeletionService;
  readonly export: ExportService;
  readonly idp: IdpService;
  /** Resumes unfinished deletions and arms the purge timers. */
  start(): Promise<void>;
}

/** Creates the service. */
export function createAccountLifecycleService(deps: AccountLifecycleDeps): AccountLifecycleService {
  const { db, clock } = deps;
  const idp = createIdpService({
    db,
    clock,
    logger: deps.logger,
    provider: deps.idp?.provider ?? null,
    tokenKey: deps.idp?.tokenKey ?? null,
  });
  const deletion = createDeletionService({
    db,
    clock,
    messaging: deps.messaging,
    logger: deps.logger,
    stop: deps.stop,
    idp,
    shared: deps.shared,
  });
  const live = async (tx: Db, accountId: string): Promise<Account> => {
    const a = await findAccountById(tx, accountId);
    if (!a) throw problem('unauthenticated', { detail: 'The account no longer exists.' });
    return a;
  };
  return {
    async setOnboardingFlag(accountId, flag, done) {
      return await db.tx(async (tx) => {
        const a = await live(tx, accountId);
        return (await updateOnboardingState(
          tx,
          accountId,
          withFlag(a.onboardingState, flag, done),
          clock.now(),
        ))!;
      });
    },
    async skipOnboardingStep(accountId, slug) {
      return await db.tx(async (tx) => {
        const a = await live(tx, accountId);
        return (await updateOnboardingState(
          tx,
          accountId,
          withSkipped(a.onboardingState, slug),
          clock.now(),
        ))!;
      });
    },
    deletion,
    export: createExportService({ db, clock, scheduleRows: deps.scheduleRows }),
    idp,
    start: () => deletion.resume(),
  };
}
