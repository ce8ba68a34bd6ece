/**
 * Property: the SQLite overlay's per-account journal rows (engine/sqlite/account-rows.ts, linked
 * lists in a ring indexed by `seq`) list exactly what a plain list per account would, oldest
 * first, through bursts of appends that widen the ring, folds of the oldest rows, folds of a
 * whole account, rows taken out of the middle of a list, and the journal emptying (after which
 * `seq` may start again lower, as SQLite's rowid does).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { AccountRows } from '../../engine/sqlite/account-rows.js';
import { SCALE } from './time-oracle.js';

const ACCOUNTS = ['a', 'b', 'c', 'd', 'e'];

const step = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('append' as const),
      count: fc.integer({ min: 1, max: 700 }),
      accounts: fc.integer({ min: 1, max: ACCOUNTS.length }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('oldest' as const), count: fc.nat(900) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('account' as const), pick: fc.nat(4) }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('middle' as const), pick: fc.nat(4), at: fc.nat() }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('restart' as const), seq: fc.nat(50) }) },
);

describe('AccountRows', () => {
  it('lists each account’s rows as a plain list would', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const rows = new AccountRows();
        const model = new Map<string, number[]>();
        let seq = 1;
        const check = () => {
          for (const a of ACCOUNTS) assert.deepEqual(rows.of(a), model.get(a) ?? [], a);
        };
        const take = (account: string, s: number) => {
          rows.delete(account, s);
          const list = model.get(account)!;
          list.splice(list.indexOf(s), 1);
          if (list.length === 0) model.delete(account);
        };
        for (const s of steps) {
          if (s.op === 'append') {
            for (let k = 0; k < s.count; k++) {
              const account = ACCOUNTS[(seq * 7 + k) % s.accounts]!;
              rows.add(account, seq);
              model.set(account, [...(model.get(account) ?? []), seq]);
              seq++;
            }
          } else if (s.op === 'oldest') {
            // The fold takes the oldest rows of the whole journal, in commit order.
            const all = [...model].flatMap(([a, l]) => l.map((x) => [x, a] as const));
            all.sort((x, y) => x[0] - y[0]);
            for (const [x, a] of all.slice(0, s.count)) take(a, x);
          } else if (s.op === 'account') {
            const a = ACCOUNTS[s.pick]!;
            for (const x of [...(model.get(a) ?? [])]) take(a, x);
          } else if (s.op === 'middle') {
            const a = ACCOUNTS[s.pick]!;
            const list = model.get(a);
            if (list) take(a, list[s.at % list.length]!);
          } else if (model.size === 0) {
            // An empty journal: SQLite may hand out low keys again.
            seq = s.seq + 1;
          }
          check();
        }
      }),
      { numRuns: 100 * SCALE },
    );
  });
});
