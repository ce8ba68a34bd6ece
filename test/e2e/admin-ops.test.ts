import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Sqlite from 'better-sqlite3';
import { signIn, startTestServer, testDbIsPostgres } from '../helpers/server.js';
import { req } from '../helpers/http.js';

/** Runs `host/admin.ts` as a process against `db`; resolves with its exit code and output. */
function admin(
  db: string,
  ...args: string[]
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'host/admin.ts', ...args], {
      env: { ...process.env, WAKEUP_DB: db },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += String(c)));
    child.stderr.on('data', (c: Buffer) => (stderr += String(c)));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const CALLS = 2000;

describe('admin commands', () => {
  it('backs up the database while the server dispatches a spike of calls; the copy passes integrity_check', async (t) => {
    if (testDbIsPostgres()) {
      t.skip('admin backup copies the SQLite file; PostgreSQL is backed up with pg_dump (README)');
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'wakeup-backup-'));
    const server = await startTestServer({ env: { WAKEUP_DAILY_CAP: '100000' } });
    try {
      const { account } = await signIn(server);
      const { db, runtime, clock } = server.running.deps;
      await db.run('UPDATE accounts SET trial_calls_included = ? WHERE id = ?', [
        CALLS * 2,
        account.id,
      ]);
      const due = clock.now() + 60_000;
      for (let i = 0; i < CALLS; i++) {
        await runtime.schedule({
          accountId: account.id,
          to: `+1201555${String(1000 + i).padStart(4, '0')}`,
          scheduledAt: due,
        });
      }
      const placedBefore = runtime.stats.dispatched;
      // The spike: every call falls due and plays (dial, ring, answer, key 1) while the backup runs.
      let spikeEndedAt = 0;
      const spike = req(server.url, 'POST', '/dev/clock', { body: { advance_seconds: 600 } }).then(
        (r) => {
          spikeEndedAt = Date.now();
          return r;
        },
      );
      const backupFile = join(dir, 'copy.sqlite');
      const backupStartedAt = Date.now();
      const backup = await admin(server.dbFile, 'backup', backupFile);
      assert.equal(backup.status, 0, backup.stderr);
      assert.match(backup.stdout, /integrity_check ok/);
      assert.equal((await spike).status, 200);
      assert.ok(
        spikeEndedAt > backupStartedAt,
        'the spike was still running when the backup started',
      );
      assert.equal(runtime.stats.dispatched - placedBefore, CALLS, 'every call was placed');

      const copy = new Sqlite(backupFile, { readonly: true });
      try {
        assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
        assert.equal(
          (copy.prepare('SELECT COUNT(*) AS n FROM accounts').get() as { n: number }).n,
          1,
        );
        // A consistent snapshot: somewhere in the spike, with every occurrence present.
        const occurrences = copy.prepare('SELECT COUNT(*) AS n FROM occurrences').get() as {
          n: number;
        };
        assert.equal(occurrences.n, CALLS);
      } finally {
        copy.close();
      }
      // A backup never overwrites.
      const again = await admin(server.dbFile, 'backup', backupFile);
      assert.equal(again.status, 2);
      assert.match(again.stderr, /exists/);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists accounts, shows usage, refuses to restore under a running server, and restores once it stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wakeup-restore-'));
    const dbFile = join(dir, 'live.sqlite');
    const backupFile = join(dir, 'backup.sqlite');
    let server = await startTestServer({ env: { WAKEUP_DB: dbFile } });
    try {
      const first = await signIn(server, 'first@example.com');
      const accounts = await admin(dbFile, 'accounts');
      assert.equal(accounts.status, 0, accounts.stderr);
      assert.match(
        accounts.stdout,
        new RegExp(
          `${first.account.id}  first@example\\.com  created \\d{4}-\\d{2}-\\d{2}  trial until`,
        ),
      );
      assert.match(accounts.stdout, /^1 account$/m);
      const usage = await admin(dbFile, 'usage', 'First@Example.com');
      assert.equal(usage.status, 0, usage.stderr);
      assert.match(usage.stdout, /calls used {6}0 of 5 \(5 left\)/);
      assert.match(usage.stdout, /placed today {4}0/);
      assert.equal((await admin(dbFile, 'usage', 'nobody@example.com')).status, 2);

      assert.equal((await admin(dbFile, 'backup', backupFile)).status, 0);
      await signIn(server, 'second@example.com');
      const refused = await admin(dbFile, 'restore', backupFile);
      assert.equal(refused.status, 2);
      assert.match(
        refused.stderr,
        /open in another process .*stop the server first; nothing restored/,
      );

      await server.close();
      const restored = await admin(dbFile, 'restore', backupFile);
      assert.equal(restored.status, 0, restored.stderr);
      const saved = /kept as (\S+)$/m.exec(restored.stdout)?.[1];
      assert.ok(saved && existsSync(saved), 'the replaced database is kept');
      server = await startTestServer({ env: { WAKEUP_DB: dbFile } });
      const list = await admin(dbFile, 'accounts');
      assert.match(list.stdout, /first@example\.com/);
      assert.doesNotMatch(list.stdout, /second@example\.com/);
      // The restored database serves: the first account signs in again.
      assert.equal((await signIn(server, 'first@example.com')).account.id, first.account.id);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it(
    'on PostgreSQL, accounts reads the server database; backup and restore refuse and name pg_dump',
    {
      skip:
        !testDbIsPostgres() &&
        'a PostgreSQL case: runs with the HTTP suite on PostgreSQL (WAKEUP_TEST_DB=postgres)',
    },
    async () => {
      const server = await startTestServer();
      try {
        const { account } = await signIn(server, 'pg-admin@example.com');
        const accounts = await admin(server.dbFile, 'accounts');
        assert.equal(accounts.status, 0, accounts.stderr);
        assert.match(accounts.stdout, new RegExp(`${account.id}  pg-admin@example\\.com`));
        for (const command of ['backup', 'restore']) {
          const r = await admin(server.dbFile, command, '/tmp/never-written.sqlite');
          assert.equal(r.status, 2, command);
          assert.match(r.stderr, /SQLite only.*pg_dump/, command);
        }
      } finally {
        await server.close();
      }
    },
  );

  it('prints its usage', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'host/admin.ts', '--help'], {
      encoding: 'utf8',
    });
    assert.equal(r.status, 0);
    assert.match(r.stdout, /backup <file>/);
    assert.match(r.stdout, /restore <file>/);
  });
});
