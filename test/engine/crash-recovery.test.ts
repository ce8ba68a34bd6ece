import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { PlaceCallRequest, Store, Telephony } from '../../engine/index.js';
import { MemoryStore, MemoryTelephony, VirtualClock } from '../../engine/sim/index.js';
import { openSqliteDatabase } from '../../host/db/open.js';
import { createSqliteStore } from '../../engine/sqlite/index.js';
import { harness, MIN, T0 } from './harness.js';

/**
 * A process that dies at the worst moment: its telephony either never reaches the provider
 * (crash after the intent is stored, before the request leaves) or reaches it and never
 * hears back (crash after the provider accepted, before the answer is stored).
 */
function dyingTelephony(): Telephony & { asked: PlaceCallRequest[] } {
  const asked: PlaceCallRequest[] = [];
  return {
    asked,
    placeCall: (request) => {
      asked.push(request);
      return new Promise(() => {}); // the process is gone: no answer, ever
    },
    hangUp: async () => {},
    onEvent: () => {},
  };
}

const stores: [string, () => { store: Store; reopen: () => Store; close: () => void }][] = [
  [
    'MemoryStore',
    () => {
      const store = new MemoryStore();
      return { store, reopen: () => store, close: () => {} };
    },
  ],
  [
    'SqliteStore (file reopened)',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'wakeup-crash-'));
      const file = join(dir, 'db.sqlite');
      let db = openSqliteDatabase(file).raw;
      return {
        store: createSqliteStore(db),
        reopen: () => {
          db.close();
          db = openSqliteDatabase(file).raw;
          return createSqliteStore(db);
        },
        close: () => {
          db.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
];

for (const [name, make] of stores) {
  describe(`crash recovery (${name})`, () => {
    for (const reach of [false, true]) {
      it(`stopped between storing the intent and ${reach ? 'hearing the provider' : 'calling the provider'}: a restart places exactly one call`, async () => {
        const s = make();
        try {
          const clock = new VirtualClock(T0 - MIN);
          const dying = dyingTelephony();
          const first = await harness({}, { clock, store: s.store, telephony: dying });
          const o = await first.schedule();
          const advancing = clock.advance(T0); // the tick never finishes: its call never answers
          await new Promise((r) => setTimeout(r, 20));
          assert.equal(dying.asked.length, 1);
          assert.equal(
            (await first.occurrence(o.id)).status,
            'dispatching',
            'intent stored before the provider was asked',
          );
          await first.runtime.stop({ drain: false }); // crash
          void advancing;

          const store = s.reopen();
          const clock2 = new VirtualClock(T0 + 2000);
          const phones = new MemoryTelephony({ clock: clock2 });
          // In the second case the request reached the provider before the crash: it placed the call.
          if (reach) await phones.placeCall(dying.asked[0]!);
          const second = await harness({}, { clock: clock2, store, phones });
          await second.at(T0 + 5 * MIN);
          assert.equal(phones.calls.length, 1, 'exactly one call placed');
          assert.equal(
            phones.requests.length,
            reach ? 2 : 1,
            'asked again with the same key when the first request may have arrived',
          );
          assert.ok(
            phones.requests.every((r) => r.idempotencyKey === phones.requests[0]!.idempotencyKey),
          );
          const [a] = await second.attempts(o.id);
          assert.equal((await second.attempts(o.id)).length, 1);
          assert.equal(a!.idempotencyKey, phones.requests[0]!.idempotencyKey);
          assert.equal((await second.occurrence(o.id)).status, 'confirmed');
          await second.runtime.stop();
        } finally {
          s.close();
        }
      });
    }

    it('a call the provider acknowledged is not placed again after a restart', async () => {
      const s = make();
      try {
        const clock = new VirtualClock(T0 - MIN);
        const phones = new MemoryTelephony({ clock });
        phones.setPhone('+14155550123', 'confirm', 30);
        const first = await harness({}, { clock, store: s.store, phones });
        const o = await first.schedule();
        await first.at(T0 + 3000);
        assert.equal((await first.occurrence(o.id)).status, 'calling');
        await first.runtime.stop({ drain: false });
        const second = await harness({}, { clock, store: s.reopen(), phones });
        await second.at(T0 + 5 * MIN);
        assert.equal(phones.requests.length, 1);
        assert.equal((await second.occurrence(o.id)).status, 'confirmed');
        await second.runtime.stop();
      } finally {
        s.close();
      }
    });

    it('a fallback text decided before a crash is sent after the restart, once', async () => {
      const s = make();
      try {
        const clock = new VirtualClock(T0 + 11 * MIN);
        const first = await harness({}, { clock, store: s.store });
        // Messaging that never answers (the process dies while sending).
        (first.messaging as unknown as { sendText: () => Promise<never> }).sendText = () =>
          new Promise(() => {});
        const o = await first.schedule({ smsFallback: true });
        void clock.advance(T0 + 11 * MIN + 1);
        await new Promise((r) => setTimeout(r, 20));
        assert.equal((await first.occurrence(o.id)).fallbackState, 'pending');
        await first.runtime.stop({ drain: false });
        const second = await harness(
          {},
          { clock: new VirtualClock(T0 + 12 * MIN), store: s.reopen() },
        );
        await second.runtime.idle();
        assert.equal(second.messaging.texts.length, 1);
        assert.equal(second.messaging.texts[0]!.idempotencyKey, `fallback:${o.id}`);
        assert.equal((await second.occurrence(o.id)).fallbackState, 'sent');
        await second.runtime.stop();
      } finally {
        s.close();
      }
    });
  });
}
