/**
 * THE composition root: from a {@link HostConfig} it builds every adapter (database,
 * migrated; clock; ids; messaging; telephony; payments; identity provider), the engine
 * runtime and its listeners (the schedules' next-occurrence chain), and the feature services
 * that `createApp(services)` mounts. The only wiring: swap an adapter here, or in host/wiring/
 * (the phone side, the engine runtime, the payment providers), which only this file uses.
 * Nothing else in host/ creates an adapter or subscribes to the runtime: a feature receives
 * ports (the engine's, host/ports/) and functions (docs/decisions/0022-host-layering.md). Building writes to the database only through the
 * migrations; `start()` (before listening) starts the runtime (its recovery continues in the background).
 *
 * How a new feature adds its service (account, devices, billing, demo, ...):
 * 1. Write `host/<feature>/service.ts`: an interface `<Feature>Service` whose methods take
 *    plain values (account id, validated body) and return the wire shapes or throw AppError,
 *    and `create<Feature>Service(deps)` taking only what it uses (`{ db, clock, ids, ... }`).
 *    It never imports `host/http/` (the architecture check refuses it). Methods may return
 *    promises.
 * 2. Add one field to `AppServices` in `host/services.ts`: `readonly <feature>: <Feature>Service;`.
 * 3. Build it below in {@link compose}, in the `services` object: one line,
 *    `<feature>: create<Feature>Service({ db, clock, ... })`. Runtime listeners the feature needs
 *    go in the "Engine listeners" block; shutdown work goes through `lifecycle.onClose`.
 * 4. Route module `host/http/routes/<feature>.ts`: `register(routes, services)` calls
 *    `services.<feature>.*`, and one line in `http/routes/index.ts` mounts it.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { DestinationStream } from 'pino';
import type { Ids, Messaging } from '../engine/index.js';
import { VirtualClock } from '../engine/sim/index.js';
import { createSystemClock, realTime } from './adapters/clock/system-clock.js';
import { createOutboxMessaging } from './adapters/messaging/outbox.js';
import { createSmtpEmail } from './adapters/email/smtp.js';
import { createOAuthIdentityProvider } from './adapters/idp/oauth-idp.js';
import { createMetrics } from './ops/metrics.js';
import type { HostConfig } from './config.js';
import { openDatabase } from './db/open.js';
import { isPostgresUrl } from './db/sql.js';
import type { AppDeps, Lifecycle } from './deps.js';
import { createLogger } from './logger.js';
import { handleInboundText } from './phone/inbound.js';
import { createPhoneRuntime } from './wiring/phone.js';
import { createPhoneService } from './phone/service.js';
import { createCallRuntime, stopCallRuntime } from './wiring/calls.js';
import { createCallService } from './calls/service.js';
import { createBillingService } from './billing/service.js';
import { settleClock } from './calls/settle.js';
import { createAccountLifecycleService } from './account/lifecycle.js';
import { createAccountService } from './account/service.js';
import { createDemoService } from './demo/service.js';
import { createDevicesService } from './devices/service.js';
import { createApiKeyService } from './auth/api-keys.js';
import { createCredentials } from './auth/credentials.js';
import { createSignIn } from './auth/sign-in.js';
import { createSharedState } from './shared-state.js';
import { pingDatabase } from './db/open.js';
import { createScheduleService } from './schedules/service.js';
import { createContactsService } from './contacts/service.js';
import { createContactTeller } from './contacts/tell.js';
import { onContactKeyword } from './contacts/replies.js';
import { findAccountById } from './db/accounts.js';
import { currentPlan } from './entitlement/usage.js';
import { stopAccountSeries } from './schedules/stop.js';
import type { AppServices } from './services.js';
import { createProviderHealth } from './ops/provider-health.js';
import { describeProviders } from './ops/providers.js';
import { createOpsService } from './ops/service.js';
import { seedMorning } from './ops/seed-morning.js';
import { ProviderError } from './ports/payments.js';
import { createPayments } from './wiring/payments.js';
import { nudgeWebhookWorkers } from './db/webhook-outbox.js';
import { outcomeEventWrites } from './webhooks/engine-outbox.js';
import { createWebhookService } from './webhooks/service.js';
import { systemResolver } from './webhooks/target.js';
import { createDeliveryWorker } from './webhooks/worker.js';
import { createSecretBox, resolveSecretsKey } from './webhooks/secret-box.js';

/** Dependencies plus the hooks only the server may call. */
export interface Composed {
  /** What the routes get. */
  services: AppServices;
  /** The adapters the services were made from (tests look inside). */
  deps: AppDeps;
  /** Marks shutdown begun: GET /readyz answers 503, responses say Connection: close. */
  beginShutdown(): void;
  /** Runs the close hooks (newest first), stops the system clock's timers, closes the database. */
  close(): Promise<void>;
  /**
   * Before listening: starts the engine runtime (it takes provider events at once; the
   * reconciliation of work a crash left and the first load of due calls run in the background).
   */
  start(): Promise<void>;
  /** Sets the site URL once the port is known (when WAKEUP_SITE_URL is not set). */
  setBoundUrl(url: string): void;
}

/** Options for tests and embedders. */
export interface ComposeOptions {
  /** Log destination (tests capture lines). */
  logStream?: DestinationStream;
}

/** Leased claims under a virtual clock (PostgreSQL, dev mode): one claim an hour of virtual time. */
const VIRTUAL_CLOCK_LEASE = (config: HostConfig) => ({
  ttlMs: Math.max(config.leaseSeconds * 1000, 7_200_000),
  pollMs: 3_600_000,
});

/** Builds every adapter, the runtime and the services (see the module header). */
export async function compose(config: HostConfig, options: ComposeOptions = {}): Promise<Composed> {
  const logger = createLogger(config, options.logStream);
  const systemClock = createSystemClock({
    onError: (err) => logger.error({ err }, 'timer failed'),
  });
  const virtualClock =
    config.clock === 'virtual' ? new VirtualClock(config.clockStart ?? systemClock.now()) : null;
  const clock = virtualClock ?? systemClock;
  const ids: Ids = { uuid: () => randomUUID() };
  // WAKEUP_DB: a SQLite file or a postgres:// URL (host/db/open.ts), migrated here.
  const db = await openDatabase(config.dbFile);
  // Rate windows, code-check queues, idempotency claims: memory on SQLite, the database on PostgreSQL.
  const shared = createSharedState(db);
  // A virtual clock stands still between moves: rate windows count real time too, so that
  // Retry-After is true (host/rate-limit/real-time.ts).
  if (virtualClock) shared.rateWindows.countRealTime(realTime);
  const outbox = createOutboxMessaging({ db, clock, ids, logger, logCodes: config.dev });
  // Email: SMTP when configured (required in production), else the outbox. Texts: the outbox
  // here; the phone runtime swaps in the Twilio-compatible sender when WAKEUP_SMS=twilio.
  const smtp = config.email.smtp ? createSmtpEmail({ config: config.email.smtp, logger }) : null;
  const hostMessaging: Messaging = smtp
    ? { sendText: (m) => outbox.sendText(m), sendEmail: (m) => smtp.sendEmail(m) }
    : outbox;

  const hooks: Array<() => void | Promise<void>> = [];
  let closing = false;
  const lifecycle: Lifecycle = {
    onClose(fn) {
      hooks.push(fn);
    },
    get closing() {
      return closing;
    },
  };
  let boundUrl = config.siteUrl ?? `http://${config.host}:${config.port}`;
  const metrics = createMetrics();
  // Whether email, texts, calls and payments work, as this process sees them (GET /readyz, metrics).
  const providerHealth = createProviderHealth(
    Object.fromEntries(describeProviders(config).map((p) => [p.port, p.provider])),
  );
  metrics.watchProviders(providerHealth);
  const builtPhone = createPhoneRuntime({
    config: config.phone,
    db,
    shared,
    clock,
    messaging: hostMessaging,
    logger,
    siteUrl: () => boundUrl,
    dev: config.dev,
  });
  // Every text and email counted (GET /metrics), whichever adapter sends it, and every send and
  // call placement reported to the providers' health.
  const phone: typeof builtPhone = {
    ...builtPhone,
    messaging: providerHealth.watchMessaging(metrics.countMessages(builtPhone.messaging)),
    rawTexts: providerHealth.watchMessaging(metrics.countMessages(builtPhone.rawTexts)),
    telephony: providerHealth.watchTelephony(builtPhone.telephony),
  };
  // Inbound texts: STOP, START, HELP for the number; then the contacts of that number (STOP ends them, YES agrees).
  const contactWords = () => ({ serviceName: config.phone.serviceName });
  // The number's block is applied first; a failure here is logged, never the text's answer
  // (a stopped contact's number is blocked anyway, so the guard refuses every text to it).
  const onKeyword = (
    text: { from: string; body: string },
    intent: Parameters<typeof onContactKeyword>[2],
  ) =>
    onContactKeyword(
      { db, clock, messaging: phone.messaging, logger, text: contactWords },
      text,
      intent,
    ).catch((err: unknown) => logger.error({ err, intent }, 'inbound text: contacts not updated'));
  phone.setInboundHandler((text) =>
    handleInboundText({ db, clock, logger, phone, onKeyword }, text).then(() => undefined),
  );
  const runtime = createCallRuntime({
    db,
    clock,
    ids,
    telephony: phone.telephony,
    messaging: phone.messaging,
    logger,
    dailyCap: config.dailyCap,
    serviceName: config.phone.serviceName,
    // An outcome's webhook events are written in the same transaction as the outcome (docs/decisions/0023).
    unitWrites: outcomeEventWrites,
    unitWritten: nudgeWebhookWorkers,
    options: {
      maxInFlight: config.callsInFlight,
      // The provider's rate: due calls in due order at exactly that rate, none before its instant.
      ...(config.callsPerSecond !== null
        ? { pacing: { callsPerSecond: config.callsPerSecond, maxLeadMs: 0 } }
        : {}),
      // A virtual clock neither drifts nor sleeps: wake up at most daily when idle, so that
      // POST /dev/clock across months or years does not run a timer every minute.
      ...(virtualClock ? { horizonMs: 86_400_000, maxTimerStepMs: 86_400_000 } : {}),
      // Several hosts on one PostgreSQL share due work by leased claims (docs/decisions/0012).
      // Units there wait on round trips, which the unit sizer would read as a blocked loop at
      // its 10 ms default slice and keep at 16 rows; 1 s lets them grow (the loop stays free).
      // A virtual clock is this process's own time (no other host shares it): claim hourly, not
      // every WAKEUP_LEASE_SECONDS / 3, or POST /dev/clock across a month runs 260,000 claims.
      ...(db.dialect === 'postgres'
        ? {
            lease: virtualClock
              ? VIRTUAL_CLOCK_LEASE(config)
              : { ttlMs: config.leaseSeconds * 1000 },
            sliceMs: 1000,
          }
        : {}),
    },
  });
  // Contacts told when a call ends unanswered (host/contacts/tell.ts): the outcome comes from
  // the runtime's event, after its commit; what a stop left untold is caught up at start.
  const teller = createContactTeller({
    db,
    clock,
    messaging: phone.messaging,
    logger,
    config: config.contacts,
    text: contactWords,
    staleAfterMs: db.dialect === 'postgres' ? 120_000 : 0,
  });
  runtime.on('occurrence:status', ({ occurrence }) => teller.onOccurrenceStatus(occurrence));
  if (smtp) lifecycle.onClose(() => smtp.close());
  // Registered early, so it runs among the last of the close hooks: no code check queues by then.
  lifecycle.onClose(() => shared.close());
  // Runs after the runtime stopped (hooks run newest first): the texts its last events started finish.
  lifecycle.onClose(() => teller.stop());
  // Registered early, so it runs among the last of the close hooks, just before the database closes.
  lifecycle.onClose(() =>
    stopCallRuntime(
      runtime,
      config.shutdownGraceSeconds * 1000,
      (ms) => new Promise((resolve) => systemClock.setTimer(systemClock.now() + ms, resolve)),
    ),
  );

  // Outbound webhooks: signing secrets sealed with the server's key (host/webhooks/secret-box.ts);
  // the delivery worker sends what the outbox holds (host/webhooks/worker.ts).
  const webhookSecrets = createSecretBox(
    resolveSecretsKey({
      configured: config.webhooks.secretsKey,
      fallback: config.idp?.tokenKey ?? null,
      sqliteFile: isPostgresUrl(config.dbFile) ? null : config.dbFile,
    }),
  );
  if (!webhookSecrets.sealing) {
    logger.warn(
      'webhook signing secrets are stored readable: set WAKEUP_SECRETS_KEY (the same on every host) to seal them',
    );
  }
  const webhookWorker = createDeliveryWorker({
    db,
    clock,
    wallClock: systemClock,
    ids,
    logger,
    messaging: phone.messaging,
    config: config.webhooks,
    resolve: systemResolver,
    secrets: webhookSecrets,
    serviceName: config.phone.serviceName,
    siteUrl: () => boundUrl,
  });
  // Registered after the runtime's: runs before it (newest first), while the database is open.
  lifecycle.onClose(() => webhookWorker.stop());

  const deps: AppDeps = {
    config,
    db,
    clock,
    virtualClock,
    ids,
    // Texts to blocked numbers are refused here, whatever sends them.
    messaging: phone.messaging,
    outbox,
    logger,
    phone,
    runtime,
    siteUrl: () => boundUrl,
    lifecycle,
  };

  const payments = createPayments({
    db,
    clock,
    logger,
    config: config.billing,
    siteUrl: () => boundUrl,
  });
  const billing = createBillingService({
    db,
    clock,
    ids,
    logger,
    config: config.billing,
    siteUrl: () => boundUrl,
    // The host reports the payment provider's failures to the operator (host/ops/provider-health.ts).
    provider:
      payments.provider &&
      providerHealth.watchCalls(
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
    secrets: webhookSecrets,
  });
  // Services: what route modules receive (host/services.ts). One line per feature.
  const services: AppServices = {
    config,
    clock,
    logger,
    siteUrl: () => boundUrl,
    lifecycle,
    databaseReady: () => pingDatabase(db),
    providers: providerHealth,
    metrics,
    credentials: createCredentials({ db, clock }),
    shared,
    idempotency: shared.idempotency,
    signIn: createSignIn({
      db,
      clock,
      ids,
      messaging: phone.messaging,
      logger,
      clientLimits: {
        codesPerHour: config.signInCodesPerClient,
        checksPerMinute: config.signInChecksPerClient,
      },
      shared,
    }),
    account: createAccountService({
      db,
      clock,
      meBilling: async (account, now, hasPlan) => await billing.meBilling(account, now, hasPlan),
    }),
    accountLifecycle: createAccountLifecycleService({
      db,
      clock,
      messaging: phone.messaging,
      logger,
      // What a deletion stops: the schedules (host/schedules/stop.ts) and their calls (the runtime).
      stop: {
        stopSeries: (accountId) => stopAccountSeries({ db, runtime }, accountId),
        cancelOccurrence: async (occurrenceId) => {
          await runtime.cancel(occurrenceId);
        },
      },
      idp: config.idp
        ? {
            provider: createOAuthIdentityProvider({ config: config.idp, clock }),
            tokenKey: config.idp.tokenKey,
          }
        : null,
      shared,
    }),
    apiKeys: createApiKeyService({ db, clock, ids }),
    phone: createPhoneService({ db, clock, ids, logger, phone, onKeyword }),
    contacts: createContactsService({
      db,
      clock,
      ids,
      logger,
      messaging: phone.messaging,
      text: contactWords,
      config: config.contacts,
      limits: phone.limits,
      checks: shared.queues.queue('contact-agree'),
      async entitled(accountId) {
        const account = await findAccountById(db, accountId);
        return account !== undefined && (await currentPlan(db, account, clock.now())).entitled;
      },
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
      providers: () => providerHealth.snapshot(),
    }),
    demo: createDemoService({
      db,
      clock,
      ids,
      messaging: phone.messaging,
      runtime,
      logger,
      config: config.demo,
      text: () => phone.text(),
      shared,
    }),
    dev: {
      outbox,
      payments: payments.simulator,
      virtualClock,
      settleClock(target) {
        if (!virtualClock) throw new Error('settleClock: the service clock is not virtual');
        // Idle means the runtime's work and the texts to contacts its outcomes started.
        const idle = async () => {
          await runtime.idle();
          await teller.idle();
        };
        return settleClock(virtualClock, { idle }, target);
      },
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

  // Engine listeners. Metrics count calls, outcomes and lateness from the runtime's events.
  metrics.watchRuntime(runtime);
  // A series' next occurrence needs no listener here: the engine makes it in the unit of work
  // that ends the one before (engine/runtime/series-steps.ts), and its start-up reconciliation
  // repairs a series left without one. start() below wires the rest, so building writes nothing.

  return {
    services,
    deps,
    async start() {
      // Takes provider events and commands at once; reconciles what a crash left and loads
      // the due calls in the background, so the server listens at once (decisions/0014).
      await runtime.start({ background: true });
      // Calls whose last webhooks came while no host answered end as the provider says (in the background).
      void phone.resumeCalls();
      // Texts to contacts a stop left untold or unsent (in the background, as the recovery).
      void teller.catchUp();
      // Deletions a crash interrupted finish now; the purge timers are armed.
      await services.accountLifecycle.start();
      // Sends what the outbox holds (what a crash left included), in the background.
      webhookWorker.start();
    },
    setBoundUrl(url) {
      if (config.siteUrl === null) boundUrl = url;
    },
    beginShutdown() {
      closing = true;
    },
    async close() {
      closing = true;
      for (const fn of hooks.reverse()) {
        try {
          await fn();
        } catch (err) {
          logger.error({ err }, 'shutdown hook failed');
        }
      }
      systemClock.stop();
      await db.close();
    },
  };
}
