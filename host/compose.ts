/**
 * Builds the process's dependencies from a {@link HostConfig}: database (migrated), clock,
 * ids, messaging, logger and the shutdown hooks. The only wiring file: swap an adapter here.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { DestinationStream } from 'pino';
import type { Ids } from '../engine/index.js';
import { VirtualClock } from '../engine/sim/index.js';
import { createSystemClock } from './adapters/clock/system-clock.js';
import { createOutboxMessaging } from './adapters/messaging/outbox.js';
import type { HostConfig } from './config.js';
import { openDatabase } from './db/open.js';
import type { AppDeps, Lifecycle } from './deps.js';
import { createLogger } from './logger.js';
import { handleInboundText } from './phone/inbound.js';
import { createPhoneRuntime } from './phone/runtime.js';
import { createCallRuntime, stopCallRuntime } from './calls/runtime.js';

/** Dependencies plus the hooks only the server may call. */
export interface Composed {
  deps: AppDeps;
  /** Marks shutdown begun: GET /readyz answers 503, responses say Connection: close. */
  beginShutdown(): void;
  /** Runs the close hooks (newest first), stops the system clock's timers, closes the database. */
  close(): Promise<void>;
  /** Starts the engine runtime (reconciles work a crash left, loads due calls); before listening. */
  start(): Promise<void>;
  /** Sets the site URL once the port is known (when WAKEUP_SITE_URL is not set). */
  setBoundUrl(url: string): void;
}

/** Options for tests and embedders. */
export interface ComposeOptions {
  /** Log destination (tests capture lines). */
  logStream?: DestinationStream;
}

/** Builds everything `createApp` needs. */
export function compose(config: HostConfig, options: ComposeOptions = {}): Composed {
  const logger = createLogger(config, options.logStream);
  const systemClock = createSystemClock({ onError: (err) => logger.error({ err }, 'timer failed') });
  const virtualClock = config.clock === 'virtual' ? new VirtualClock(config.clockStart ?? systemClock.now()) : null;
  const clock = virtualClock ?? systemClock;
  const ids: Ids = { uuid: () => randomUUID() };
  const db = openDatabase(config.dbFile);
  const outbox = createOutboxMessaging({ db, clock, ids, logger, logCodes: config.dev });

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
  const phone = createPhoneRuntime({
    config: config.phone,
    db,
    clock,
    messaging: outbox,
    logger,
    siteUrl: () => boundUrl,
    dev: config.dev,
  });
  phone.setInboundHandler((text) => handleInboundText({ db, clock, logger, phone }, text).then(() => undefined));
  const runtime = createCallRuntime({
    db,
    clock,
    ids,
    telephony: phone.telephony,
    messaging: phone.messaging,
    logger,
    dailyCap: config.dailyCap,
    serviceName: config.phone.serviceName,
    // A virtual clock neither drifts nor sleeps: wake up at most daily when idle, so that
    // POST /dev/clock across months or years does not run a timer every minute.
    ...(virtualClock ? { options: { horizonMs: 86_400_000, maxTimerStepMs: 86_400_000 } } : {}),
  });
  // Registered first, so it runs last of the close hooks, just before the database closes.
  lifecycle.onClose(() =>
    stopCallRuntime(
      runtime,
      config.shutdownGraceSeconds * 1000,
      (ms) => new Promise((resolve) => systemClock.setTimer(systemClock.now() + ms, resolve)),
    ),
  );

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

  return {
    deps,
    start: () => runtime.start(),
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
      if (db.open) db.close();
    },
  };
}
