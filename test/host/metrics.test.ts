import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { advance, createCall, newAccount, phone, startCallsServer } from './calls-fixture.js';
import { startTestServer } from '../helpers/server.js';
import { req } from '../helpers/http.js';

/** The value of one sample line (`name{labels} value`), or undefined. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-zA-Z0-9_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe('GET /metrics', () => {
  it('counts requests by operation and status, calls placed, outcomes, lateness, texts and emails, runtime sizes and event-loop delay', async () => {
    const server = await startCallsServer();
    try {
      const f = await newAccount(server);
      await phone(server, f.number, ['confirm']);
      await createCall(f, {}, 1);
      // Still pending at the end, and armed: due within the hour that a PostgreSQL host claims
      // ahead under the virtual clock (its wheel holds only rows due before its next poll).
      await createCall(f, {}, 30);
      await advance(server, 120);
      await f.api('GET', '/me');
      await req(server.api, 'GET', '/no-such-thing');

      const r = await req(server.url, 'GET', '/metrics');
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      const t = r.text;
      assert.equal(
        sample(t, 'wakeup_http_requests_total', { operation: 'getMe', status: '200' }),
        1,
      );
      assert.ok(
        (sample(t, 'wakeup_http_requests_total', { operation: 'createSchedule', status: '201' }) ??
          0) >= 2,
      );
      assert.equal(
        sample(t, 'wakeup_http_requests_total', { operation: 'unmatched', status: '404' }),
        1,
      );
      assert.equal(
        sample(t, 'wakeup_http_request_duration_seconds_count', {
          operation: 'getMe',
          status: '200',
        }),
        1,
      );
      assert.equal(sample(t, 'wakeup_calls_placed_total', { kind: 'first' }), 1);
      assert.equal(
        sample(t, 'wakeup_call_outcomes_total', { kind: 'first', status: 'confirmed' }),
        1,
      );
      assert.equal(
        sample(t, 'wakeup_occurrence_outcomes_total', { status: 'confirmed', reason: 'confirmed' }),
        1,
      );
      assert.equal(sample(t, 'wakeup_dispatch_lateness_seconds_count'), 1);
      // On the virtual clock the call is handed over at its instant exactly.
      assert.equal(sample(t, 'wakeup_dispatch_lateness_seconds_bucket', { le: '0.005' }), 1);
      assert.ok(
        (sample(t, 'wakeup_messages_sent_total', { channel: 'email', result: 'ok' }) ?? 0) >= 1,
        'sign-in email',
      );
      assert.ok(
        (sample(t, 'wakeup_messages_sent_total', { channel: 'sms', result: 'ok' }) ?? 0) >= 1,
        'verification text',
      );
      assert.equal(sample(t, 'wakeup_runtime_in_flight'), 0);
      assert.ok((sample(t, 'wakeup_runtime_wheel_size') ?? 0) >= 1, 'the pending call is armed');
      assert.ok(sample(t, 'wakeup_runtime_paced') !== undefined);
      assert.ok(sample(t, 'nodejs_eventloop_lag_p99_seconds') !== undefined, 'event-loop delay');
    } finally {
      await server.close();
    }
  });

  it('asks for the bearer token when WAKEUP_METRICS_TOKEN is set', async () => {
    const token = 'metrics-token-0123456789';
    const server = await startTestServer({ env: { WAKEUP_METRICS_TOKEN: token } });
    try {
      const none = await req(server.url, 'GET', '/metrics');
      assert.equal(none.status, 401);
      assert.equal(none.body.code, 'unauthenticated');
      assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer/);
      assert.equal(
        (await req(server.url, 'GET', '/metrics', { token: 'metrics-token-wrong-00000' })).status,
        401,
      );
      const ok = await req(server.url, 'GET', '/metrics', { token });
      assert.equal(ok.status, 200);
      assert.match(ok.text, /wakeup_http_requests_total\{operation="metrics",status="401"\} 2/);
    } finally {
      await server.close();
    }
  });
});

describe('GET /livez', () => {
  it('answers beside /healthz and /readyz', async () => {
    const server = await startTestServer();
    try {
      for (const path of ['/livez', '/healthz', '/readyz'])
        assert.equal((await req(server.url, 'GET', path)).status, 200, path);
      assert.deepEqual((await req(server.url, 'GET', '/livez')).body, { status: 'ok' });
    } finally {
      await server.close();
    }
  });
});
