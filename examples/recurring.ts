/**
 * Two recurring series in the engine: "weekday" rings Monday to Friday at 07:00 and "daily"
 * every day at 02:30, both in America/New_York from 2027-03-01, on a virtual clock moved
 * from 2027-03-01T00:00:00Z to 2027-03-21T00:00:00Z (the clocks spring forward on
 * 2027-03-14: 02:30 does not exist that night and rings at 03:00 EDT). The engine makes each
 * next occurrence itself when one finishes. Prints one line per call placed, in order:
 * `<series label> <UTC instant>`.
 *
 * Run: node --import tsx examples/recurring.ts
 * (imports only the engine's public entries: `wakeup/engine` and `wakeup/engine/sim`; an app
 * that installed the package imports `@wakeup/engine` and `@wakeup/engine/sim`.)
 */
import { createRuntime, type Telephony, type WeeklyRecurrence } from 'wakeup/engine';
import { MemoryStore, MemoryTelephony, VirtualClock } from 'wakeup/engine/sim';

const clock = new VirtualClock(Date.parse('2027-03-01T00:00:00Z'));
const store = new MemoryStore();
let seq = 0;
const ids = { uuid: () => `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}` };

// A console telephony: the simulated phone answers and presses 1; each call placed is printed
// with the label of the series it belongs to (looked up through the Store port).
const phones = new MemoryTelephony({ clock });
const telephony: Telephony = {
  async placeCall(request) {
    const at = clock.now();
    const { occurrences } = await store.load({ attempts: [request.idempotencyKey] });
    console.log(
      `${occurrences[0]?.label ?? '?'} ${new Date(at).toISOString().replace('.000Z', 'Z')}`,
    );
    return phones.placeCall(request);
  },
  hangUp: (callId, options) => phones.hangUp(callId, options),
  onEvent: (handler) => phones.onEvent(handler),
};

const runtime = createRuntime({ clock, ids, store, telephony });
await runtime.start();

const weekly = (
  localTime: string,
  daysOfWeek: WeeklyRecurrence['daysOfWeek'],
): WeeklyRecurrence => ({
  kind: 'weekly',
  timezone: 'America/New_York',
  localTime,
  daysOfWeek,
  startDate: '2027-03-01',
  endDate: null,
  pausedUntil: null,
  skipDates: [],
});
await runtime.saveSeries({
  accountId: 'me',
  to: '+14155550123',
  label: 'weekday',
  rule: weekly('07:00', ['mon', 'tue', 'wed', 'thu', 'fri']),
});
await runtime.saveSeries({
  accountId: 'me',
  to: '+14155550123',
  label: 'daily',
  rule: weekly('02:30', ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']),
});

await clock.advance(Date.parse('2027-03-21T00:00:00Z')); // every timer due until then runs, in order
await runtime.stop();
