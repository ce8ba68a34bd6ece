/**
 * Crash during a call: the server runs as a child process (`host/main.ts`, virtual clock,
 * simulated phones) on a SQLite file; it is killed with SIGKILL while the phone rings, then
 * started again on the same file with its clock where it stopped. The occurrence is neither
 * lost (it is still there, still calling, and finishes) nor called twice: the log lines
 * `call placed` of both processes (one per call handed to the provider) name the attempt
 * once, and the restarted server places no call for it. A second call, still pending at the
 * crash, rings exactly once after the restart.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signIn } from '../helpers/server.js';
import { addVerifiedNumber, call, PHONE_TEST_ENV } from '../helpers/phone.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const START_MS = Date.parse('2027-05-04T12:00:00Z');
const NUMBER = '+12015550177';

/** A server child process and the JSON log lines it printed. */
interface Child {
  url: string;
  api: string;
  proc: ChildProcessWithoutNullStreams;
  lines: Array<Record<string, any>>;
}

/** Starts `host/main.ts` on `dbFile` with the virtual clock at `clockStart`; resolves once it listens. */
function startChild(dbFile: string, clockStart: number): Promise<Child> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'host/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...PHONE_TEST_ENV,
      HOST: '127.0.0.1',
      PORT: '0',
      WAKEUP_DB: dbFile,
      WAKEUP_DEV: '1',
      WAKEUP_CLOCK: 'virtual',
      WAKEUP_CLOCK_START: new Date(clockStart).toISOString(),
      WAKEUP_LOG_PRETTY: '0',
      WAKEUP_LOG_LEVEL: 'info',
      WAKEUP_RATE_LIMIT_ACCOUNT: '100000',
      WAKEUP_RATE_LIMIT_IP: '100000',
    },
  });
  const lines: Child['lines'] = [];
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
          const line = JSON.parse(text) as Record<string, any>;
          lines.push(line);
          if (typeof line.url === 'string' && typeof line.api === 'string') {
            clearTimeout(timer);
            resolve({ url: line.url, api: line.api, proc, lines });
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

/** `call placed` log lines of one attempt. */
function placed(child: Child, attemptId: string): Array<Record<string, any>> {
  return child.lines.filter((l) => l.msg === 'call placed' && l.attempt === attemptId);
}

describe('a crash during a call', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wakeup-crash-'));
  const dbFile = join(dir, 'wakeup.sqlite');
  const children: Child[] = [];
  after(async () => {
    for (const c of children) await kill(c);
    rmSync(dir, { recursive: true, force: true });
  });

  it('the restarted server neither loses the occurrence nor places its call twice', async () => {
    const a = await startChild(dbFile, START_MS);
    children.push(a);
    const { token } = await signIn(a);
    const n = await addVerifiedNumber(a as any, token, NUMBER);
    // Rings 40 s before answering: the crash comes while it rings.
    assert.equal(
      (
        await call(a as any, 'PUT', `/dev/phones/${encodeURIComponent(NUMBER)}`, {
          body: { answers: ['confirm'], ring_seconds: 40 },
        })
      ).status,
      204,
    );
    const s = await call(a as any, 'POST', '/schedules', {
      token,
      body: {
        kind: 'once',
        in_minutes: 1,
        phone_number_id: n.id,
        sms_fallback: true,
        retry_policy: { offsets_minutes: [] },
      },
    });
    assert.equal(s.status, 201, JSON.stringify(s.body));
    const occurrenceId: string = s.body.next_occurrence.id;
    // A second call, still pending at the crash: it must ring once, after the restart.
    const s2 = await call(a as any, 'POST', '/schedules', {
      token,
      body: { kind: 'once', in_minutes: 3, phone_number_id: n.id },
    });
    assert.equal(s2.status, 201, JSON.stringify(s2.body));
    const pendingId: string = s2.body.next_occurrence.id;

    const moved = await call(a as any, 'POST', '/dev/clock', { body: { advance_seconds: 70 } });
    assert.equal(moved.status, 200);
    const ringing = await call(a as any, 'GET', `/occurrences/${occurrenceId}`, { token });
    assert.equal(ringing.body.status, 'calling');
    assert.equal(ringing.body.attempts.length, 1);
    const attempt = ringing.body.attempts[0];
    assert.equal(attempt.status, 'ringing');
    assert.equal(placed(a, attempt.id).length, 1, 'the first server placed the call once');

    await kill(a);

    // Same database, the clock where it stopped.
    const b = await startChild(dbFile, Date.parse(moved.body.now));
    children.push(b);
    const after = await call(b as any, 'GET', `/occurrences/${occurrenceId}`, { token });
    assert.equal(after.status, 200, 'the occurrence survived the crash');
    assert.equal(after.body.status, 'calling');

    const later = await call(b as any, 'POST', '/dev/clock', {
      body: { advance_seconds: 10 * 60 },
    });
    assert.equal(later.status, 200);
    const done = await call(b as any, 'GET', `/occurrences/${occurrenceId}`, { token });
    // The simulated phone network died with the first process, so nobody answers the call it
    // was ringing: the watchdog ends it, and with no retries left the occurrence is missed.
    assert.deepEqual(
      [done.body.status, done.body.outcome_reason, done.body.attempt_count],
      ['missed', 'no_answer', 1],
    );
    assert.equal(done.body.attempts[0].id, attempt.id);
    assert.equal(done.body.attempts[0].status, 'no_answer');
    assert.notEqual(done.body.attempts[0].ended_at, null);
    assert.deepEqual(placed(b, attempt.id), [], 'the restarted server did not call again');

    const second = await call(b as any, 'GET', `/occurrences/${pendingId}`, { token });
    assert.deepEqual([second.body.status, second.body.attempt_count], ['confirmed', 1]);
    const secondAttempt = second.body.attempts[0].id;
    assert.deepEqual([placed(a, secondAttempt).length, placed(b, secondAttempt).length], [0, 1]);
    assert.equal(
      b.lines.filter((l) => l.msg === 'call placed').length,
      1,
      'the restarted server placed only the pending call',
    );

    const calls = await call(b as any, 'GET', '/calls', { token });
    assert.deepEqual(
      calls.body.items.map((x: any) => x.id),
      [secondAttempt, attempt.id],
    );
    const usage = await call(b as any, 'GET', '/me/usage', { token });
    assert.equal(usage.body.trial_calls_used, 2);
    // The fallback text went out once, from the restarted server (the first server's texts
    // are sealed under its own key and read back without a body).
    const outbox = await call(
      b as any,
      'GET',
      `/dev/outbox?channel=sms&to=${encodeURIComponent(NUMBER)}`,
    );
    assert.equal(
      outbox.body.items.filter((m: any) => /not confirmed/.test(m.body ?? '')).length,
      1,
    );
  });
});
