/**
 * Issue 18, item 5 (sign-in): challenge rows with no code and no lock are removed; one
 * client address gets at most 20 code emails an hour across addresses; a flood of wrong
 * code checks from one address cannot starve another client's sign-in (measured: the real
 * sign-in answers in under a second while 600 wrong checks are in flight).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { startTestServer } from '../helpers/server.js';
import { req } from '../helpers/http.js';

const from = (ip: string) => ({ 'x-forwarded-for': ip });

describe('sign-in hardening', () => {
  it('rows left by wrong guesses at addresses with no code are removed once idle', async () => {
    const server = await startTestServer();
    try {
      const rows = async () =>
        (
          (await server.running.deps.db.get('SELECT COUNT(*) AS n FROM email_sign_in')) as {
            n: number;
          }
        ).n;
      for (let i = 0; i < 50; i++) {
        const r = await req(server.api, 'POST', '/auth/email/verify', {
          body: { email: `nobody-${i}@example.com`, code: '123456', client: 'app' },
        });
        assert.equal(r.status, 400);
      }
      assert.equal(await rows(), 50, 'the wrong-code counts are kept while they matter');
      await req(server.url, 'POST', '/dev/clock', { body: { advance_seconds: 16 * 60 } });
      await req(server.api, 'POST', '/auth/email/verify', {
        body: { email: 'last@example.com', code: '123456', client: 'app' },
      });
      assert.equal(await rows(), 1, 'only the newest is left');
      // A pending code is kept however long it waits to expire.
      assert.equal(
        (
          await req(server.api, 'POST', '/auth/email/start', {
            body: { email: 'keep@example.com' },
          })
        ).status,
        202,
      );
      await req(server.url, 'POST', '/dev/clock', { body: { advance_seconds: 9 * 60 } });
      await req(server.api, 'POST', '/auth/email/verify', {
        body: { email: 'other@example.com', code: '123456', client: 'app' },
      });
      assert.ok(
        await server.running.deps.db.get(
          "SELECT 1 FROM email_sign_in WHERE email = 'keep@example.com'",
        ),
      );
    } finally {
      await server.close();
    }
  });

  it('one client address gets at most 20 code emails an hour, across addresses', async () => {
    const server = await startTestServer({
      env: { WAKEUP_TRUST_PROXY: '1', WAKEUP_SIGN_IN_CODES_PER_CLIENT: '20' },
    });
    try {
      let admitted = 0;
      for (let i = 0; i < 30; i++) {
        const r = await req(server.api, 'POST', '/auth/email/start', {
          body: { email: `victim-${i}@example.com` },
          headers: from('203.0.113.5'),
        });
        if (r.status === 202) admitted++;
        else assert.equal(r.body.code, 'rate_limited');
      }
      assert.equal(admitted, 20);
      const other = await req(server.api, 'POST', '/auth/email/start', {
        body: { email: 'me@example.com' },
        headers: from('198.51.100.1'),
      });
      assert.equal(other.status, 202, 'another client is not affected');
    } finally {
      await server.close();
    }
  });

  it('a real sign-in is not starved (answered in seconds, not after the flood) during a flood of 600 wrong checks from one address', async (t) => {
    const server = await startTestServer({
      env: { WAKEUP_TRUST_PROXY: '1', WAKEUP_SIGN_IN_CHECKS_PER_CLIENT: '30' },
    });
    try {
      const email = 'real@example.com';
      assert.equal(
        (
          await req(server.api, 'POST', '/auth/email/start', {
            body: { email },
            headers: from('198.51.100.1'),
          })
        ).status,
        202,
      );
      const outbox = await req(server.url, 'GET', `/dev/outbox?to=${email}&channel=email`);
      const code = outbox.body.items[0].code as string;

      const flood = Array.from({ length: 600 }, () =>
        req(server.api, 'POST', '/auth/email/verify', {
          body: { email: `${randomUUID()}@example.com`, code: '000000', client: 'app' },
          headers: from('203.0.113.66'),
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 500)); // the flood is in flight, queued at the server
      const started = performance.now();
      const real = await req(server.api, 'POST', '/auth/email/verify', {
        body: { email, code, client: 'app' },
        headers: from('198.51.100.1'),
      });
      const ms = performance.now() - started;
      const answers = await Promise.all(flood);
      assert.equal(real.status, 200, real.text);
      const statuses = new Map<number, number>();
      for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      t.diagnostic(
        `real sign-in ${ms.toFixed(0)} ms during the flood; flood answers ${JSON.stringify([...statuses])}`,
      );
      // Starved, the real sign-in would wait behind the flood's hashes (600 of them, some 30 s).
      // The bound sits far from that and far above the usual figure (0.35 s on SQLite, 1-2 s on
      // PostgreSQL, whose rate windows take round trips through the same pool: decision 0013),
      // so that a machine busy with other work does not fail it; the figure is in the diagnostic.
      assert.ok(ms < 10_000, `real sign-in took ${ms.toFixed(0)} ms`);
      assert.ok((statuses.get(429) ?? 0) >= 560, 'most of the flood is refused before any hashing');
      assert.ok(![...statuses.keys()].some((s) => s >= 500));
    } finally {
      await server.close();
    }
  });
});
