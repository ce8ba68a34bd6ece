/**
 * The adapters' wiring, the first step of the composition root (host/compose.ts): from a
 * {@link HostConfig}, the logger, the clocks, ids, the database (migrated), the shared state,
 * the messaging (SMTP or the outbox), the phone side (host/wiring/phone.ts) and the metrics
 * and provider health that watch them. Building writes to the database only through the
 * migrations.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { DestinationStream } from 'pino';
import type { Clock, Ids, Messaging } from '../../engine/index.js';
import { VirtualClock } from '../../engine/sim/index.js';
import { createSystemClock, realTime, type SystemClock } from '../adapters/clock/system-clock.js';
import { createSmtpEmail } from '../adapters/email/smtp.js';
import { createOutboxMessaging, type OutboxMessaging } from '../adapters/messaging/outbox.js';
import type { HostConfig } from '../config.js';
import { openDatabase } from '../db/open.js';
import type { Db } from '../db/sql.js';
import { createLogger, type Logger } from '../logger.js';
import { createMetrics, type Metrics } from '../ops/metrics.js';
import { createProviderHealth, type ProviderHealth } from '../ops/provider-health.js';
import { describeProviders } from '../ops/providers.js';
import type { PhoneRuntime } from '../phone/runtime.js';
import type { InboundText } from '../ports/telephony.js';
import { createSharedState, type SharedState } from '../shared-state.js';
import { createPhoneRuntime } from '../wiring/phone.js';

/** The built adapters. */
export interface Adapters {
  readonly config: HostConfig;
  readonly logger: Logger;
  /** Real time: the service clock unless WAKEUP_CLOCK=virtual; shutdown waits on it. */
  readonly systemClock: SystemClock;
  readonly virtualClock: VirtualClock | null;
  /** The service clock: the only source of "now". */
  readonly clock: Clock;
  readonly ids: Ids;
  readonly db: Db;
  readonly shared: SharedState;
  /** The outbox simulator (texts unless WAKEUP_SMS=twilio; email unless SMTP is set). */
  readonly outbox: OutboxMessaging;
  /** The SMTP sender, when configured. */
  readonly smtp: { close(): void | Promise<void> } | null;
  readonly metrics: Metrics;
  /** Whether email, texts, calls and payments work, as this process sees them (GET /readyz, metrics). */
  readonly providerHealth: ProviderHealth;
  /** The phone side, its messaging counted and watched. */
  readonly phone: PhoneRuntime & { setInboundHandler(fn: (t: InboundText) => Promise<void>): void };
  /** Public origin: WAKEUP_SITE_URL, else the bound address. */
  readonly siteUrl: () => string;
  /** Sets the site URL once the port is known (when WAKEUP_SITE_URL is not set). */
  setBoundUrl(url: string): void;
}

/** Builds the adapters. */
export async function wireAdapters(
  config: HostConfig,
  logStream?: DestinationStream,
): Promise<Adapters> {
  const logger = createLogger(config, logStream);
  const systemClock = createSystemClock({
    onError: (err: unknown) => logger.error({ err }, 'timer failed'),
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

  let boundUrl = config.siteUrl ?? `http://${config.host}:${config.port}`;
  const metrics = createMetrics();
  const providerHealth = createProviderHealth(
    Object.fromEntries(describeProviders(config).map((p) => [p.port, p.provider])),
  );
  metrics.watchProviders(providerHealth);
  const built = createPhoneRuntime({
    config: config.phone,
    db,
    shared,
    clock,
    messaging: hostMessaging,
    logger,
    siteUrl: () => boundUrl,
    dev: config.dev,
  });
  const phone = watched(built, metrics, providerHealth);

  return {
    config,
    logger,
    systemClock,
    virtualClock,
    clock,
    ids,
    db,
    shared,
    outbox,
    smtp,
    metrics,
    providerHealth,
    phone,
    siteUrl: () => boundUrl,
    setBoundUrl(url) {
      if (config.siteUrl === null) boundUrl = url;
    },
  };
}

/**
 * The phone side with every text and email counted (GET /metrics), whichever adapter sends it,
 * and every send and call placement reported to the providers' health.
 */
function watched(
  built: Adapters['phone'],
  metrics: Metrics,
  providerHealth: ProviderHealth,
): Adapters['phone'] {
  return {
    ...built,
    messaging: providerHealth.watchMessaging(metrics.countMessages(built.messaging)),
    rawTexts: providerHealth.watchMessaging(metrics.countMessages(built.rawTexts)),
    telephony: providerHealth.watchTelephony(built.telephony),
  };
}
