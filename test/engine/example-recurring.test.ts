/**
 * examples/recurring.ts (issue 14, item 5) runs with plain `node --import tsx`, exits 0 and
 * prints exactly the calls the time oracle expects: one line per call placed, in order.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { oracleResolve } from './time-oracle.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DAY = 86_400_000;
const ZONE = 'America/New_York';

describe('examples/recurring.ts', () => {
  it('prints one line per call placed, in order, at the instants the time oracle gives', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'examples/recurring.ts'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const expected: { at: number; line: string }[] = [];
    const end = Date.parse('2027-03-21T00:00:00Z');
    for (let day = Date.UTC(2027, 2, 1) / DAY; day < Date.UTC(2027, 2, 22) / DAY; day++) {
      const weekday = new Date(day * DAY).getUTCDay(); // 0 = Sunday
      const series: [string, number][] = [['daily', 150]];
      if (weekday >= 1 && weekday <= 5) series.push(['weekday', 420]);
      for (const [label, minute] of series) {
        const { at } = oracleResolve(ZONE, day * DAY + minute * 60_000);
        if (at <= end)
          expected.push({
            at,
            line: `${label} ${new Date(at).toISOString().replace('.000Z', 'Z')}`,
          });
      }
    }
    expected.sort((a, b) => a.at - b.at);
    assert.deepEqual(
      out.trim().split('\n'),
      expected.map((e) => e.line),
    );
    assert.ok(
      out.includes('daily 2027-03-14T07:00:00Z'),
      'the spring-forward gap rings at 03:00 EDT',
    );
  });
});
