/**
 * The one-time code mechanism (host/verification/code.ts) through its public functions, with
 * an in-memory store and a fake clock (a number moved by hand). The HTTP suites of sign-in,
 * account deletion, phone verification and the demo test each use of it over the API.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  afterWrongTry,
  hashCode,
  issueCode,
  liveCode,
  matchCode,
  newCode,
  runningLock,
  verifyCode,
  type CodeRules,
  type CodeState,
  type CodeStore,
  type HashRunner,
} from '../../host/verification/code.js';

const MINUTE = 60_000;
const RULES: CodeRules = { validMs: 10 * MINUTE, maxWrongTries: 5, lockMs: 15 * MINUTE };

/** A fake clock: time moves only when the test says so. */
function fakeClock(start = Date.UTC(2026, 0, 1, 7)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

/** A CodeStore in a Map, following the same rules as the SQL stores. */
function memoryStore(): CodeStore<string> & { rows: Map<string, CodeState> } {
  const rows = new Map<string, CodeState>();
  const empty = (): CodeState => ({
    codeHash: null,
    codeSalt: null,
    codeExpiresAt: null,
    failedCount: 0,
    lockedUntil: null,
  });
  return {
    rows,
    find: async (key) => rows.get(key) && { ...rows.get(key)! },
    async save(key, code, now) {
      const r = rows.get(key) ?? empty();
      const lockOver = r.lockedUntil !== null && r.lockedUntil <= now;
      rows.set(key, {
        codeHash: code.hash,
        codeSalt: code.salt,
        codeExpiresAt: code.expiresAt,
        failedCount: lockOver ? 0 : r.failedCount,
        lockedUntil: lockOver ? null : r.lockedUntil,
      });
    },
    async recordWrongTry(key, rules, now) {
      const r = rows.get(key) ?? empty();
      const wrong = afterWrongTry(r, rules, now);
      rows.set(key, {
        ...(wrong.discardCode ? { codeHash: null, codeSalt: null, codeExpiresAt: null } : r),
        failedCount: wrong.failedCount,
        lockedUntil: wrong.lockedUntil,
      });
      return wrong;
    },
    async consume(key, codeHash) {
      if (rows.get(key)?.codeHash !== codeHash) return false;
      rows.delete(key);
      return true;
    },
  };
}

/** A code other than `code`. */
const other = (code: string) => (code === '000000' ? '000001' : '000000');

describe('newCode() and issueCode(rules, now)', () => {
  it('makes 6-digit codes, leading zeros kept', () => {
    for (let i = 0; i < 200; i++) assert.match(newCode(), /^\d{6}$/);
  });

  it('stores a salted hash that expires validMs after now', async () => {
    const clock = fakeClock();
    const issued = await issueCode(RULES, clock.now());
    assert.equal(issued.expiresAt, clock.now() + 10 * MINUTE);
    assert.notEqual(issued.hash, issued.code);
    assert.equal((await hashCode(issued.code, issued.salt)).hash, issued.hash);
    assert.notEqual((await hashCode(issued.code)).salt, issued.salt, 'a new salt per code');
  });
});

describe('matchCode(code, stored)', () => {
  it('accepts the code and refuses any other', async () => {
    const stored = await hashCode('123456');
    assert.equal(await matchCode('123456', stored), true);
    assert.equal(await matchCode('123457', stored), false);
  });

  it('refuses (after hashing all the same) when there is no code, and never throws on odd hashes', async () => {
    assert.equal(await matchCode('123456', null), false);
    assert.equal(await matchCode('123456', { hash: 'abcd', salt: '00' }), false);
  });
});

describe('liveCode(state, now) and runningLock(state, now)', () => {
  it('a code is live until its expiry (exclusive); a lock runs until its end (exclusive)', () => {
    const s: CodeState = {
      codeHash: 'aa',
      codeSalt: 'bb',
      codeExpiresAt: 1000,
      failedCount: 0,
      lockedUntil: 2000,
    };
    assert.deepEqual(liveCode(s, 999), { hash: 'aa', salt: 'bb' });
    assert.equal(liveCode(s, 1000), null);
    assert.equal(liveCode(undefined, 0), null);
    assert.equal(runningLock(s, 1999), 2000);
    assert.equal(runningLock(s, 2000), null);
    assert.equal(runningLock(undefined, 0), null);
  });
});

describe('afterWrongTry(state, rules, now)', () => {
  it('counts up, and the limit discards the code and locks for lockMs', () => {
    assert.deepEqual(afterWrongTry({ failedCount: 3, lockedUntil: null }, RULES, 100), {
      failedCount: 4,
      lockedUntil: null,
      discardCode: false,
    });
    assert.deepEqual(afterWrongTry({ failedCount: 4, lockedUntil: null }, RULES, 100), {
      failedCount: 5,
      lockedUntil: 100 + 15 * MINUTE,
      discardCode: true,
    });
  });

  it('starts a fresh count once a lock is over', () => {
    assert.deepEqual(afterWrongTry({ failedCount: 5, lockedUntil: 100 }, RULES, 100), {
      failedCount: 1,
      lockedUntil: null,
      discardCode: false,
    });
  });

  it('without lockMs, the limit only ends the code (the demo)', () => {
    assert.deepEqual(
      afterWrongTry({ failedCount: 4, lockedUntil: null }, { ...RULES, lockMs: null }, 100),
      {
        failedCount: 5,
        lockedUntil: null,
        discardCode: true,
      },
    );
  });
});

describe('verifyCode(store, rules, key, code, now)', () => {
  it('accepts the right code once (single use)', async () => {
    const clock = fakeClock();
    const store = memoryStore();
    const issued = await issueCode(RULES, clock.now());
    await store.save('a', issued, clock.now());
    assert.deepEqual(await verifyCode(store, RULES, 'a', issued.code, clock.now()), {
      ok: true,
      value: true,
    });
    const again = await verifyCode(store, RULES, 'a', issued.code, clock.now());
    assert.equal(again.ok, false);
    assert.equal(
      !again.ok && again.locked === null && again.wrong.failedCount,
      1,
      'a used code counts as wrong',
    );
  });

  it('refuses an expired code and counts it as a wrong try', async () => {
    const clock = fakeClock();
    const store = memoryStore();
    const issued = await issueCode(RULES, clock.now());
    await store.save('a', issued, clock.now());
    clock.advance(10 * MINUTE);
    const r = await verifyCode(store, RULES, 'a', issued.code, clock.now());
    assert.deepEqual(r, {
      ok: false,
      locked: null,
      wrong: { failedCount: 1, lockedUntil: null, discardCode: false },
    });
  });

  it('locks after maxWrongTries wrong codes: even the right code and a new code are refused until the lock ends', async () => {
    const clock = fakeClock();
    const store = memoryStore();
    const issued = await issueCode(RULES, clock.now());
    await store.save('a', issued, clock.now());
    for (let i = 1; i <= 4; i++) {
      const r = await verifyCode(store, RULES, 'a', other(issued.code), clock.now());
      assert.deepEqual(r, {
        ok: false,
        locked: null,
        wrong: { failedCount: i, lockedUntil: null, discardCode: false },
      });
    }
    const fifth = await verifyCode(store, RULES, 'a', other(issued.code), clock.now());
    const until = clock.now() + 15 * MINUTE;
    assert.deepEqual(fifth, {
      ok: false,
      locked: null,
      wrong: { failedCount: 5, lockedUntil: until, discardCode: true },
    });

    clock.advance(15 * MINUTE - 1);
    assert.deepEqual(await verifyCode(store, RULES, 'a', issued.code, clock.now()), {
      ok: false,
      locked: until,
    });
    assert.equal(
      runningLock(await store.find('a'), clock.now()),
      until,
      'a new code must wait too',
    );

    clock.advance(1);
    const fresh = await issueCode(RULES, clock.now());
    await store.save('a', fresh, clock.now());
    assert.equal((await store.find('a'))!.failedCount, 0, 'the count starts again after the lock');
    assert.deepEqual(await verifyCode(store, RULES, 'a', fresh.code, clock.now()), {
      ok: true,
      value: true,
    });
  });

  it('a new code does not buy more guesses while the count runs', async () => {
    const clock = fakeClock();
    const store = memoryStore();
    await store.save('a', await issueCode(RULES, clock.now()), clock.now());
    for (let i = 0; i < 4; i++) await verifyCode(store, RULES, 'a', 'xxxxxx', clock.now());
    await store.save('a', await issueCode(RULES, clock.now()), clock.now());
    const r = await verifyCode(store, RULES, 'a', 'xxxxxx', clock.now());
    assert.equal(!r.ok && r.locked === null && r.wrong.lockedUntil, clock.now() + 15 * MINUTE);
  });

  it('counts a wrong try for a key that never had a code', async () => {
    const store = memoryStore();
    const r = await verifyCode(store, RULES, 'nobody', '123456', 0);
    assert.deepEqual(r, {
      ok: false,
      locked: null,
      wrong: { failedCount: 1, lockedUntil: null, discardCode: false },
    });
  });

  it('hashes once per check whether or not a code is live (the answer takes as long either way)', async () => {
    const store = memoryStore();
    let hashes = 0;
    const run: HashRunner = (work) => (hashes++, work());
    await verifyCode(store, RULES, 'nobody', '123456', 0, { run });
    assert.equal(hashes, 1);
    const issued = await issueCode(RULES, 0);
    await store.save('a', issued, 0);
    await verifyCode(store, RULES, 'a', issued.code, 0, { run });
    assert.equal(hashes, 2);
  });

  it("consumes through the use's own consume, and a lost race counts as wrong", async () => {
    const store = memoryStore();
    const issued = await issueCode(RULES, 0);
    await store.save('a', issued, 0);
    const won = await verifyCode(store, RULES, 'a', issued.code, 0, {
      consume: async (h) => ((await store.consume('a', h)) ? 'deleted' : undefined),
    });
    assert.deepEqual(won, { ok: true, value: 'deleted' });
    await store.save('a', issued, 0);
    const lost = await verifyCode(store, RULES, 'a', issued.code, 0, {
      consume: async () => undefined,
    });
    assert.equal(!lost.ok && lost.locked === null && lost.wrong.failedCount, 1);
  });
});
