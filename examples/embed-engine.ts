/**
 * Embedding the wake-up engine: an in-memory store, a console "telephony" whose phone
 * answers and presses 1, and a virtual clock, so the whole call plays out in a blink.
 *
 * Run: node --import tsx examples/embed-engine.ts
 *
 * Swap the pieces for real ones: `createSqliteStore(new Database(file), { createTables: true })`
 * for the store (`createSqliteStore` from `wakeup/engine/sqlite`, `Database` from
 * better-sqlite3), a provider adapter for the telephony, a system clock for the virtual one.
 */
import { randomUUID } from 'node:crypto';
import { createRuntime, type Telephony } from '../engine/index.js';
import { MemoryStore, MemoryTelephony, VirtualClock } from '../engine/sim/index.js';

const clock = new VirtualClock(Date.parse('2027-03-15T06:59:00Z'));
const at = () => new Date(clock.now()).toISOString().slice(11, 19);

// A console telephony: the simulated phones of engine/sim, with every request and event printed.
const phones = new MemoryTelephony({ clock });
phones.setPhone('+14155550123', ['snooze', 'confirm']); // press 2 on the first call, 1 on the next
const telephony: Telephony = {
  async placeCall(request) {
    console.log(`${at()}  placeCall to ${request.to} (key ${request.idempotencyKey.slice(0, 8)}…)`);
    return phones.placeCall(request);
  },
  hangUp: (callId, options) => {
    console.log(`${at()}  hangUp ${callId}${options?.say ? `: "${options.say}"` : ''}`);
    return phones.hangUp(callId, options);
  },
  onEvent: (handler) =>
    phones.onEvent((event) => {
      const detail =
        event.type === 'call.answered'
          ? ` by ${event.by}`
          : event.type === 'call.digits'
            ? ` ${event.digits}`
            : event.type === 'call.ended'
              ? ` (${event.reason})`
              : '';
      console.log(`${at()}  ${event.type}${detail}`);
      return handler(event);
    }),
};

const runtime = createRuntime({
  clock,
  ids: { uuid: randomUUID },
  store: new MemoryStore(),
  telephony,
});
runtime.on('occurrence:status', ({ occurrence, from }) =>
  console.log(
    `${at()}  occurrence ${from ?? 'new'} -> ${occurrence.status}${occurrence.outcomeReason ? ` (${occurrence.outcomeReason})` : ''}`,
  ),
);
await runtime.start();

const occurrence = await runtime.schedule({
  accountId: 'demo-account',
  to: '+14155550123',
  scheduledAt: Date.parse('2027-03-15T07:00:00Z'),
  greetingName: 'Sam',
  label: 'Gym',
  backupAlarm: true,
});
console.log(`${at()}  scheduled ${occurrence.id} for 07:00:00Z`);

await clock.advance(Date.parse('2027-03-15T07:30:00Z')); // every timer due until then runs, in order
await runtime.stop();
