/**
 * The operator's view, who may use it (issue 43): operators (WAKEUP_OPERATOR_EMAILS) read and
 * act, read-only operators (WAKEUP_OPERATOR_READONLY_EMAILS) read only, everyone else gets 403
 * insufficient_scope; an API key needs scope ops, which only an operator gives. Each action is
 * written to the audit log with who did it. Through HTTP on the real server.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signIn, startTestServer, type TestServer } from '../helpers/server.js';
import { call } from '../helpers/phone.js';
import { assertSchema } from './schedules-fixture.js';
import { advance, createCall, newAccount, phone, CALLS_START } from './calls-fixture.js';
import { PHONE_TEST_ENV } from '../helpers/phone.js';

const OPERATOR = 'ops-lead@example.com';
const READER = 'ops-reader@example.com';
const READS = [
  '/ops/me',
  '/ops/forecast',
  '/ops/lateness',
  '/ops/outcomes',
  '/ops/health',
  '/ops/audit',
  '/ops/calls?q=%2B12015550100',
];

describe('ops: who may read and act', () => {
  let server: TestServer;
  let operator: string;
  let reader: string;
  let user: string;
  before(async () => {
    server = await startTestServer({
      env: {
        ...PHONE_TEST_ENV,
        WAKEUP_CLOCK_START: CALLS_START,
        WAKEUP_OPERATOR_EMAILS: ` ${OPERATOR.toUpperCase()} ,other@example.com`,
        WAKEUP_OPERATOR_READONLY_EMAILS: READER,
      },
    });
    operator = (await signIn(server, OPERATOR)).token;
    reader = (await signIn(server, READER)).token;
    user = (await signIn(server)).token;
  });
  after(() => server.close());

  it('answers operators and read-only operators, and 403 insufficient_scope to anyone else', async () => {
    for (const path of READS) {
      for (const token of [operator, reader]) {
        const r = await call(server, 'GET', path, { token });
        assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
      }
      const r = await call(server, 'GET', path, { token: user });
      assert.equal(r.status, 403, path);
      assert.equal(r.body.code, 'insufficient_scope');
      assert.equal(
        (await call(server, 'GET', path, {})).status,
        401,
        `${path} without credentials`,
      );
    }
    assert.deepEqual((await call(server, 'GET', '/ops/me', { token: reader })).body, {
      email: READER,
      role: 'read',
    });
    assert.deepEqual((await call(server, 'GET', '/ops/me', { token: operator })).body, {
      email: OPERATOR,
      role: 'act',
    });
  });

  it('lets only operators give an API key scope ops, and such a key reads /ops while plain keys do not', async () => {
    const refused = await call(server, 'POST', '/api-keys', {
      token: user,
      body: { name: 'x', scopes: ['read', 'ops'] },
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'insufficient_scope');
    const made = await call(server, 'POST', '/api-keys', {
      token: operator,
      body: { name: 'dashboard', scopes: ['ops'] },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual(made.body.scopes, ['ops']);
    const plain = await call(server, 'POST', '/api-keys', {
      token: operator,
      body: { name: 'plain' },
    });
    assert.equal((await call(server, 'GET', '/ops/health', { token: made.body.key })).status, 200);
    const noScope = await call(server, 'GET', '/ops/health', { token: plain.body.key });
    assert.equal(noScope.status, 403);
    assert.equal(noScope.body.code, 'insufficient_scope');
    // An ops key reads nothing else.
    assert.equal((await call(server, 'GET', '/me', { token: made.body.key })).status, 403);
    // A read-only operator's ops key reads but does not act.
    const readerKey = await call(server, 'POST', '/api-keys', {
      token: reader,
      body: { name: 'ro', scopes: ['ops'] },
    });
    assert.equal(readerKey.status, 201);
    assert.equal(
      (await call(server, 'GET', '/ops/forecast', { token: readerKey.body.key })).status,
      200,
    );
    const act = await call(server, 'POST', '/ops/numbers/%2B12015550999/block', {
      token: readerKey.body.key,
      body: {},
    });
    assert.equal(act.status, 403);
    assert.equal(act.body.code, 'insufficient_scope');
  });

  it('refuses actions to read-only operators and users, and writes each action of an operator to the audit log', async () => {
    const number = '+12015550777';
    for (const token of [reader, user]) {
      const r = await call(server, 'POST', `/ops/numbers/${encodeURIComponent(number)}/block`, {
        token,
        body: { reason: 'complaint' },
      });
      assert.equal(r.status, 403);
      assert.equal(r.body.code, 'insufficient_scope');
    }
    const blocked = await call(server, 'POST', `/ops/numbers/${encodeURIComponent(number)}/block`, {
      token: operator,
      body: { reason: 'complaint', note: 'reported by carrier' },
    });
    assert.equal(blocked.status, 200, JSON.stringify(blocked.body));
    assertSchema('OpsBlockOut', blocked.body);
    assert.equal(blocked.body.reason, 'complaint');
    const unblocked = await call(
      server,
      'POST',
      `/ops/numbers/${encodeURIComponent(number)}/unblock`,
      { token: operator },
    );
    assert.deepEqual(unblocked.body, { e164: number, blocked: false, lifted: true });

    // Cancel another account's call.
    const f = await newAccount(server);
    await phone(server, f.number, ['confirm']);
    const { occurrenceId } = await createCall(f, {}, 30);
    assert.equal(
      (await call(server, 'POST', `/ops/occurrences/${occurrenceId}/cancel`, { token: reader }))
        .status,
      403,
    );
    const cancelled = await call(server, 'POST', `/ops/occurrences/${occurrenceId}/cancel`, {
      token: operator,
    });
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.deepEqual(cancelled.body, {
      id: occurrenceId,
      status: 'cancelled',
      account_id: f.accountId,
    });
    const again = await call(server, 'POST', `/ops/occurrences/${occurrenceId}/cancel`, {
      token: operator,
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'occurrence_terminal');
    const missing = await call(
      server,
      'POST',
      '/ops/occurrences/00000000-0000-4000-8000-000000000000/cancel',
      { token: operator },
    );
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'not_found');

    // Turn another account's endpoint back on.
    const endpoint = await f.api('POST', '/webhook-endpoints', {
      url: 'https://hooks.example.com/wake',
      event_types: ['occurrence.confirmed'],
    });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
    assert.equal(
      (await f.api('PATCH', `/webhook-endpoints/${endpoint.body.id}`, { enabled: false })).status,
      200,
    );
    const enabled = await call(
      server,
      'POST',
      `/ops/webhook-endpoints/${endpoint.body.id}/enable`,
      { token: operator },
    );
    assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
    assert.equal(enabled.body.enabled, true);
    const noEndpoint = await call(
      server,
      'POST',
      '/ops/webhook-endpoints/00000000-0000-4000-8000-000000000000/enable',
      {
        token: operator,
      },
    );
    assert.equal(noEndpoint.status, 404);

    // Send another account's event again.
    const sent = await f.api('POST', `/webhook-endpoints/${endpoint.body.id}/test`);
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    const redeliverPath = `/ops/webhook-endpoints/${endpoint.body.id}/deliveries/${sent.body.id}/redeliver`;
    assert.equal((await call(server, 'POST', redeliverPath, { token: reader })).status, 403);
    const resent = await call(server, 'POST', redeliverPath, { token: operator });
    assert.equal(resent.status, 202, JSON.stringify(resent.body));
    assertSchema('WebhookDeliveryOut', resent.body);
    assert.equal(resent.body.id, sent.body.id);

    const audit = await call(server, 'GET', '/ops/audit?limit=3', { token: reader });
    assert.equal(audit.status, 200);
    assertSchema('OpsAuditPage', audit.body);
    assert.equal(audit.body.items.length, 3);
    const next = await call(server, 'GET', `/ops/audit?cursor=${audit.body.next_cursor}`, {
      token: reader,
    });
    const all = [...audit.body.items, ...next.body.items];
    assert.deepEqual(
      all.map((e: any) => [e.action, e.target, e.email]),
      [
        ['redeliver_webhook', sent.body.id, OPERATOR],
        ['enable_webhook_endpoint', endpoint.body.id, OPERATOR],
        ['cancel_occurrence', occurrenceId, OPERATOR],
        ['unblock_number', number, OPERATOR],
        ['block_number', number, OPERATOR],
      ],
    );
    assert.equal(all[4].detail.reason, 'complaint');
    assert.equal(all[4].detail.note, 'reported by carrier');
    assert.equal(all[0].detail.endpoint_id, endpoint.body.id);
  });

  it('finds a number or an account and lists its calls', async () => {
    const f = await newAccount(server);
    await phone(server, f.number, ['confirm']);
    await createCall(f, {}, 1);
    await advance(server, 120);
    const me = await call(server, 'GET', '/me', { token: f.token });
    for (const q of [f.number, me.body.email]) {
      const r = await call(server, 'GET', `/ops/calls?q=${encodeURIComponent(q)}`, {
        token: reader,
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assertSchema('OpsCallsOut', r.body);
      assert.deepEqual(
        r.body.accounts.map((a: any) => a.id),
        [f.accountId],
      );
      assert.equal(r.body.calls.length, 1);
      assert.equal(r.body.calls[0].to, f.number);
      assert.equal(r.body.calls[0].status, 'confirmed');
    }
  });

  it('answers bad input with 400 validation_error, never 500', async () => {
    for (const path of [
      '/ops/forecast?hours=0',
      '/ops/forecast?hours=49',
      '/ops/forecast?rate=0',
      '/ops/forecast?warn_seconds=x',
      '/ops/lateness?from=2027-05-04T12:00:00Z&to=2027-05-01T12:00:00Z',
      '/ops/lateness?from=2027-04-01T00:00:00Z&to=2027-05-01T00:00:00Z',
      '/ops/lateness?from=yesterday',
      '/ops/lateness?from=2027-05-01T12:00:00Z&to=2027-05-04T12:00:01Z',
      '/ops/outcomes?to=2027-13-01T00:00:00Z',
      '/ops/calls?q=nobody',
      '/ops/calls',
      '/ops/calls?q=%2B12015550100&limit=101',
      '/ops/audit?cursor=abc',
      '/ops/audit?limit=0',
    ]) {
      const r = await call(server, 'GET', path, { token: operator });
      assert.equal(r.status, 400, `${path}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.code, 'validation_error', path);
    }
    const badNumber = await call(server, 'POST', '/ops/numbers/12345/block', {
      token: operator,
      body: {},
    });
    assert.ok([400, 404].includes(badNumber.status), String(badNumber.status));
    const badReason = await call(server, 'POST', '/ops/numbers/%2B12015550100/block', {
      token: operator,
      body: { reason: 'stop' },
    });
    assert.equal(badReason.status, 400);
  });
});
