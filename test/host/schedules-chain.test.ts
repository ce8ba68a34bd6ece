/**
 * The next-occurrence chain and the startup sweep: an enabled, active schedule always has
 * exactly one unfinished occurrence; when it finishes (confirmed, missed, cancelled...) the
 * next one is stored, never one more than the late-dispatch grace in the past; a crash
 * between the two steps is repaired at start.
 */
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { account, create, setup, withDatabase, NUMBER, type Fixture } from './schedules-fixture.js';
import { startTestServer, settledDb } from '../helpers/server.js';
import { call, PHONE_TEST_ENV } from '../helpers/phone.js';

const DAILY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

async function rows(
  f: Fixture,
  scheduleId: string,
): Promise<Array<{ status: string; at: string; reason: string | null }>> {
  return (
    await (
      await settledDb(f.server)
    ).all<{ status: string; scheduled_at: number; outcome_reason: string | null }>(
      'SELECT status, scheduled_at, outcome_reason FROM occurrences WHERE schedule_id = ? ORDER BY scheduled_at',
      [scheduleId],
    )
  ).map((r) => ({
    status: r.status,
    at: new Date(r.scheduled_at).toISOString().replace('.000Z', 'Z'),
    reason: r.outcome_reason,
  }));
}

async function unfinished(f: Fixture, scheduleId: string): Promise<number> {
  const r = (await (
    await settledDb(f.server)
  ).get(
    "SELECT COUNT(*) AS n FROM occurrences WHERE schedule_id = ? AND status IN ('pending', 'dispatching', 'calling', 'waiting')",
    [scheduleId],
  )) as { n: number };
  return r.n;
}

describe('the next-occurrence chain', () => {
  let f: Fixture;
  afterEach(async () => {
    await f.server.close();
  });

  it('a daily call rings every day, with exactly one unfinished occurrence stored at every moment', async () => {
    f = await setup();
    const s = await create(f, {
      kind: 'recurring',
      days_of_week: DAILY,
      local_time: '07:00',
      end_date: '2027-03-13',
    });
    for (const at of [
      '2027-03-10T18:00:00Z',
      '2027-03-11T11:59:00Z',
      '2027-03-11T12:01:00Z',
      '2027-03-12T06:00:00Z',
      '2027-03-12T12:10:00Z',
    ]) {
      await f.clockTo(at);
      assert.equal(await unfinished(f, s.id), 1, at);
      const got = await f.api('GET', `/schedules/${s.id}`);
      assert.equal(got.body.status, 'active');
      assert.notEqual(got.body.next_occurrence, null);
    }
    await f.clockTo('2027-03-14T00:00:00Z');
    assert.deepEqual(await rows(f, s.id), [
      { status: 'confirmed', at: '2027-03-11T12:00:00Z', reason: 'confirmed' },
      { status: 'confirmed', at: '2027-03-12T12:00:00Z', reason: 'confirmed' },
      { status: 'confirmed', at: '2027-03-13T12:00:00Z', reason: 'confirmed' },
    ]);
    const done = await f.api('GET', `/schedules/${s.id}`);
    assert.deepEqual(
      [done.body.status, done.body.enabled, done.body.next_occurrence],
      ['completed', true, null],
    );
  });

  it('keeps the wall time across the spring-forward: 02:30 rings at 03:00 on the gap day only', async () => {
    f = await setup();
    const s = await create(f, {
      kind: 'recurring',
      days_of_week: ['sat', 'sun', 'mon'],
      local_time: '02:30',
    });
    await f.clockTo('2027-03-15T12:00:00Z');
    assert.deepEqual(
      (await rows(f, s.id)).map((r) => [r.status, r.at]),
      [
        ['confirmed', '2027-03-13T07:30:00Z'],
        ['confirmed', '2027-03-14T07:00:00Z'],
        ['confirmed', '2027-03-15T06:30:00Z'],
        ['pending', '2027-03-20T06:30:00Z'],
      ],
    );
  });

  it('a missed call and a cancelled call are followed by the next one; a one-off then completes', async () => {
    f = await setup();
    const r = await call(f.server, 'PUT', `/dev/phones/${encodeURIComponent(NUMBER)}`, {
      body: { answers: ['no_answer'] },
    });
    assert.equal(r.status, 204);
    const s = await create(f, { kind: 'recurring', days_of_week: DAILY, local_time: '07:00' });
    await f.clockTo('2027-03-11T13:00:00Z');
    const afterMiss = await f.api('GET', `/schedules/${s.id}`);
    assert.equal(afterMiss.body.next_occurrence.scheduled_at, '2027-03-12T12:00:00Z');
    const cancelled = await f.api(
      'POST',
      `/occurrences/${afterMiss.body.next_occurrence.id}/cancel`,
    );
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    const afterCancel = await f.api('GET', `/schedules/${s.id}`);
    assert.equal(afterCancel.body.next_occurrence.scheduled_at, '2027-03-13T12:00:00Z');
    assert.deepEqual(
      (await rows(f, s.id)).map((o) => [o.status, o.reason]),
      [
        ['missed', 'no_answer'],
        ['cancelled', 'cancelled'],
        ['pending', null],
      ],
    );

    const one = await create(f, { kind: 'once', in_minutes: 30 });
    assert.equal(
      (await f.api('POST', `/occurrences/${one.next_occurrence.id}/cancel`)).status,
      200,
    );
    const gone = await f.api('GET', `/schedules/${one.id}`);
    assert.deepEqual([gone.body.status, gone.body.next_occurrence], ['completed', null]);
  });

  it("a schedule of another account is not touched by this account's calls", async () => {
    f = await setup();
    const other = await account(f.server, { number: '+12015550111' });
    const mine = await create(f, { kind: 'once', in_minutes: 5 });
    const theirs = await create(other, {
      kind: 'recurring',
      days_of_week: DAILY,
      local_time: '09:00',
    });
    await f.advance(600);
    assert.equal((await f.api('GET', `/schedules/${mine.id}`)).body.status, 'completed');
    const still = await other.api('GET', `/schedules/${theirs.id}`);
    assert.equal(still.body.next_occurrence.id, theirs.next_occurrence.id);
  });
});

describe('restarts', () => {
  let dir: string;
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  async function serverOn(file: string, clockStart: string) {
    return startTestServer({
      env: { ...PHONE_TEST_ENV, WAKEUP_DB: file, WAKEUP_CLOCK_START: clockStart },
    });
  }

  it('the startup sweep stores the next occurrence a crash left missing', async () => {
    dir = mkdtempSync(join(tmpdir(), 'wakeup-sweep-'));
    const file = join(dir, 'wakeup.sqlite');
    let server = await serverOn(file, '2027-03-10T12:00:00Z');
    const f = await account(server);
    const daily = await create(f, { kind: 'recurring', days_of_week: DAILY, local_time: '07:00' });
    const weekly = await create(f, {
      kind: 'recurring',
      days_of_week: ['fri'],
      local_time: '07:00',
    });
    const once = await create(f, { kind: 'once', local_date: '2027-03-11', local_time: '07:00' });
    // The engine's journal folded into its tables, which the crash below edits.
    await settledDb(server);
    await server.close();
    // The crash: the first call finished, the process died before storing the next one.
    withDatabase(file, (db) => {
      db.prepare(
        "UPDATE occurrences SET status = 'confirmed', outcome_reason = 'confirmed', next_due_at = NULL, finished_at = scheduled_at WHERE id IN (?, ?)",
      ).run(daily.next_occurrence.id, once.next_occurrence.id);
      db.prepare('UPDATE series SET next_occurrence_id = NULL WHERE id = ?').run(weekly.id);
      db.prepare('DELETE FROM occurrences WHERE id = ?').run(weekly.next_occurrence.id);
    });
    server = await serverOn(file, '2027-03-10T12:00:00Z');
    // The server answers before its recovery ends (decision 0014): the repair is its last step.
    await server.running.deps.runtime.idle();
    try {
      const g = {
        ...f,
        server,
        api: (m: string, p: string, b?: unknown) =>
          call(server, m, p, { token: f.token, ...(b === undefined ? {} : { body: b }) }),
      };
      const d = await g.api('GET', `/schedules/${daily.id}`);
      assert.equal(d.body.status, 'active');
      assert.notEqual(d.body.next_occurrence.id, daily.next_occurrence.id);
      assert.equal(
        d.body.next_occurrence.scheduled_at,
        '2027-03-12T12:00:00Z',
        'the day after the finished one',
      );
      const w = await g.api('GET', `/schedules/${weekly.id}`);
      assert.equal(w.body.next_occurrence.scheduled_at, '2027-03-12T12:00:00Z');
      const o = await g.api('GET', `/schedules/${once.id}`);
      assert.deepEqual([o.body.status, o.body.next_occurrence], ['completed', null]);
    } finally {
      await server.close();
    }
  });

  it('after downtime the missed call ends late_dispatch and the next one is not in the past', async () => {
    dir = mkdtempSync(join(tmpdir(), 'wakeup-late-'));
    const file = join(dir, 'wakeup.sqlite');
    let server = await serverOn(file, '2027-03-10T12:00:00Z');
    const f = await account(server);
    const s = await create(f, { kind: 'recurring', days_of_week: DAILY, local_time: '07:00' });
    await server.close();
    // Down for three days: back on 2027-03-13 at 10:00 in New York.
    server = await serverOn(file, '2027-03-13T15:00:00Z');
    try {
      // The virtual clock runs timers already due when it is moved (the system clock at once).
      assert.equal(
        (await call(server, 'POST', '/dev/clock', { body: { advance_seconds: 1 } })).status,
        200,
      );
      const got = await call(server, 'GET', `/schedules/${s.id}`, { token: f.token });
      assert.equal(
        got.body.next_occurrence.scheduled_at,
        '2027-03-14T11:00:00Z',
        'Sunday 07:00 EDT, not the days that passed',
      );
      const occ = await (
        await settledDb(server)
      ).all(
        'SELECT status, outcome_reason FROM occurrences WHERE schedule_id = ? ORDER BY scheduled_at',
        [s.id],
      );
      assert.deepEqual(occ, [
        { status: 'missed', outcome_reason: 'late_dispatch' },
        { status: 'pending', outcome_reason: null },
      ]);
      const attempts = (await (
        await settledDb(server)
      ).get('SELECT COUNT(*) AS n FROM attempts')) as { n: number };
      assert.equal(attempts.n, 0, 'nothing rang late');
    } finally {
      await server.close();
    }
  });
});
