/**
 * A realistic morning for dev mode: `n` accounts, each with a verified
 * number and a daily wake-up call at a usual time (most at 07:00) in one of eight zones, made
 * through the schedules' own rules; each simulated phone answers as people do (most confirm,
 * some let it ring out, are busy or reach voicemail, a few fail at the provider). With the
 * virtual clock moved through the morning (POST /dev/clock), the operator's view has calls
 * placed, late ones, missed and failed ones to show, and tomorrow's spike ahead.
 * @module
 */
import type { Clock, Ids } from '../../engine/index.js';
import type { Principal } from '../auth/principal.js';
import { insertAccount } from '../db/accounts.js';
import { insertPhoneNumber, markVerified } from '../db/phone-numbers.js';
import type { Db } from '../db/sql.js';
import type { ScheduleIn } from '../generated/openapi.js';
import type { PhoneBehaviour, SimulatedPhones } from '../ports/telephony.js';

/** What {@link seedMorning} needs. */
export interface SeedMorningDeps {
  db: Db;
  clock: Clock;
  ids: Ids;
  /** The schedules' create (host/schedules/service.ts), as the app calls it. */
  createSchedule(caller: Principal, body: ScheduleIn): Promise<unknown>;
  simulator: SimulatedPhones;
}

/** Zones and their share of the accounts. */
const ZONES: readonly [string, number][] = [
  ['America/New_York', 0.26],
  ['America/Chicago', 0.12],
  ['America/Los_Angeles', 0.14],
  ['Europe/London', 0.14],
  ['Europe/Paris', 0.14],
  ['Asia/Kolkata', 0.06],
  ['Asia/Tokyo', 0.08],
  ['Australia/Sydney', 0.06],
];
/** Wake times and their share: the 07:00 spike, with its shoulders. */
const TIMES: readonly [string, number][] = [
  ['07:00', 0.45],
  ['06:30', 0.15],
  ['06:45', 0.1],
  ['07:15', 0.1],
  ['07:30', 0.12],
  ['08:00', 0.08],
];
/** How the phones answer. */
const ANSWERS: readonly [PhoneBehaviour, number][] = [
  ['confirm', 0.72],
  ['no_answer', 0.1],
  ['snooze', 0.05],
  ['voicemail', 0.04],
  ['busy', 0.04],
  ['fail', 0.03],
  ['stop', 0.02],
];

/** The item of `table` at `u` in [0, 1) by cumulative share. */
function pick<T>(table: readonly [T, number][], u: number): T {
  let acc = 0;
  for (const [v, share] of table) {
    acc += share;
    if (u < acc) return v;
  }
  return table[table.length - 1]![0];
}

/** A deterministic [0, 1) from an index and a salt (the same seed makes the same morning). */
function unit(i: number, salt: number): number {
  const x = Math.sin(i * 12.9898 + salt * 78.233) * 43_758.5453;
  return x - Math.floor(x);
}

/** Seeds `n` sleepers (see the module header); answers what was made. */
export async function seedMorning(
  deps: SeedMorningDeps,
  n: number,
): Promise<{ accounts: number; schedules: number; zones: string[] }> {
  const now = deps.clock.now();
  const batch = deps.ids.uuid().slice(0, 8);
  const rows: { accountId: string; phoneId: string; e164: string }[] = [];
  await deps.db.tx(async (tx) => {
    for (let i = 0; i < n; i++) {
      const accountId = deps.ids.uuid();
      await insertAccount(tx, {
        id: accountId,
        email: `sleeper-${batch}-${i}@example.com`,
        displayName: `Sleeper ${i}`,
        now,
        trialEndsAt: now + 30 * 86_400_000,
        trialCallsIncluded: 100,
      });
      // A US-shaped number per batch and sleeper; it only ever reaches the simulated phones.
      const e164 = `+1${200 + (parseInt(batch, 16) % 700)}${5_550_000 + i}`;
      const phone = await insertPhoneNumber(tx, {
        id: deps.ids.uuid(),
        accountId,
        e164,
        label: 'Mobile',
        countryCode: 'US',
        type: 'mobile',
        at: now,
      });
      await markVerified(tx, phone.id, now, now + 365 * 86_400_000);
      rows.push({ accountId, phoneId: phone.id, e164 });
    }
  });
  for (const [i, r] of rows.entries()) {
    deps.simulator.setPhone(r.e164, {
      answers: [pick(ANSWERS, unit(i, 3))],
      ring_seconds: 3 + Math.floor(unit(i, 4) * 15),
    });
    await deps.createSchedule(
      {
        accountId: r.accountId,
        credential: 'app_session',
        apiKeyId: null,
        scopes: null,
        sessionId: null,
      },
      {
        kind: 'recurring',
        days_of_week: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
        local_time: pick(TIMES, unit(i, 2)),
        timezone: pick(ZONES, unit(i, 1)),
        phone_number_id: r.phoneId,
        label: 'Wake up',
      },
    );
  }
  return { accounts: rows.length, schedules: rows.length, zones: ZONES.map(([z]) => z) };
}
