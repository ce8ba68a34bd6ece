/** The spike foretold (host/ops/spike.ts, `admin spike`): lateness of each minute's last call at the provider's rate. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { migrate } from '../../host/db/migrate.js';
import { openSqliteDatabase } from '../../host/db/open.js';
import { backlog, dueSeconds, projectMinutes, spikeLines } from '../../host/ops/spike.js';

const T0 = Date.UTC(2027, 2, 15, 7, 0, 0);

describe('admin spike: projected lateness', () => {
  it('a minute within the rate ends on time; 6,000 calls at 07:00 at 50/s end 119.98 s late and spill into 07:01', () => {
    const minutes = projectMinutes(
      [
        { second: T0 / 1000 - 60, calls: 100 },
        { second: T0 / 1000, calls: 6000 },
        { second: T0 / 1000 + 60, calls: 10 },
      ],
      50,
      T0 - 120_000,
    );
    assert.deepEqual(
      minutes.map((m) => [m.minute, m.calls, m.lastLateMs]),
      [
        [T0 - 60_000, 100, 1980], // 100 calls at 50/s: the last 1.98 s after its second
        [T0, 6000, 119_980],
        [T0 + 60_000, 10, 60_180],
      ],
    );
    const { lines, warnings } = spikeLines(minutes, {
      callsPerSecond: 50,
      warnMs: 60_000,
      top: 2,
      now: T0 - 120_000,
    });
    assert.equal(warnings, 2);
    assert.match(
      lines.find((l) => l.includes('07:00Z')) ?? '',
      /2027-03-15T07:00Z +6000 calls +last rings +120\.0 s late +WARNING/,
    );
    assert.equal(backlog([{ second: T0 / 1000, calls: 500 }], 50, T0).drainSeconds, 10);
  });

  it('reads the pending calls by second from the database, overdue ones as due now', async () => {
    const db = openSqliteDatabase(':memory:');
    await migrate(db);
    const due = await dueSeconds(db, T0, T0 + 86_400_000);
    assert.deepEqual(due, []);
    await db.close();
  });
});
