/**
 * Upgrading with data in place: the service on a SQLite database made by the commit before the
 * dispatch journal (7b5c6cd, test/host/fixtures/db-7b5c6cd.sqlite: an account with a verified
 * number, one call that rang and was confirmed, two one-off calls pending for 2027-05-05 07:00
 * Paris and a weekly one for Wednesdays 06:30, made through its HTTP API on the virtual clock).
 * The new code opens it (the store adds its journal table), keeps the history and rings every
 * pending call once at its instant.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { call } from '../helpers/phone.js';
import { startTestServer } from '../helpers/server.js';

const FIXTURE = new URL('./fixtures/db-7b5c6cd.sqlite', import.meta.url).pathname;
/** The fixture's session token (its account signed in as old@example.com). */
const TOKEN = 'wus_LlJ6Is2AOYtW08f9Zvul2bEEpgWe0mPRMFVIAHBC3wBIMAkO0vq';

describe('upgrade from the database of the commit before the journal', () => {
  it('keeps the history and rings each pending call once at its instant', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wakeup-upgrade-'));
    const file = join(dir, 'wakeup.sqlite');
    copyFileSync(FIXTURE, file);
    const server = await startTestServer({
      env: { WAKEUP_DB: file, WAKEUP_CLOCK_START: '2027-05-04T12:05:00Z' },
    });
    try {
      const list = async () => {
        const r = await call(server, 'GET', '/occurrences?limit=20', { token: TOKEN });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        return (r.body.items as any[]).map(
          (o) => `${o.label} ${o.status} ${o.scheduled_at} ${o.attempt_count}`,
        );
      };
      assert.deepEqual(await list(), [
        'History confirmed 2027-05-04T12:01:00Z 1',
        'Weekly pending 2027-05-05T04:30:00Z 0',
        'Pending pending 2027-05-05T05:00:00Z 0',
        'Pending pending 2027-05-05T05:00:00Z 0',
      ]);
      const moved = await call(server, 'POST', '/dev/clock', {
        body: { to: '2027-05-05T05:03:00Z' },
      });
      assert.equal(moved.status, 200);
      assert.deepEqual(await list(), [
        'History confirmed 2027-05-04T12:01:00Z 1',
        'Weekly confirmed 2027-05-05T04:30:00Z 1',
        'Pending confirmed 2027-05-05T05:00:00Z 1',
        'Pending confirmed 2027-05-05T05:00:00Z 1',
        'Weekly pending 2027-05-12T04:30:00Z 0',
      ]);
      const calls = await call(server, 'GET', '/calls', { token: TOKEN });
      assert.deepEqual(
        (calls.body.items as any[]).map((c) => `${c.status} ${c.requested_at}`),
        [
          'confirmed 2027-05-05T05:00:00Z',
          'confirmed 2027-05-05T05:00:00Z',
          'confirmed 2027-05-05T04:30:00Z',
          'confirmed 2027-05-04T12:01:00Z',
        ],
      );
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
