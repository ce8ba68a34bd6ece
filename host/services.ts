/**
 * What route modules receive: the feature services and the few platform pieces the HTTP
 * layer needs (config, clock, logger, public URL, shutdown state). Built once per process by
 * `host/compose.ts` and passed to `createApp(services)`.
 *
 * No database handle here: a route that needs data asks a service, so that the move of the
 * data layer to an asynchronous query layer (SQLite and PostgreSQL) changes the db modules
 * and the services alone. A new feature adds one field (its service interface) here and
 * builds it in `compose/services.ts` (see the recipe there).
 * @module
 */
import type { ProviderHealth } from './ops/provider-health.js';
import type { Clock, EpochMs } from '../engine/index.js';
import type { VirtualClock } from '../engine/sim/index.js';
import type { AccountLifecycleService } from './account/lifecycle.js';
import type { AccountService } from './account/service.js';
import type { OutboxMessaging } from './adapters/messaging/outbox.js';
import type { SimulatedPayments } from './adapters/payments/simulator.js';
import type { ApiKeyService } from './auth/api-keys.js';
import type { Credentials } from './auth/credentials.js';
import type { SignIn } from './auth/sign-in.js';
import type { BillingService } from './billing/service.js';
import type { CallService } from './calls/service.js';
import type { ContactsService } from './contacts/service.js';
import type { DemoService } from './demo/service.js';
import type { DevicesService } from './devices/service.js';
import type { HostConfig } from './config.js';
import type { IdempotencyStore } from './db/idempotency.js';
import type { Logger } from './logger.js';
import type { Metrics } from './ops/metrics.js';
import type { OpsService } from './ops/service.js';
import type { PhoneService } from './phone/service.js';
import type { ScheduleService } from './schedules/service.js';
import type { SharedState } from './shared-state.js';
import type { WebhookService } from './webhooks/service.js';

/**
 * Shutdown as features and the server see it. Hooks registered here run in reverse order of
 * registration after the server stops taking requests, before the root's own stop list
 * (host/compose.ts).
 */
export interface Lifecycle {
  /** Registers work to finish (or timers to stop) before the database closes. */
  onClose(fn: () => void | Promise<void>): void;
  /** True once shutdown began (GET /readyz answers 503). */
  readonly closing: boolean;
}

/** The /dev endpoints' tools (WAKEUP_DEV=1). */
export interface DevService {
  /** The outbox simulator, when it is the messaging adapter (GET /dev/outbox reads it). */
  readonly outbox: OutboxMessaging | null;
  /** The payment simulator, when it is the payment provider (its hosted pages, POST /dev/checkout/{session_id}/complete). */
  readonly payments: SimulatedPayments | null;
  /** The service clock when WAKEUP_CLOCK=virtual (POST /dev/clock moves it), else null. */
  readonly virtualClock: VirtualClock | null;
  /**
   * Moves the virtual clock to `target` and answers once every timer due by then has run
   * (the calls and texts they start included); the new now. Only with a virtual clock.
   */
  settleClock(target: EpochMs): Promise<EpochMs>;
  /** Seeds `n` sleepers with a daily call each (host/ops/seed-morning.ts); null without the telephony simulator. */
  readonly seedMorning:
    ((n: number) => Promise<{ accounts: number; schedules: number; zones: string[] }>) | null;
}

/** Everything a route module may use. */
export interface AppServices {
  readonly config: HostConfig;
  /** The service clock: the only source of "now". */
  readonly clock: Clock;
  readonly logger: Logger;
  /** Public origin for links (problem `type`, webhook URLs). */
  siteUrl(): string;
  readonly lifecycle: Lifecycle;
  /** Whether the database answers (GET /readyz). */
  databaseReady(): Promise<boolean>;
  /** Whether each provider (email, texts, telephony, payments) works, as this process sees it (GET /readyz). */
  readonly providers: ProviderHealth;
  /** Prometheus metrics (GET /metrics); the HTTP layer records each request in it. */
  readonly metrics: Metrics;

  /** The HTTP pipeline's: credential checks and Idempotency-Key records. */
  readonly credentials: Credentials;
  readonly idempotency: IdempotencyStore;
  /** Rate-limit windows, code-check queues and idempotency claims: per process or shared by hosts. */
  readonly shared: SharedState;

  /** Features. */
  readonly signIn: SignIn;
  readonly account: AccountService;
  /** Onboarding updates, deletion and purge, export, identity-provider link. */
  readonly accountLifecycle: AccountLifecycleService;
  readonly apiKeys: ApiKeyService;
  readonly phone: PhoneService;
  /** Contacts to tell when a call goes unanswered. */
  readonly contacts: ContactsService;
  readonly schedules: ScheduleService;
  readonly calls: CallService;
  /** Plans, usage periods, checkout and portal, payment notifications, in-app sync, web checkout links. */
  readonly billing: BillingService;
  /** Devices, their time-zone reports, the travel context and the move. */
  readonly devices: DevicesService;
  /** The public demo call. */
  readonly demo: DemoService;
  /** Outbound webhook endpoints and their delivery log. */
  readonly webhooks: WebhookService;
  /** The operator's view: figures, actions, audit log (docs/decisions/0027-operator-view.md). */
  readonly ops: OpsService;
  readonly dev: DevService;
}
