/**
 * Nothing outside the engine's stores reads or writes the engine's tables (issue 29,
 * docs/decisions/0021): no SQL in host/ names `series`, `occurrences`, `attempts` or
 * `engine_journal` after a keyword that reads or writes a table; the host goes through the
 * engine's store (host/db/engine-store.ts: the Store, its read model, its maintenance writes).
 * The host's migrations are the exception: they bring a database made before a change of the
 * engine's tables along (host/db/migrate.ts). The `schedules` table is gone: a schedule is its
 * series. `npm run check:arch` keeps the imports of the engine's stores to engine-store.ts.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';

const root = new URL('../../', import.meta.url).pathname;
const ENGINE_TABLES = ['series', 'occurrences', 'attempts', 'engine_journal', 'schedules'];
const SQL = new RegExp(
  `\\b(FROM|JOIN|INTO|UPDATE|TABLE|EXISTS)\\s+(${ENGINE_TABLES.join('|')})\\b`,
  'g',
);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory())
      return /^(generated|migrations|migrations-pg)$/.test(name) ? [] : files(path);
    return /\.(ts|sql)$/.test(name) ? [path] : [];
  });
}

describe("the engine's tables belong to its stores", () => {
  it("no SQL of host/ (but its migrations) names the engine's tables", () => {
    const found: string[] = [];
    for (const file of files(join(root, 'host'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(SQL)) {
        const line = text.slice(0, m.index).split('\n').length;
        found.push(`${relative(root, file)}:${line}: ${m[0]}`);
      }
    }
    assert.deepEqual(found, []);
  });

  it('the check finds what it looks for', () => {
    assert.deepEqual(
      [
        ...'SELECT * FROM occurrences o LEFT JOIN series s; DELETE FROM attempts; UPDATE schedules SET x'.matchAll(
          SQL,
        ),
      ].map((m) => m[2]),
      ['occurrences', 'series', 'attempts', 'schedules'],
    );
  });
});
