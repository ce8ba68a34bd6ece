/**
 * What the end-to-end cell (bench/e2e.ts) seeds beside the calls of test/load/seed.ts, so that
 * the whole path carries the writes real accounts cause: one trial account owns a share of the
 * calls and has pack credits, so that once its 5 trial calls are taken admission spends a credit
 * per call (a write in the unit's commit); a few accounts have an outbound webhook endpoint on
 * a local receiver, so that their calls' outcomes are recorded in the outbox and delivered.
 * @module
 */
import { grantCredits } from '../host/db/credits.js';
import type { Db } from '../host/db/sql.js';
import { insertWebhookEndpoint } from '../host/db/webhook-endpoints.js';
import { WEBHOOK_EVENT_TYPES } from '../host/db/webhook-outbox.js';
import { newWebhookSecret } from '../host/webhooks/signing.js';
import { seededAccountId, type SeededBatch } from '../test/load/seed.js';

/** The trial included calls seeded accounts start with (test/load/seed.ts's seedAccounts). */
const TRIAL_CALLS_INCLUDED = 5;

/** How the calls are spread over accounts. */
export interface E2eAccounts {
  /** Calls seeded. */
  calls: number;
  /** Calls of the trial account (account 0); 0: none, every call its own account. */
  trialCalls: number;
  /** Accounts with a webhook endpoint: the trial account first (when it has calls), then accounts of one call. */
  webhookAccounts: number;
}

/** The seeded account index owning call i: the first `trialCalls` calls are account 0's, every other call its own account's. */
export function e2eAccountOf(a: E2eAccounts): (i: number) => number {
  return (i) => (i < a.trialCalls ? 0 : i);
}

/** The indexes of the accounts given a webhook endpoint. */
export function webhookAccountIndexes(a: E2eAccounts): number[] {
  const first = a.trialCalls > 0 ? [0] : [];
  const start = a.trialCalls > 0 ? a.trialCalls : 0;
  const rest = Array.from(
    { length: Math.max(0, a.webhookAccounts - first.length) },
    (_, k) => start + k,
  ).filter((i) => i < a.calls);
  return a.webhookAccounts > 0 ? [...first, ...rest] : [];
}

/** Deliveries the receiver should get: one outcome event for each call of an account with an endpoint. */
export function expectedDeliveries(a: E2eAccounts): number {
  return webhookAccountIndexes(a).reduce(
    (n, i) => n + (i === 0 && a.trialCalls > 0 ? a.trialCalls : 1),
    0,
  );
}

/** Credits admission should spend: the trial account's calls beyond its trial's included calls. */
export function expectedCreditSpends(a: E2eAccounts): number {
  return Math.max(0, a.trialCalls - TRIAL_CALLS_INCLUDED);
}

/** Grants the trial account a pack covering all its calls, and gives the webhook accounts an endpoint on `receiverUrl` (every event type). */
export async function seedE2eExtras(
  db: Db,
  batch: SeededBatch,
  a: E2eAccounts,
  receiverUrl: string,
  now: number,
): Promise<void> {
  await db.tx(async (tx) => {
    if (a.trialCalls > 0) {
      const accountId = seededAccountId(batch.batch, 0);
      await grantCredits(
        tx,
        {
          accountId,
          calls: a.trialCalls,
          planCode: 'pack_30',
          planName: '30-call pack',
          tierBMultiplier: 3,
          ref: `bench-e2e-${accountId}`,
        },
        now,
      );
    }
    for (const i of webhookAccountIndexes(a)) {
      await insertWebhookEndpoint(tx, {
        id: `bench-e2e-endpoint-${i}`,
        accountId: seededAccountId(batch.batch, i),
        url: receiverUrl,
        description: 'bench e2e receiver',
        eventTypes: [...WEBHOOK_EVENT_TYPES],
        secret: newWebhookSecret(),
        enabled: true,
        createdAt: now,
      });
    }
  });
}

/** Credits the trial account spent so far (rows of `credit_ledger` for calls). */
export async function creditSpends(db: Db, batch: SeededBatch): Promise<number> {
  const row = await db.get<{ n: number }>(
    `SELECT count(*) AS n FROM credit_ledger WHERE account_id = ? AND reason = 'call'`,
    [seededAccountId(batch.batch, 0)],
  );
  return Number(row?.n ?? 0);
}

/** Outbound webhook deliveries still pending (not delivered, not failed). */
export async function pendingDeliveries(db: Db): Promise<number> {
  const row = await db.get<{ n: number }>(
    `SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'`,
  );
  return Number(row?.n ?? 0);
}
