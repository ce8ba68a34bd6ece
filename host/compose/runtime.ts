/**
 * The runtime's wiring, the second step of the composition root (host/compose.ts): the engine
 * runtime on the host's database (host/wiring/calls.ts, with the host's engine options), and
 * what runs beside it on its events: the contacts' teller (a call ending unanswered tells its
 * contacts), the metrics, the inbound texts' handler (the phone feature, then the contacts
 * through a use case), and the outbound webhooks' delivery worker. Nothing starts here: the
 * lifecycle (./lifecycle.ts) starts and stops them in order.
 * @module
 */
import type { Runtime } from '../../engine/index.js';
import { isPostgresUrl } from '../db/sql.js';
import { nudgeWebhookWorkers } from '../db/webhook-outbox.js';
import { createContactTeller, type ContactTeller } from '../contacts/tell.js';
import type { ContactTextOptions } from '../contacts/texts.js';
import { handleInboundText, type InboundDeps } from '../phone/inbound.js';
import { inboundKeywords } from '../use-cases/index.js';
import { outcomeEventWrites } from '../webhooks/engine-outbox.js';
import { createSecretBox, resolveSecretsKey, type SecretBox } from '../webhooks/secret-box.js';
import { systemResolver } from '../webhooks/target.js';
import { createDeliveryWorker, type DeliveryWorker } from '../webhooks/worker.js';
import { createCallRuntime, hostRuntimeOptions } from '../wiring/calls.js';
import type { Adapters } from './adapters.js';

/** The runtime and what runs on its events. */
export interface RuntimeParts {
  readonly runtime: Runtime;
  /** Texts to contacts when a call ends unanswered (host/contacts/tell.ts). */
  readonly teller: ContactTeller;
  /** Outbound webhooks: the signing secrets' box and the delivery worker. */
  readonly webhookSecrets: SecretBox;
  readonly webhookWorker: DeliveryWorker;
  /** The words of the contacts' texts. */
  readonly contactWords: () => ContactTextOptions;
  /** The phone feature's keyword listener: the contacts of the number (a use case). */
  readonly onKeyword: NonNullable<InboundDeps['onKeyword']>;
}

/** Builds the runtime and wires its listeners (nothing starts). */
export function wireRuntime(a: Adapters): RuntimeParts {
  const { config, db, clock, ids, logger, phone } = a;
  const contactWords = () => ({ serviceName: config.phone.serviceName });
  // Inbound texts: STOP, START, HELP for the number; then the contacts of that number.
  const onKeyword = inboundKeywords({
    db,
    clock,
    messaging: phone.messaging,
    logger,
    text: contactWords,
  });
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
    options: hostRuntimeOptions({
      callsInFlight: config.callsInFlight,
      callsPerSecond: config.callsPerSecond,
      leaseSeconds: config.leaseSeconds,
      virtualClock: a.virtualClock !== null,
      dialect: db.dialect,
    }),
  });
  // Contacts told when a call ends unanswered: the outcome comes from the runtime's event,
  // after its commit; what a stop left untold is caught up at start.
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
  // Metrics count calls, outcomes and lateness from the runtime's events. A series' next
  // occurrence needs no listener: the engine makes it in the unit of work that ends the one
  // before, and its start-up reconciliation repairs a series left without one.
  a.metrics.watchRuntime(runtime);

  const { webhookSecrets, webhookWorker } = wireWebhookDelivery(a);

  return { runtime, teller, webhookSecrets, webhookWorker, contactWords, onKeyword };
}

/** Outbound webhooks: the signing secrets' box and the delivery worker. */
function wireWebhookDelivery(a: Adapters): Pick<RuntimeParts, 'webhookSecrets' | 'webhookWorker'> {
  const { db, clock, ids, logger, phone } = a;
  // Outbound webhooks: signing secrets sealed with the server's key (host/webhooks/secret-box.ts);
  // the delivery worker sends what the outbox holds (host/webhooks/worker.ts).
  const webhookSecrets = createSecretBox(
    resolveSecretsKey({
      configured: a.config.webhooks.secretsKey,
      fallback: a.config.idp?.tokenKey ?? null,
      sqliteFile: isPostgresUrl(a.config.dbFile) ? null : a.config.dbFile,
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
    wallClock: a.systemClock,
    ids,
    logger,
    messaging: phone.messaging,
    config: a.config.webhooks,
    resolve: systemResolver,
    secrets: webhookSecrets,
    serviceName: a.config.phone.serviceName,
    siteUrl: a.siteUrl,
  });

  return { webhookSecrets, webhookWorker };
}
