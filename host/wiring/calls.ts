/**
 * The engine runtime as the host runs it: the engine's Store on the host's database (SQLite
 * or PostgreSQL, host/db/engine-store.ts) with the admission ledger, the
 * configured telephony (simulator or Twilio-compatible), the guarded messaging (fallback
 * texts never reach a blocked number), the service clock and the Accounts port.
 *
 * Each unit's host writes go in its commit's transaction: admission's, the outcome's webhook
 * events and the confirmed number's `last_confirmed_at` (./confirmed-writes.ts). Besides, this
 * file logs every call handed to the provider (one `call placed` line per attempt, with the
 * attempt id: the crash test counts them), status changes at debug, failures at warn/error.
 * @module
 */
import type { Db } from '../db/sql.js';
import {
  createRuntime,
  type Clock,
  type Ids,
  type Messaging,
  type Runtime,
  type RuntimeOptions,
  type Telephony,
} from '../../engine/index.js';
import type { ChangeSet } from '../../engine/internals.js';
import { createEngineStore, type UnitWrite } from '../db/engine-store.js';
import { confirmedNumberWrites } from './confirmed-writes.js';
import type { Logger } from '../logger.js';
import { maskE164 } from '../phone/numbers.js';
import { createAccountsPort } from '../calls/accounts-port.js';
import { fallbackText } from '../calls/fallback-text.js';

/** What {@link createCallRuntime} needs. */
export interface CallRuntimeDeps {
  db: Db;
  clock: Clock;
  ids: Ids;
  telephony: Telephony;
  /** Guarded messaging (the block guard refuses texts to blocked numbers). */
  messaging: Messaging;
  logger: Logger;
  /** Calls placed per account per UTC day. */
  dailyCap: number;
  /** Name that starts the fallback text (WAKEUP_SERVICE_NAME). */
  serviceName: string;
  /** Engine options (defaults: 10 minutes late grace, no pacing). */
  options?: RuntimeOptions;
  /**
   * The host's writes a unit's change set asks for beyond admission's (the webhook events an
   * outcome reports: host/webhooks/engine-outbox.ts), made in the unit's commit transaction.
   */
  unitWrites?: (changes: ChangeSet) => readonly UnitWrite[];
  /** Called after a commit that made host writes (nudges the webhook delivery worker). */
  unitWritten?: () => void;
}

/** What {@link hostRuntimeOptions} reads of the configuration and the process. */
export interface RuntimeSetting {
  /** Calls handed to the provider at once (WAKEUP_CALLS_IN_FLIGHT). */
  callsInFlight: number;
  /** The provider's rate (WAKEUP_CALLS_PER_SECOND), or null for none. */
  callsPerSecond: number | null;
  /** A claim's lease on PostgreSQL (WAKEUP_LEASE_SECONDS). */
  leaseSeconds: number;
  /** The service clock is virtual (WAKEUP_CLOCK=virtual). */
  virtualClock: boolean;
  dialect: Db['dialect'];
}

/**
 * Dispatch units at once on PostgreSQL: in alternating 100k spikes with leases, 2, 3 and 4 ran
 * 20, 26 and 25 % faster than 1 on average (docs/performance/spike-profile.md). SQLite keeps the
 * engine's 1.
 */
export const POSTGRES_UNITS_IN_FLIGHT = 3;

/**
 * The engine options the host runs with:
 * - the provider's rate: due calls in due order at exactly that rate, none before its instant;
 * - a virtual clock neither drifts nor sleeps: wake up at most daily when idle, so that
 *   POST /dev/clock across months or years does not run a timer every minute;
 * - several hosts on one PostgreSQL share due work by leased claims (docs/decisions/0012).
 *   Units there wait on round trips, which the unit sizer would read as a blocked loop at its
 *   10 ms default slice and keep at 16 rows; 1 s lets them grow (the loop stays free), and
 *   {@link POSTGRES_UNITS_IN_FLIGHT} of them run at once to keep the server's cores busy. A
 *   virtual clock is this process's own time (no other host shares it): claim hourly, with a
 *   lease of at least two hours, not every WAKEUP_LEASE_SECONDS / 3, or POST /dev/clock across
 *   a month runs 260,000 claims.
 */
export function hostRuntimeOptions(s: RuntimeSetting): RuntimeOptions {
  const leaseMs = s.leaseSeconds * 1000;
  return {
    maxInFlight: s.callsInFlight,
    ...(s.callsPerSecond !== null
      ? { pacing: { callsPerSecond: s.callsPerSecond, maxLeadMs: 0 } }
      : {}),
    ...(s.virtualClock ? { horizonMs: 86_400_000, maxTimerStepMs: 86_400_000 } : {}),
    ...(s.dialect === 'postgres'
      ? {
          lease: s.virtualClock
            ? { ttlMs: Math.max(leaseMs, 7_200_000), pollMs: 3_600_000 }
            : { ttlMs: leaseMs },
          sliceMs: 1000,
          unitsInFlight: POSTGRES_UNITS_IN_FLIGHT,
        }
      : {}),
  };
}

/** Creates the runtime (not started: call `start()`). */
export function createCallRuntime(deps: CallRuntimeDeps): Runtime {
  const log = deps.logger.child({ component: 'runtime' });
  const port = createAccountsPort({
    db: deps.db,
    dailyCap: deps.dailyCap,
    onStop: (r) =>
      log.info(
        { attempt: r.attemptId, occurrence: r.occurrenceId, account: r.accountId },
        'key 9: calls turned off, number blocked',
      ),
  });
  const runtime = createRuntime({
    clock: deps.clock,
    ids: deps.ids,
    store: createEngineStore(deps.db),
    // The unit's host writes (admission's and the outcome's events) go in its commit's
    // transaction, passed to the store's commit (docs/decisions/0025).
    unitWrites: {
      writes: (changes, statuses) => {
        const own = port.unitWrites();
        const confirmed = confirmedNumberWrites(statuses);
        const outcome = deps.unitWrites?.(changes) ?? [];
        // Most units have one kind of write or none: no copy for them.
        if (confirmed.length + outcome.length === 0) return own;
        if (own.length + confirmed.length === 0) return outcome;
        return [...own, ...confirmed, ...outcome];
      },
      ...(deps.unitWritten ? { committed: deps.unitWritten } : {}),
    },
    telephony: loggedTelephony(deps.telephony, log),
    messaging: deps.messaging,
    accounts: port.accounts,
    options: { fallbackText: (o) => fallbackText(o, deps.serviceName), ...deps.options },
  });

  // Status changes are logged at debug: the lines' fields are built only when it is on.
  runtime.on('occurrence:status', ({ occurrence: o, from }) => {
    if (!log.isLevelEnabled('debug')) return;
    log.debug(
      { occurrence: o.id, from, to: o.status, reason: o.outcomeReason },
      'occurrence status',
    );
  });
  runtime.on('attempt:status', ({ attempt: a, from }) => {
    if (!log.isLevelEnabled('debug')) return;
    log.debug(
      { attempt: a.id, occurrence: a.occurrenceId, kind: a.kind, from, to: a.status },
      'attempt status',
    );
  });
  runtime.on('effect:failed', ({ effect, error, willRetry }) =>
    log.warn({ err: error, effect: effect.type, willRetry }, 'runtime effect failed'),
  );
  runtime.on('runtime:error', ({ error, where }) =>
    log.error({ err: error, where }, 'runtime error'),
  );
  runtime.on('telephony:unknown', ({ event }) =>
    log.warn({ callId: event.callId, type: event.type }, 'telephony event for an unknown call'),
  );
  return runtime;
}

/** The provider, with one log line per call handed to it and per answer. */
function loggedTelephony(telephony: Telephony, log: Logger): Telephony {
  return {
    async placeCall(request) {
      const result = await telephony.placeCall(request);
      // The line's fields are built only when it is written (a spike places thousands a second).
      if (!log.isLevelEnabled('info')) return result;
      log.info(
        {
          attempt: request.idempotencyKey,
          to: maskE164(request.to),
          script: request.script.kind,
          ok: result.ok,
          ...(result.ok ? { callId: result.callId } : { code: result.code }),
        },
        'call placed',
      );
      return result;
    },
    hangUp: (callId, options) => telephony.hangUp(callId, options),
    onEvent: (handler) => telephony.onEvent(handler),
  };
}

/**
 * Stops the runtime at shutdown, waiting at most `graceMs` (on `wait`, a real-time timer)
 * for calls being handed to the provider; after that, work in flight is abandoned and
 * reconciled at the next start.
 */
export async function stopCallRuntime(
  runtime: Runtime,
  graceMs: number,
  wait: (ms: number) => Promise<void>,
): Promise<void> {
  const drained = runtime.stop({ drain: true }).then(() => true);
  const finished = await Promise.race([drained, wait(graceMs).then(() => false)]);
  if (!finished) await runtime.stop({ drain: false });
}
