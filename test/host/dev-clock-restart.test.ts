/**
 * Dev mode, WAKEUP_CLOCK=virtual (issue 38, item 9): the virtual clock keeps its time across a
 * restart. A server moved three days on and stopped gracefully starts the next one at that
 * time, not back at the real now. A new clock starts at the real now (contract §1), and
 * WAKEUP_CLOCK_START still wins.
 * On SQLite, and on PostgreSQL with WAKEUP_TEST_DB=postgres.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, testPgDatabase } from '../helpers/server.js';

const DAY = 86_400_000;

async function clockNow(url: string): Promise<number> {
  const r = await fetch(`${url}/dev/clock`);
  assert.equal(r.status, 200);
  return Date.parse(((await r.json()) as { now: string }).now);
}

describe('dev mode: the virtual clock across a restart', () => {
  let dir: string;
  let db: string;
  let drop: (() => Promise<void>) | null = null;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wakeup-dev-clock-'));
    const pg = await testPgDatabase();
    db = pg?.url ?? join(dir, 'wakeup.sqlite');
    drop = pg ? () => pg.drop() : null;
  });
  after(async () => {
    await drop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a clock moved three days on starts there after a graceful restart', async () => {
    const first = await startTestServer({ env: { WAKEUP_DB: db } });
    const start = await clockNow(first.url);
    assert.ok(Math.abs(start - Date.now()) < 60_000, 'a new clock starts at the real now');
    const moved = await fetch(`${first.url}/dev/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_seconds: 3 * 86_400 }),
    });
    assert.equal(moved.status, 200);
    const there = await clockNow(first.url);
    assert.ok(there >= start + 3 * DAY);
    await first.close();

    const second = await startTestServer({ env: { WAKEUP_DB: db } });
    try {
      const resumed = await clockNow(second.url);
      assert.ok(
        resumed >= there,
        `resumed at ${new Date(resumed).toISOString()}, was ${new Date(there).toISOString()}`,
      );
      assert.ok(resumed < there + 60_000, 'and not further');
    } finally {
      await second.close();
    }
  });

  it('WAKEUP_CLOCK_START still sets the start', async () => {
    const server = await startTestServer({
      env: { WAKEUP_DB: db, WAKEUP_CLOCK_START: '2030-01-01T06:00:00Z' },
    });
    try {
      assert.equal(await clockNow(server.url), Date.parse('2030-01-01T06:00:00Z'));
    } finally {
      await server.close();
    }
  });
});
