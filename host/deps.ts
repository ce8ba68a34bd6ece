/**
 * The adapters and engine runtime `host/compose.ts` builds, from which it makes the
 * services (`services.ts`). Route modules never receive these: they get `AppServices`.
 * Tests may look inside through `RunningServer.deps` (e.g. to read a table directly).
 * @module
 */
import type { Db } from './db/sql.js';
import type { Clock, Ids, Messaging, Runtime } from '../engine/index.js';
import type { VirtualClock } from '../engine/sim/index.js';
import type { HostConfig } from './config.js';
import type { Logger } from './logger.js';
import type { OutboxMessaging } from './adapters/messaging/outbox.js';
import type { PhoneRuntime } from './phone/runtime.js';
import type { Lifecycle } from './services.js';

export type { Lifecycle };

/** The built adapters. */
export interface AppDeps {
  readonly config: HostConfig;
  readonly db: Db;
  /** The service clock: the only source of "now". */
  readonly clock: Clock;
  /** The same clock as `clock` when WAKEUP_CLOCK=virtual (POST /dev/clock moves it), else null. */
  readonly virtualClock: VirtualClock | null;
  readonly ids: Ids;
  /** Outbound email and texts (the built-in outbox simulator by default), with the block guard. */
  readonly messaging: Messaging;
  /** The outbox simulator, when it is the messaging adapter (GET /dev/outbox reads it). */
  readonly outbox: OutboxMessaging | null;
  readonly logger: Logger;
  /** Telephony provider, simulated phones, text block guard, code limits, provider webhooks. */
  readonly phone: PhoneRuntime;
  /** The engine runtime: stores occurrences, dispatches their calls, places test calls (host/wiring/calls.ts). */
  readonly runtime: Runtime;
  /** Public origin for links (problem `type`). */
  siteUrl(): string;
  readonly lifecycle: Lifecycle;
}
