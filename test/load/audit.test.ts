/**
 * The crash loop's audit (test/load/audit.ts) must be able to fail: a doubled call, a call
 * no attempt owns, an attempt that recorded another call, a lost occurrence and an
 * unfinished one are each reported. Seeded through the same module as the crash loop.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openSqliteDatabase } from '../../host/db/open.js';
import { audit } from './audit.js';
import { seedDueCalls } from './seed.js';

describe('crash loop audit', () => {
  it('reports doubled, unknown and mismatched calls, and lost and unfinished occurrences', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wakeup-audit-'));
    try {
      const file = join(dir, 'db.sqlite');
      const db = openSqliteDatabase(file);
      const now = Date.parse('2027-05-04T07:00:00Z');
      const batch = await seedDueCalls(db, { n: 3, dueAt: now, now, batch: 0 });
      const [first, second, third] = batch.occurrenceIds as [string, string, string];
      // Two attempts as the runtime writes them: one with its call recorded, one whose call is another's.
      const insert = db.raw.prepare(
        `INSERT INTO attempts (id, occurrence_id, kind, n, status, to_e164, due_at, created_at, provider_call_id,
           idempotency_key, ring_timeout_seconds, updated_at)
         VALUES (?, ?, 'first', 1, ?, '+12010000000', ?, ?, ?, ?, 15, ?)`,
      );
      insert.run('att-1', first, 'confirmed', now, now, 'CA1', 'att-1', now);
      insert.run('att-2', second, 'ringing', now, now, 'CA9', 'att-2', now);
      db.raw
        .prepare(
          `UPDATE occurrences SET status = 'confirmed', next_due_at = NULL, finished_at = ? WHERE id = ?`,
        )
        .run(now, first);
      // The third is lost: unfinished, with no next instant.
      db.raw.prepare('UPDATE occurrences SET next_due_at = NULL WHERE id = ?').run(third);
      await db.close();

      const clean = await audit(file, [first], { 'att-1': ['CA1'] });
      assert.deepEqual(
        [clean.duplicates, clean.unknownCalls, clean.lost, clean.unfinished, clean.integrity],
        [0, 0, 0, 0, 'ok'],
      );

      const a = await audit(file, [...batch.occurrenceIds, 'never-seeded'], {
        'att-1': ['CA1', 'CA2'],
        'att-2': ['CA3'],
        stray: ['CA4'],
      });
      assert.equal(a.duplicates, 1, 'att-1 dialled twice');
      assert.deepEqual(a.duplicateKeys, ['att-1']);
      assert.equal(a.unknownCalls, 1, 'a call no attempt owns');
      assert.equal(a.mismatched, 1, 'att-2 recorded CA9, the fake holds CA3 for it');
      assert.equal(a.unfinished, 3, 'the second (still due), the third and the missing one');
      assert.equal(a.lost, 2, 'the third (no next instant) and the missing one');
      assert.deepEqual(a.lostIds, [third, 'never-seeded']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
