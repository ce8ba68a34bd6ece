/**
 * The operator's actions (block or unblock a number, turn a failing webhook endpoint back on,
 * cancel an occurrence, redeliver a webhook), each written to the audit log with who did it,
 * and the reads that go with them: the audit log and the search of a number's or an
 * account's recent calls. The caller checks that the principal may act (./operators.ts).
 * @module
 */
import {
  EngineError,
  type AttemptRecord,
  type Clock,
  type EpochMs,
  type Ids,
  type Runtime,
} from '../../engine/index.js';
import type { Principal } from '../auth/principal.js';
import { findAccountByEmail } from '../db/accounts.js';
import { engineReads } from '../db/engine-store.js';
import { insertAudit, listAudit, type AuditAction, type AuditEntry } from '../db/ops-audit.js';
import { accountsWithNumber } from '../db/ops-reads.js';
import { blockNumber, unblockNumber, type BlockReason } from '../db/phone-numbers.js';
import { findWebhookEndpoint } from '../db/webhook-endpoints.js';
import type { Db } from '../db/sql.js';
import { problem } from '../errors.js';
import { isoInstant, isoInstantOrNull } from '../instant.js';
import { cursorKey, pageRequest, pageResponse, type PageQuery } from '../paging.js';

/** What the webhook actions need of the webhook service (built by the root). */
export interface OpsWebhooks {
  update(accountId: string, endpointId: string, body: { enabled: boolean }): Promise<unknown>;
  redeliver(accountId: string, endpointId: string, deliveryId: string): Promise<unknown>;
}

/** The dependencies of {@link createOpsActions}. */
export interface OpsActionDeps {
  db: Db;
  clock: Clock;
  ids: Ids;
  runtime: Pick<Runtime, 'cancel'>;
  webhooks: OpsWebhooks;
}

/** See the module header. */
export interface OpsActions {
  block(
    by: Principal,
    e164: string,
    reason: 'manual' | 'complaint',
    note: string | null,
  ): Promise<{ e164: string; blocked: true; reason: BlockReason }>;
  unblock(
    by: Principal,
    e164: string,
    note: string | null,
  ): Promise<{ e164: string; blocked: false; lifted: boolean }>;
  enableEndpoint(by: Principal, endpointId: string): Promise<unknown>;
  cancelOccurrence(
    by: Principal,
    occurrenceId: string,
  ): Promise<{ id: string; status: string; account_id: string }>;
  redeliver(by: Principal, endpointId: string, deliveryId: string): Promise<unknown>;
  audit(query: PageQuery): Promise<{ items: unknown[]; next_cursor: string | null }>;
  search(
    q: string,
    limit: number,
  ): Promise<{ query: string; accounts: { id: string; email: string }[]; calls: unknown[] }>;
}

const ALL_KINDS = ['first', 'retry', 'snooze', 'test', 'demo'] as const;

/** Creates the actions. */
export function createOpsActions(deps: OpsActionDeps): OpsActions {
  const { db, clock, ids } = deps;
  const record = async (
    by: Principal,
    action: AuditAction,
    target: string,
    detail: Record<string, unknown>,
    at: EpochMs,
  ) => {
    await insertAudit(db, {
      id: ids.uuid(),
      at,
      accountId: by.accountId,
      email: by.account?.email ?? '',
      action,
      target,
      detail,
    });
  };
  const endpoint = async (endpointId: string) => {
    const e = await findWebhookEndpoint(db, endpointId);
    if (!e) throw problem('not_found', { detail: 'No webhook endpoint with that id.' });
    return e;
  };

  return {
    async block(by, e164, reason, note) {
      const now = clock.now();
      const inForce = await blockNumber(db, e164, reason, 'operator', now, note);
      await record(by, 'block_number', e164, { reason, in_force: inForce, note }, now);
      return { e164, blocked: true, reason: inForce };
    },
    async unblock(by, e164, note) {
      const now = clock.now();
      const lifted = await unblockNumber(
        db,
        e164,
        ['stop', 'complaint', 'manual', 'key_9'],
        'operator',
        now,
        note,
      );
      await record(by, 'unblock_number', e164, { lifted, note }, now);
      return { e164, blocked: false, lifted };
    },
    async enableEndpoint(by, endpointId) {
      const e = await endpoint(endpointId);
      const out = await deps.webhooks.update(e.accountId, e.id, { enabled: true });
      await record(
        by,
        'enable_webhook_endpoint',
        e.id,
        { account_id: e.accountId, was: e.disabledReason ?? (e.enabled ? 'on' : 'off') },
        clock.now(),
      );
      return out;
    },
    async cancelOccurrence(by, occurrenceId) {
      const o = await deps.runtime.cancel(occurrenceId).catch((err: unknown) => {
        if (!EngineError.is(err)) throw err;
        if (err.code === 'occurrence_terminal')
          throw problem('occurrence_terminal', {
            detail: 'This call already finished; there is nothing to cancel.',
          });
        throw problem('not_found', { detail: 'No occurrence with that id.' });
      });
      await record(by, 'cancel_occurrence', occurrenceId, { account_id: o.accountId }, clock.now());
      return { id: o.id, status: o.status, account_id: o.accountId };
    },
    async redeliver(by, endpointId, deliveryId) {
      const e = await endpoint(endpointId);
      const out = await deps.webhooks.redeliver(e.accountId, e.id, deliveryId);
      await record(
        by,
        'redeliver_webhook',
        deliveryId,
        { account_id: e.accountId, endpoint_id: e.id },
        clock.now(),
      );
      return out;
    },
    async audit(query) {
      const page = pageRequest(query);
      const after = cursorKey<[number]>(page.after, ['number']);
      const rows = await listAudit(db, page.limit + 1, after && after[0]);
      return pageResponse(rows, page.limit, (e) => [e.seq], auditOut);
    },
    async search(q, limit) {
      const query = q.trim();
      const byEmail = query.includes('@');
      const accounts = byEmail
        ? await findAccountByEmail(db, query.toLowerCase()).then((a) =>
            a ? [{ id: a.id, email: a.email }] : [],
          )
        : await accountsWithNumber(db, query, 20);
      const reads = engineReads(db);
      const calls: AttemptRecord[] = [];
      for (const a of accounts) {
        const page = await reads.listAccountAttempts({
          accountId: a.id,
          kinds: ALL_KINDS,
          limit: byEmail ? limit : limit * 2,
        });
        for (const { record: r } of page) if (byEmail || r.to === query) calls.push(r);
      }
      calls.sort((x, y) => y.createdAt - x.createdAt);
      return { query, accounts, calls: calls.slice(0, limit).map(callOut) };
    },
  };
}

/** Schema `OpsAuditEntry`. */
function auditOut(e: AuditEntry) {
  return {
    id: e.id,
    at: isoInstant(e.at),
    account_id: e.accountId,
    email: e.email,
    action: e.action,
    target: e.target,
    detail: e.detail,
  };
}

/** Schema `OpsCall`: an attempt as an operator sees it (the number in full). */
function callOut(a: AttemptRecord) {
  return {
    attempt_id: a.id,
    occurrence_id: a.occurrenceId,
    account_id: a.accountId,
    to: a.to,
    kind: a.kind,
    status: a.status,
    due_at: isoInstant(a.dueAt),
    requested_at: isoInstantOrNull(a.requestedAt),
    ringing_at: isoInstantOrNull(a.ringingAt),
    answered_at: isoInstantOrNull(a.answeredAt),
    ended_at: isoInstantOrNull(a.endedAt),
    duration_seconds: a.durationSeconds,
    error_code: a.errorCode,
    late_ms: a.requestedAt === null ? null : Math.max(0, a.requestedAt - a.dueAt),
  };
}
