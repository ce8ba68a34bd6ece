/**
 * Outbound webhooks survive kill -9 (issue 31): the server runs as a child process
 * (`host/main.ts`, virtual clock, simulated phones) on a SQLite file, or on a PostgreSQL schema
 * under WAKEUP_TEST_DB=postgres. A call is confirmed; the receiver takes the delivery's request
 * and never answers it (so the event is committed and not delivered), and the server is killed
 * with SIGKILL. Started again on the same database with its clock where it stopped, the server
 * sends the same event (same webhook-id, a signature `standardwebhooks` verifies) once the dead
 * process's lease on it expires, and only once. A second event, whose first attempt failed
 * before another kill, goes out at its retry after the restart.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { addVerifiedNumber, call, PHONE_TEST_ENV } from '../helpers/phone.js';
import { signIn, testPgDatabase } from '../helpers/server.js';
import { startReceiver, verifyDelivery, type Receiver } from '../helpers/webhook-receiver.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const START_MS = Date.parse('2027-05-04T12:00:00Z');
const NUMBER = '+12015550188';

interface Child {
  url: string;
  api: string;
  proc: ChildProcessWithoutNullStreams;
}

/** Starts `host/main.ts` on `db` with the virtual clock at `clockStart`; resolves once it listens. */
function startChild(db: string, clockStart: number): Promise<Child> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'host/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...PHONE_TEST_ENV,
      HOST: '127.0.0.1',
      PORT: '0',
      WAKEUP_DB: db,
      WAKEUP_DEV: '1',
      WAKEUP_CLOCK: 'virtual',
      WAKEUP_CLOCK_START: new Date(clockStart).toISOString(),
      WAKEUP_LOG_PRETTY: '0',
      WAKEUP_LOG_LEVEL: 'info',
      WAKEUP_RATE_LIMIT_ACCOUNT: '100000',
      WAKEUP_RATE_LIMIT_IP: '100000',
      WAKEUP_WEBHOOK_ALLOW_PRIVATE: '1',
      WAKEUP_WEBHOOK_ALLOW_HTTP: '1',
    },
  });
  let buffered = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('child did not start listening in time')),
      60_000,
    );
    proc.stdout.setEncoding('utf8');
    proc.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const text = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        try {
          const line = JSON.parse(text) as Record<string, unknown>;
          if (typeof line.url === 'string' && typeof line.api === 'string') {
            clearTimeout(timer);
            resolve({ url: line.url, api: line.api, proc });
          }
        } catch {
          /* not a log line */
        }
      }
    });
    proc.stderr.resume();
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`child exited with ${code} before listening`));
    });
  });
}

function kill(child: Child): Promise<void> {
  return new Promise((resolve) => {
    if (child.proc.exitCode !== null || child.proc.signalCode !== null) return resolve();
    child.proc.once('exit', () => resolve());
    child.proc.kill('SIGKILL');
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('outbound webhooks across kill -9', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wakeup-webhook-crash-'));
  const children: Child[] = [];
  let receiver: Receiver | undefined;
  let pg: Awaited<ReturnType<typeof testPgDatabase>> = null;
  after(async () => {
    for (const c of children) await kill(c);
    await receiver?.close();
    await pg?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an event committed but not delivered when the server dies arrives after the restart, once', async () => {
    pg = await testPgDatabase();
    const db = pg?.url ?? join(dir, 'wakeup.sqlite');
    receiver = await startReceiver();
    const r = receiver;
    const a = await startChild(db, START_MS);
    children.push(a);
    const { token } = await signIn(a);
    const endpoint = await call(a as any, 'POST', '/webhook-endpoints', {
      token,
      body: { url: `${r.url}/crash`, event_types: ['occurrence.confirmed'] },
    });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
    const secret: string = endpoint.body.secret;
    const n = await addVerifiedNumber(a as any, token, NUMBER);
    assert.equal(
      (
        await call(a as any, 'PUT', `/dev/phones/${encodeURIComponent(NUMBER)}`, {
          body: { answers: ['confirm'], ring_seconds: 5 },
        })
      ).status,
      204,
    );
    const s = await call(a as any, 'POST', '/schedules', {
      token,
      body: { kind: 'once', in_minutes: 1, phone_number_id: n.id },
    });
    assert.equal(s.status, 201, JSON.stringify(s.body));
    const occurrenceId: string = s.body.next_occurrence.id;

    // The receiver takes the request and never answers: the event is committed, not delivered.
    r.answer('hang');
    const moved = await call(a as any, 'POST', '/dev/clock', { body: { advance_seconds: 120 } });
    assert.equal(moved.status, 200);
    const occurrence = await call(a as any, 'GET', `/occurrences/${occurrenceId}`, { token });
    assert.equal(occurrence.body.status, 'confirmed');
    await r.waitFor((got) => got.length === 1, 15_000, 'the first (unanswered) attempt');
    const first = r.received[0]!;
    assert.equal(first.json.type, 'occurrence.confirmed');

    await kill(a);

    // Same database, the clock where it stopped; the receiver answers now.
    r.answer(204);
    const b = await startChild(db, Date.parse(moved.body.now));
    children.push(b);
    await sleep(1500);
    assert.equal(
      r.received.length,
      1,
      'the dead process still holds its lease (60 s of service time)',
    );
    assert.equal(
      (await call(b as any, 'POST', '/dev/clock', { body: { advance_seconds: 61 } })).status,
      200,
    );
    await r.waitFor((got) => got.length === 2, 15_000, 'the delivery after the restart');
    const second = r.received[1]!;
    assert.equal(second.id, first.id, 'the same webhook-id');
    assert.equal(second.body, first.body, 'the same body');
    verifyDelivery(secret, second);
    await sleep(1500);
    assert.equal(r.received.length, 2, 'delivered once after the restart');
    const log = await call(b as any, 'GET', `/webhook-endpoints/${endpoint.body.id}/deliveries`, {
      token,
    });
    assert.deepEqual(
      log.body.items.map((d: any) => [d.event_type, d.status, d.attempts, d.response_status]),
      [['occurrence.confirmed', 'delivered', 1, 204]],
      'the attempt the dead process started was never recorded',
    );

    // A pending retry survives a kill too.
    await call(b as any, 'PATCH', `/webhook-endpoints/${endpoint.body.id}`, {
      token,
      body: { url: 'http://127.0.0.1:9/closed' },
    });
    const test = await call(b as any, 'POST', `/webhook-endpoints/${endpoint.body.id}/test`, {
      token,
    });
    assert.equal(test.status, 202);
    let d: any;
    for (let i = 0; i < 100; i++) {
      d = (
        await call(
          b as any,
          'GET',
          `/webhook-endpoints/${endpoint.body.id}/deliveries?status=pending`,
          { token },
        )
      ).body.items[0];
      if (d?.attempts === 1) break;
      await sleep(100);
    }
    assert.deepEqual([d.attempts, d.error], [1, 'connection refused']);
    const clock = (await call(b as any, 'GET', '/dev/clock')).body.now as string;
    await kill(b);
    const c = await startChild(db, Date.parse(clock));
    children.push(c);
    await call(c as any, 'PATCH', `/webhook-endpoints/${endpoint.body.id}`, {
      token,
      body: { url: `${r.url}/crash` },
    });
    assert.equal(
      (await call(c as any, 'POST', '/dev/clock', { body: { advance_seconds: 10 } })).status,
      200,
    );
    await r.waitFor(
      (got) => got.some((x) => x.id === test.body.event_id),
      15_000,
      'the retried test event',
    );
    verifyDelivery(
      secret,
      r.received.find((x) => x.id === test.body.event_id)!,
    );
  });
});
