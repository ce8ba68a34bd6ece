/**
 * The delivery worker, one per host: claims the due deliveries (made with their events,
 * host/db/webhook-outbox.ts) under a lease, sends them (host/webhooks/send.ts, signed by ./signing.ts), and
 * records each attempt: delivered, a retry at the next step of the schedule (./rules.ts), or
 * failed.
 *
 * Sending is a pool per lane (./rules.ts `MAIN_LANE`, `SLOW_LANE`), not batches: a slot freed
 * by an attempt that ends is refilled at once, by a claim fair across accounts
 * (host/db/webhook-claims.ts), so an account whose endpoints never answer holds a bounded share
 * of the slots and another account's delivery leaves within a claim. Endpoints whose attempts
 * keep timing out move to the slow lane, a few slots of their own. An endpoint whose every attempt failed for {@link DISABLE_AFTER_MS} is turned off, its
 * pending deliveries end, and its owner is emailed (one host does it: the one whose update
 * turned it off).
 *
 * When it runs: at once when this process records an event (a nudge), when the soonest pending
 * delivery falls due on the service clock (a timer on it, so the dev virtual clock moves retries
 * too), and on a real-time poll that finds what other hosts recorded and what a dead host
 * leased. A run never overlaps another in this process; hosts share the work by their claims.
 * Deliveries run in the background: nothing waits for them (a request, a unit of work, POST
 * /dev/clock).
 * @module
 */
import type { Clock, Ids, Messaging, TimerHandle } from '../../engine/index.js';
import { findAccountById } from '../db/accounts.js';
import type { Db } from '../db/sql.js';
import { setMaxListeners } from 'node:events';
import { claimWebhookDeliveries, type ClaimedDelivery } from '../db/webhook-claims.js';
import {
  dropWebhookDelivery,
  failPendingWebhookDeliveries,
  nextWebhookDueAt,
  recordWebhookAttempt,
} from '../db/webhook-deliveries.js';
import {
  disableFailingEndpoint,
  findWebhookEndpoint,
  markEndpointFailing,
  markEndpointHealthy,
  noteEndpointTimeout,
  type WebhookEndpoint,
} from '../db/webhook-endpoints.js';
import { onWebhookEventRecorded, pruneWebhookOutbox } from '../db/webhook-outbox.js';
import { isoInstant } from '../instant.js';
import type { Logger } from '../logger.js';
import type { WebhookConfig } from './config.js';
import {
  DISABLE_AFTER_MS,
  LEASE_MS,
  MAIN_LANE,
  RETENTION_MS,
  retryDelay,
  SLOW_AFTER_TIMEOUTS,
  SLOW_LANE,
  type Lane,
} from './rules.js';
import { sendWebhook, type WebhookAttempt } from './send.js';
import { webhookHeaders } from './signing.js';
import { sealStoredSecrets, type SecretBox } from './secret-box.js';
import type { Resolver } from './target.js';

/** What {@link createDeliveryWorker} needs. */
export interface DeliveryWorkerDeps {
  db: Db;
  /** The service clock: due times, leases, the log's instants. */
  clock: Clock;
  /** Real time: the poll, signature timestamps, latencies (the system clock even under the dev virtual clock). */
  wallClock: Clock;
  ids: Ids;
  logger: Logger;
  /** Emails the owner of an endpoint turned off. */
  messaging: Messaging;
  config: WebhookConfig;
  resolve: Resolver;
  /** Opens the signing secrets; its pass seals those stored readable and erases previous ones past their grace. */
  secrets: SecretBox;
  /** WAKEUP_SERVICE_NAME, in the User-Agent and the email. */
  serviceName: string;
  siteUrl(): string;
  /** Real-time milliseconds between polls. @defaultValue 1000 */
  pollMs?: number;
  /** One attempt's time limit (tests shorten it). */
  timeoutMs?: number;
}

const LANES: readonly Lane[] = [MAIN_LANE, SLOW_LANE];

/** See the module header. */
export interface DeliveryWorker {
  /** Starts polling and runs once. */
  start(): void;
  /** Runs soon (coalesced with a run under way). */
  kick(): void;
  /** Stops; attempts under way are abandoned (not recorded: sent again once their lease lapses); resolves once they ended. */
  stop(): Promise<void>;
}

/** Creates the worker (not started). */
export function createDeliveryWorker(d: DeliveryWorkerDeps): DeliveryWorker {
  const log = d.logger.child({ component: 'webhooks' });
  const owner = d.ids.uuid();
  const pollMs = d.pollMs ?? 1000;
  let stopped = true;
  let running: Promise<void> | null = null;
  let again = false;
  let poll: TimerHandle | null = null;
  let due: { at: number; timer: TimerHandle } | null = null;
  let lastPrune = -Infinity;
  let unsubscribe: (() => void) | null = null;
  // Aborts the attempts under way at shutdown: their leases lapse and they are sent again.
  let aborter = new AbortController();
  // Attempts under way on this host, per lane, and their promises (awaited by stop).
  const inFlight = new Map<Lane, number>(LANES.map((l) => [l, 0]));
  const sending = new Set<Promise<void>>();

  function kick(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await runOnce();
        } catch (err) {
          log.error({ err }, 'webhook delivery run failed');
        }
      } while (again && !stopped);
    })().finally(() => (running = null));
  }

  function armPoll(): void {
    if (stopped) return;
    poll = d.wallClock.setTimer(d.wallClock.now() + pollMs, () => {
      kick();
      armPoll();
    });
  }

  async function runOnce(): Promise<void> {
    for (;;) {
      if (stopped) return;
      const now = d.clock.now();
      // Read first: an idle poll writes nothing (the claim is an UPDATE).
      const next = await nextWebhookDueAt(d.db);
      if (next === null || next > now) {
        armDue(next);
        break;
      }
      let started = 0;
      for (const lane of LANES) {
        const free = lane.slots - inFlight.get(lane)!;
        if (free <= 0 || stopped) continue;
        const claimed = await claimWebhookDeliveries(d.db, {
          owner,
          now,
          until: now + LEASE_MS,
          limit: free,
          slow: lane.slow,
          slowAfter: SLOW_AFTER_TIMEOUTS,
          perEndpoint: lane.perEndpoint,
          perAccount: lane.perAccount,
        });
        for (const c of claimed) launch(c, lane);
        started += claimed.length;
      }
      // Nothing more to take now: the lanes are full, or what is due waits for its endpoint's
      // or account's attempts under way; an attempt that ends runs the worker again.
      if (started === 0) break;
    }
    const now = d.clock.now();
    if (now - lastPrune >= 3_600_000) {
      lastPrune = now;
      await pruneWebhookOutbox(d.db, now - RETENTION_MS);
      await sealStoredSecrets(d.db, d.secrets, now);
    }
  }

  /** Sends a claimed delivery in a slot of `lane`; the slot is freed, and refilled, when it ends. */
  function launch(c: ClaimedDelivery, lane: Lane): void {
    inFlight.set(lane, inFlight.get(lane)! + 1);
    const attempt: Promise<void> = deliver(c)
      .catch((err: unknown) => log.error({ err, delivery: c.id }, 'webhook delivery failed'))
      .finally(() => {
        inFlight.set(lane, inFlight.get(lane)! - 1);
        sending.delete(attempt);
        kick();
      });
    sending.add(attempt);
  }

  /** A timer on the service clock at `at`, the soonest pending delivery (the poll covers the rest). */
  function armDue(at: number | null): void {
    if (stopped || at === null || at <= d.clock.now() || (due && due.at <= at)) return;
    due?.timer.cancel();
    const timer = d.clock.setTimer(at, () => {
      if (due?.timer === timer) due = null;
      kick(); // not awaited: a virtual clock's advance does not wait for receivers
    });
    due = { at, timer };
  }

  async function deliver(c: ClaimedDelivery): Promise<void> {
    const endpoint = await findWebhookEndpoint(d.db, c.endpointId);
    if (!endpoint || !endpoint.enabled) {
      await dropWebhookDelivery(
        d.db,
        c.id,
        owner,
        endpoint ? 'endpoint turned off' : 'endpoint deleted',
        d.clock.now(),
      );
      return;
    }
    const signedAt = d.clock.now();
    const secrets = [d.secrets.open(endpoint.secret)];
    if (endpoint.previousSecret !== null && (endpoint.previousSecretUntil ?? 0) > signedAt)
      secrets.push(d.secrets.open(endpoint.previousSecret));
    const attempt = await sendWebhook(
      {
        url: endpoint.url,
        headers: webhookHeaders(
          secrets,
          c.eventId,
          Math.floor(d.wallClock.now() / 1000),
          c.payload,
        ),
        body: c.payload,
      },
      {
        config: d.config,
        resolve: d.resolve,
        userAgent: `${d.serviceName}-Webhooks/1`,
        wallNow: () => d.wallClock.now(),
        signal: aborter.signal,
        ...(d.timeoutMs !== undefined ? { timeoutMs: d.timeoutMs } : {}),
      },
    );
    // Stopped meanwhile: nothing is recorded; the lease lapses and the delivery is sent again.
    if (stopped) return;
    await noteEndpointTimeout(d.db, endpoint.id, attempt.timedOut);
    await settle(c, endpoint, attempt);
  }

  async function settle(
    c: ClaimedDelivery,
    endpoint: WebhookEndpoint,
    attempt: WebhookAttempt,
  ): Promise<void> {
    const now = d.clock.now();
    const wait = attempt.ok ? null : retryDelay(c.tries + 1);
    const status = attempt.ok ? 'delivered' : wait === null ? 'failed' : 'pending';
    const kept = await recordWebhookAttempt(d.db, c.id, owner, {
      at: now,
      responseStatus: attempt.status,
      latencyMs: attempt.latencyMs,
      error: attempt.error,
      status,
      nextAttemptAt: wait === null ? null : now + wait,
    });
    const fields = {
      delivery: c.id,
      event: c.eventId,
      endpoint: endpoint.id,
      status,
      code: attempt.status,
      ms: attempt.latencyMs,
    };
    if (attempt.ok) log.debug(fields, 'webhook delivered');
    else
      log.info({ ...fields, error: attempt.error, tries: c.tries + 1 }, 'webhook attempt failed');
    if (!kept) return; // the lease was lost: the holder records its own attempt
    if (attempt.ok) {
      await markEndpointHealthy(d.db, endpoint.id);
      return;
    }
    const since = await markEndpointFailing(d.db, endpoint.id, now);
    if (since === null || since > now - DISABLE_AFTER_MS) return;
    if (!(await disableFailingEndpoint(d.db, endpoint.id, now - DISABLE_AFTER_MS, now))) return;
    await failPendingWebhookDeliveries(
      d.db,
      endpoint.id,
      'endpoint turned off after failing for 3 days',
      now,
    );
    log.warn(
      { endpoint: endpoint.id, account: endpoint.accountId, since },
      'webhook endpoint turned off: failing for 3 days',
    );
    await tellOwner(endpoint, since, attempt.error);
  }

  async function tellOwner(
    endpoint: WebhookEndpoint,
    since: number,
    lastError: string | null,
  ): Promise<void> {
    const account = await findAccountById(d.db, endpoint.accountId);
    if (!account) return;
    const body =
      `${d.serviceName} turned off your webhook endpoint ${endpoint.url}: every delivery to it has failed since ` +
      `${isoInstant(since)} (the last one: ${lastError ?? 'no answer'}).\n\n` +
      'Nothing more is sent to it. Once it answers again, turn it back on from the Webhooks page ' +
      `(${d.siteUrl()}/#/webhooks/${endpoint.id}) or with PATCH /api/v1/webhook-endpoints/${endpoint.id} {"enabled": true}; ` +
      'the deliveries that failed can then be sent again one by one from its delivery log.';
    try {
      const sent = await d.messaging.sendEmail({
        to: account.email,
        subject: `${d.serviceName}: your webhook endpoint was turned off`,
        body,
        idempotencyKey: `webhook-disabled:${endpoint.id}:${since}`,
      });
      if (!sent.ok)
        log.warn(
          { endpoint: endpoint.id, code: sent.code },
          'webhook endpoint turned off: email refused',
        );
    } catch (err) {
      log.error({ err, endpoint: endpoint.id }, 'webhook endpoint turned off: email failed');
    }
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      aborter = new AbortController();
      // Every attempt under way listens on it.
      setMaxListeners(LANES.reduce((n, l) => n + l.slots, 0) + 1, aborter.signal);
      unsubscribe = onWebhookEventRecorded(kick);
      armPoll();
      kick();
    },
    kick,
    async stop() {
      stopped = true;
      aborter.abort();
      unsubscribe?.();
      poll?.cancel();
      due?.timer.cancel();
      due = null;
      await running;
      await Promise.all([...sending]);
    },
  };
}
