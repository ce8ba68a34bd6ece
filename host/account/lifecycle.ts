/**
 * The account lifecycle service: onboarding flags and skips, deletion by emailed code with
 * the 30-day purge, the data export, and the identity-provider link. Built once per app
 * (its rate limiters and purge timers live as long as it); call `start()` once.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { Clock, Messaging, Runtime } from '../../engine/index.js';
import { findAccountById, updateOnboardingState } from '../db/accounts.js';
import { problem } from '../errors.js';
import type { Logger } from '../logger.js';
import { createOAuthIdentityProvider } from '../adapters/idp/oauth-idp.js';
import { createDeletionService, type DeletionService } from './deletion.js';
import { createExportService, type ExportService } from './export.js';
import type { IdpConfig } from './config.js';
import { createIdpService, type IdentityProvider, type IdpService } from './idp.js';
import { withFlag, withSkipped, type OnboardingFlag, type SkippableSlug } from './onboarding.js';
import type { Account } from '../db/accounts.js';
import type { SharedState } from '../shared-state.js';

/** What {@link createAccountLifecycleService} needs. */
export interface AccountLifecycleDeps {
  db: Db;
  clock: Clock;
  messaging: Messaging;
  logger: Logger;
  runtime: Runtime;
  /** null: no identity provider configured. */
  idp: IdpConfig | null;
  /** The identity provider adapter (default: the OAuth-style adapter built from `idp`). */
  idpProvider?: IdentityProvider | null;
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
  const provider =
    deps.idpProvider !== undefined ? deps.idpProvider : deps.idp ? createOAuthIdentityProvider({ config: deps.idp, clock }) : null;
  const idp = createIdpService({ db, clock, logger: deps.logger, provider, tokenKey: deps.idp?.tokenKey ?? null });
  const deletion = createDeletionService({
    db,
    clock,
    messaging: deps.messaging,
    logger: deps.logger,
    runtime: deps.runtime,
    idp,
    shared: deps.shared,
  });
  const live = async (accountId: string): Promise<Account> => {
    const a = await findAccountById(db, accountId);
    if (!a) throw problem('unauthenticated', { detail: 'The account no longer exists.' });
    return a;
  };
  return {
    async setOnboardingFlag(accountId, flag, done) {
      return await db.tx(async (tx) => {
        const a = await live(accountId);
        return (await updateOnboardingState(tx, accountId, withFlag(a.onboardingState, flag, done), clock.now()))!;
      });
    },
    async skipOnboardingStep(accountId, slug) {
      return await db.tx(async (tx) => {
        const a = await live(accountId);
        return (await updateOnboardingState(tx, accountId, withSkipped(a.onboardingState, slug), clock.now()))!;
      });
    },
    deletion,
    export: createExportService({ db, clock }),
    idp,
    start: () => deletion.resume(),
  };
}
