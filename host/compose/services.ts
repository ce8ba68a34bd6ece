/**
 * The services' wiring, the third step of the composition root (host/compose.ts): the feature
 * services that `createApp(services)` mounts, one line each, built from the adapters and the
 * runtime. Where one feature needs another's work, it gets a use case (host/use-cases/), never
 * a closure written here.
 *
 * How a new feature adds its service:
 * 1. Write `host/<feature>/service.ts`: an interface `<Feature>Service` whose methods take
 *    plain values (account id, validated body) and return the wire shapes or throw AppError,
 *    and `create<Feature>Service(deps)` taking only what it uses (`{ db, clock, ids, ... }`).
 *    It never imports `host/http/` (the architecture check refuses it).
 * 2. Add one field to `AppServices` in `host/services.ts`: `readonly <feature>: <Feature>Service;`.
 * 3. Build it below, in the `services` object: `<feature>: create<Feature>Service({ db, ... })`.
 *    What it needs of another feature is a use case; what it starts or stops goes in the lists
 *    of host/compose.ts.
 * 4. Route module `host/http/routes/<feature>.ts`: `register(routes, services)` calls
 *    `services.<feature>.*`, and one line in `http/routes/index.ts` mounts it.
 * @module
 */
import { createAccountLifecycleService } from '../account/lifecycle.js';
import { createAccountService } from '../account/service.js';
import { createOAuthIdentityProvider } from '../adapters/idp/oauth-idp.js';
import { createApiKeyService } from '../auth/api-keys.js';
import { createCredentials } from '../auth/credentials.js';
import { createSignIn } from '../auth/sign-in.js';
import { createBillingService } from '../billing/service.js';
import { createCallService } from '../calls/service.js';
import { createContactsService } from '../contacts/service.js';
import { pingDatabase } from '../db/open.js';
import { createDemoService } from '../demo/service.js';
import { createDevicesService } from '../devices/service.js';
import { seedMorning } from '../ops/seed-morning.js';
import { createOpsService } from '../ops/service.js';
import { createPhoneService } from '../phone/service.js';
import { ProviderError } from '../ports/payments.js';
import { createScheduleService } from '../schedules/service.js';
import type { AppServices, Lifecycle } from '../services.js';
import { accountStops, meBilling, scheduleExport, settleDevClock } from '../use-cases/index.js';
import { createWebhookService } from '../webhooks/service.js';
import { createPayments } from '../wiring/payments.js';
import type { Adapters } from './adapters.js';
import type { RuntimeParts } from './runtime.js';

/** Builds the services (writes nothing). */
export function wireServices(a: Adapters, r: RuntimeParts, lifecycle: Lifecycle): AppServices {
  const { config, db, clock, ids, logger, shared, phone, siteUrl } = a;
  const { runtime } = r;
  const messaging = phone.messaging;
  const payments = createPayments({ db, clock, logger, config: config.billing, siteUrl });
  const billing = createBillingService({
    db,
    clock,
    ids,
    logger,
    config: config.billing,
    siteUrl,
    // The host reports the payment provider's failures to the operator (host/ops/provider-health.ts).
    provider:
      payments.provider &&
      a.providerHealth.watchCalls(
        'payments',
        payments.provider,
        (err) => err instanceof ProviderError,
      ),
    inapp: payments.inapp,
  });
  const webhooks = createWebhookService({
    db,
    clock,
    ids,
    config: config.webhooks,
    secrets: r.webhookSecrets,
  });

  const services: AppServices = {
    config,
    clock,
    logger,
    siteUrl,
    lifecycle,
    databaseReady: () => pingDatabase(db),
    providers: a.providerHealth,
    metrics: a.metrics,
    credentials: createCredentials({ db, clock }),
    shared,
    idempotency: shared.idempotency,
    signIn: createSignIn({
      db,
      clock,
      ids,
      messaging,
      logger,
      clientLimits: {
        codesPerHour: config.signInCodesPerClient,
        checksPerMinute: config.signInChecksPerClient,
      },
      shared,
    }),
    account: createAccountService({ db, clock, meBilling: meBilling(billing) }),
    accountLifecycle: createAccountLifecycleService({
      db,
      clock,
      messaging,
      logger,
      stop: accountStops({ db, runtime }),
      scheduleRows: scheduleExport(db),
      idp: config.idp
        ? {
            provider: createOAuthIdentityProvider({ config: config.idp, clock }),
            tokenKey: config.idp.tokenKey,
          }
        : null,
      shared,
    }),
    apiKeys: createApiKeyService({ db, clock, ids }),
    phone: createPhoneService({ db, clock, ids, logger, phone, onKeyword: r.onKeyword }),
    contacts: createContactsService({
      db,
      clock,
      ids,
      logger,
      messaging,
      text: r.contactWords,
      config: config.contacts,
      limits: phone.limits,
      checks: shared.queues.queue('contact-agree'),
    }),
    schedules: createScheduleService({ db, clock, ids, runtime }),
    calls: createCallService({ db, clock, runtime }),
    billing,
    devices: createDevicesService({ db, clock, ids, runtime, logger }),
    webhooks,
    ops: createOpsService({
      db,
      clock,
      ids,
      runtime,
      webhooks,
      config: config.operators,
      callsPerSecond: config.callsPerSecond,
      providers: () => a.providerHealth.snapshot(),
    }),
    demo: createDemoService({
      db,
      clock,
      ids,
      messaging,
      runtime,
      logger,
      config: config.demo,
      text: () => phone.text(),
      shared,
    }),
    dev: {
      outbox: a.outbox,
      payments: payments.simulator,
      virtualClock: a.virtualClock,
      settleClock: settleDevClock({ virtualClock: a.virtualClock, runtime, teller: r.teller }),
      seedMorning: phone.simulator
        ? (n) =>
            seedMorning(
              {
                db,
                clock,
                ids,
                simulator: phone.simulator!,
                createSchedule: (caller, body) => services.schedules.create(caller, body),
              },
              n,
            )
        : null,
    },
  };
  return services;
}
