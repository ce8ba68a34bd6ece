/**
 * The dependencies every route handler receives, built once per process by
 * `host/compose.ts` and passed to `createApp(deps)`.
 *
 * Later capabilities add what they need here (telephony, the engine runtime, payments...)
 * with one field each, and build it in `compose.ts`.
 * @module
 */
import type { Database } from 'better-sqlite3';
import type { Clock, Ids, Messaging, Runtime } from '../engine/index.js';
import type { VirtualClock } from '../engine/sim/index.js';
import type { HostConfig } from './config.js';
import type { Logger } from './logger.js';
import type { OutboxMessaging } from './adapters/messaging/outbox.js';
import type { PhoneRuntime } from './phone/runtime.js';

/** Shutdown hooks, run in reverse order of registration after the server stops taking requests. */
export interface Lifecycle {
  /** Registers work to finish (or timers to stop) before the database closes. */
  onClose(fn: () => void | Promise<void>): void;
  /** True once shutdown began (GET /readyz answers 503). */
  readonly closing: boolean;
}

/** Everything a handler may use. */
export interface AppDeps {
  readonly config: HostConfig;
  readonly db: Database;
  /** The service clock: the only source of "now". */
  readonly clock: Clock;
  /** The same clock as `clock` when WAKEUP_CLOCK=virtual (POST /dev/clock moves it), else null. */
  readonly virtualClock: VirtualClock | null;
  readonly ids: Ids;
  /** Outbound email and texts (the built-in outbox simulator by default). */
  readonly messaging: Messaging;
  /** The outbox simulator, when it is the messaging adapter (GET /dev/outbox reads it). */
  readonly outbox: OutboxMessaging | null;
  readonly logger: Logger;
  /** Telephony provider, simulated phones, text block guard, code limits, provider webhooks. */
  readonly phone: PhoneRuntime;
  /** The engine runtime: stores occurrences, dispatches their calls, places test calls (host/calls/runtime.ts). */
  readonly runtime: Runtime;
  /** Public origin for links (problem `type`). */
  siteUrl(): string;
  readonly lifecycle: Lifecycle;
}
