/**
 * THE composition root: from a {@link HostConfig} it builds the host in three steps and one
 * lifecycle, each in a file of host/compose/:
 * 1. adapters.ts: the logger, the clocks, ids, the database (migrated), the shared state, the
 *    messaging, the phone side, the metrics and the providers' health;
 * 2. runtime.ts: the engine runtime and what runs on its events (the contacts' teller, the
 *    metrics, the inbound texts, the webhook delivery worker);
 * 3. services.ts: the feature services that `createApp(services)` mounts (the recipe for a new
 *    feature is there); features reach each other only through host/use-cases/;
 * 4. lifecycle.ts, run over the two lists below: what starts, and what stops, in order.
 * Nothing else in host/ creates an adapter or subscribes to the runtime: a feature receives
 * ports (the engine's, host/ports/) and functions (docs/decisions/0022-host-layering.md).
 * Building writes to the database only through the migrations.
 * @module
 */
import type { DestinationStream } from 'pino';
import type { AppDeps } from './deps.js';
import type { HostConfig } from './config.js';
import type { AppServices } from './services.js';
import { wireAdapters } from './compose/adapters.js';
import { createHostLifecycle, type Step } from './compose/lifecycle.js';
import { wireRuntime } from './compose/runtime.js';
import { wireServices } from './compose/services.js';
import { stopCallRuntime } from './wiring/calls.js';

/** Dependencies plus the hooks only the server may call. */
export interface Composed {
  /** What the routes get. */
  services: AppServices;
  /** The adapters the services were made from (tests look inside). */
  deps: AppDeps;
  /** Marks shutdown begun: GET /readyz answers 503, responses say Connection: close. */
  beginShutdown(): void;
  /** Runs the `onClose` hooks (newest first), then the stop list (see {@link compose}). */
  close(): Promise<void>;
  /**
   * Before listening: runs the start list (the engine runtime takes provider events at once;
   * the reconciliation of work a crash left and the first load of due calls run in the background).
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

/** Builds every adapter, the runtime and the services (see the module header). */
export async function compose(config: HostConfig, options: ComposeOptions = {}): Promise<Composed> {
  const a = await wireAdapters(config, options.logStream);
  const r = wireRuntime(a);
  const { runtime, teller, webhookWorker } = r;
  const { systemClock, phone, shared, smtp, db } = a;

  // What starts, in order, before the server listens.
  const start: Step[] = [
    // Takes provider events and commands at once; reconciles what a crash left and loads the
    // due calls in the background, so the server listens at once (decisions/0014).
    { name: 'runtime', run: () => runtime.start({ background: true }) },
    // Calls whose last webhooks came while no host answered end as the provider says (in the background).
    { name: 'provider calls read back', run: () => void phone.resumeCalls() },
    // Texts to contacts a stop left untold or unsent (in the background, as the recovery).
    { name: 'contacts catch-up', run: () => void teller.catchUp() },
    // Deletions a crash interrupted finish now; the purge timers are armed.
    { name: 'account deletions', run: () => services.accountLifecycle.start() },
    // Sends what the outbox holds (what a crash left included), in the background.
    { name: 'webhook delivery', run: () => webhookWorker.start() },
  ];
  // What stops, in order, after the server stopped taking requests (and after the hooks
  // registered through `lifecycle.onClose`): what writes first, the database last.
  const stop: Step[] = [
    { name: 'webhook delivery', run: () => webhookWorker.stop() },
    // Waits at most the grace (on real time) for calls being handed to the provider.
    {
      name: 'runtime',
      run: () =>
        stopCallRuntime(
          runtime,
          config.shutdownGraceSeconds * 1000,
          (ms) => new Promise((resolve) => systemClock.setTimer(systemClock.now() + ms, resolve)),
        ),
    },
    // The texts the runtime's last events started finish.
    { name: 'contacts teller', run: () => teller.stop() },
    // No code check queues by then.
    { name: 'shared state', run: () => shared.close() },
    ...(smtp ? [{ name: 'smtp', run: () => smtp.close() }] : []),
    { name: 'real-time timers', run: () => systemClock.stop(), fatal: true },
    { name: 'database', run: () => db.close(), fatal: true },
  ];
  const life = createHostLifecycle(a.logger, { start, stop });
  const services = wireServices(a, r, life.lifecycle);

  const deps: AppDeps = {
    config,
    db,
    clock: a.clock,
    virtualClock: a.virtualClock,
    ids: a.ids,
    // Texts to blocked numbers are refused here, whatever sends them.
    messaging: phone.messaging,
    outbox: a.outbox,
    logger: a.logger,
    phone,
    runtime,
    siteUrl: a.siteUrl,
    lifecycle: life.lifecycle,
  };

  return {
    services,
    deps,
    start: () => life.start(),
    setBoundUrl: (url) => a.setBoundUrl(url),
    beginShutdown: () => life.beginShutdown(),
    close: () => life.close(),
  };
}
