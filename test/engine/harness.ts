/** Shared set-up for runtime tests: virtual clock, memory store and phones, a fake account directory. */
import {
  createRuntime,
  type Accounts,
  type Messaging,
  type OccurrenceRecord,
  type AttemptRecord,
  type RuntimeOptions,
  type Runtime,
  type Store,
  type Telephony,
  type StopRequest,
  type NewOccurrence,
} from '../../engine/index.js';
import { MemoryStore, MemoryTelephony, VirtualClock } from '../../engine/sim/index.js';

/** 07:00:00 UTC, the instant most tests ring at. */
export const T0 = Date.UTC(2027, 2, 15, 7, 0, 0);
export const MIN = 60_000;
export const PHONE = '+14155550123';

/** Deterministic ids that sort by creation. */
export function sequentialIds(prefix = '0') {
  let n = 0;
  return { uuid: () => `${prefix}0000000-0000-4000-8000-${String(++n).padStart(12, '0')}` };
}

export class FakeAccounts implements Accounts {
  readonly revoked = new Set<string>();
  readonly blocked = new Set<string>();
  readonly stops: StopRequest[] = [];
  admit(call: { accountId: string | null; to: string }) {
    if (call.accountId && this.revoked.has(call.accountId))
      return { ok: false as const, reason: 'calls_revoked' as const };
    if (this.blocked.has(call.to)) return { ok: false as const, reason: 'number_blocked' as const };
    return { ok: true as const };
  }
  stopCalls(request: StopRequest): void {
    this.stops.push(request);
    if (request.accountId) this.revoked.add(request.accountId);
    this.blocked.add(request.to);
  }
}

export class FakeMessaging implements Messaging {
  readonly texts: { to: string; body: string; idempotencyKey?: string }[] = [];
  async sendText(m: { to: string; body: string; idempotencyKey?: string }) {
    if (m.idempotencyKey && this.texts.some((t) => t.idempotencyKey === m.idempotencyKey))
      return { ok: true as const, messageId: 'dup' };
    this.texts.push(m);
    return { ok: true as const, messageId: `m${this.texts.length}` };
  }
  async sendEmail() {
    return { ok: true as const, messageId: 'e' };
  }
}

export interface Harness {
  clock: VirtualClock;
  store: Store;
  phones: MemoryTelephony;
  telephony: Telephony;
  accounts: FakeAccounts;
  messaging: FakeMessaging;
  runtime: Runtime;
  /** Schedules with defaults (account a1, PHONE, T0). */
  schedule(input?: Partial<NewOccurrence>): Promise<OccurrenceRecord>;
  occurrence(id: string): Promise<OccurrenceRecord>;
  attempts(id: string): Promise<AttemptRecord[]>;
  /** Advances the clock to `at` (everything due runs). */
  at(at: number): Promise<void>;
}

export async function harness(
  options: RuntimeOptions = {},
  overrides: {
    telephony?: Telephony;
    store?: Store;
    start?: number;
    clock?: VirtualClock;
    phones?: MemoryTelephony;
  } = {},
): Promise<Harness> {
  const clock = overrides.clock ?? new VirtualClock(overrides.start ?? T0 - 5 * MIN);
  const store = overrides.store ?? new MemoryStore();
  const phones = overrides.phones ?? new MemoryTelephony({ clock });
  const telephony = overrides.telephony ?? phones;
  const accounts = new FakeAccounts();
  const messaging = new FakeMessaging();
  const runtime = createRuntime({
    clock,
    ids: sequentialIds(),
    store,
    telephony,
    messaging,
    accounts,
    options,
  });
  await runtime.start();
  return {
    clock,
    store,
    phones,
    telephony,
    accounts,
    messaging,
    runtime,
    schedule: (input = {}) =>
      runtime.schedule({
        accountId: 'a1',
        phoneNumberId: 'p1',
        to: PHONE,
        scheduledAt: T0,
        ...input,
      }),
    occurrence: async (id) =>
      (await store.load({ occurrences: [id] })).occurrences.find((o) => o.id === id)!,
    attempts: (id) => store.listAttempts(id),
    at: async (at) => {
      await clock.advance(at);
      await runtime.idle();
    },
  };
}
