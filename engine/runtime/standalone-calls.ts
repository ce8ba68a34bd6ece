/**
 * Standalone calls: a test or demo call placed now, outside any occurrence. Its attempt's
 * intent is committed in one unit of work, admitted by the host's Accounts port inside that
 * unit (so that a host counting calls sees a consistent count), and then takes a pacing slot.
 * @module
 */
import type { Accounts, CallToAdmit, Clock, Ids, RefusalReason } from '../ports.js';
import type { CallScript } from '../model.js';
import type { Ref } from './horizon.js';
import type { Pacer } from './pacer.js';
import { requestedAttempt } from './record-factories.js';
import { DEFAULT_RETRY_POLICY } from './retry-policy.js';
import type { NewCall, PlaceCallOutcome, Runtime } from './types.js';
import type { RunUnit } from './unit-runner.js';

/** What standalone calls need. */
export interface StandaloneCallsDeps {
  clock: Clock;
  ids: Ids;
  /** The host's admission port, when it has one (without it every call is admitted). */
  accounts: Accounts | undefined;
  pacer: Pacer<Ref> | null;
  unit: RunUnit;
}

/** The runtime's standalone-call command. */
export type StandaloneCalls = Pick<Runtime, 'placeCall'>;

/** See the module comment. */
export function createStandaloneCalls(d: StandaloneCallsDeps): StandaloneCalls {
  return {
    async placeCall(input: NewCall): Promise<PlaceCallOutcome> {
      const now = d.clock.now();
      const id = input.id ?? d.ids.uuid();
      const rec = requestedAttempt({
        id,
        occurrenceId: null,
        accountId: input.accountId ?? null,
        phoneNumberId: input.phoneNumberId ?? null,
        kind: input.kind,
        n: 1,
        to: input.to,
        dueAt: now,
        ringTimeoutSeconds: input.ringTimeoutSeconds ?? DEFAULT_RETRY_POLICY.ringTimeoutSeconds,
        now,
      });
      const script: CallScript =
        input.script ??
        (input.kind === 'test' ? { kind: 'test', greetingName: null } : { kind: 'demo' });
      let refused: RefusalReason | null = null;
      const call: CallToAdmit = {
        accountId: rec.accountId,
        phoneNumberId: rec.phoneNumberId,
        to: rec.to,
        kind: rec.kind,
        occurrenceId: null,
        at: now,
      };
      await d.unit(
        {},
        [id],
        (u) => {
          refused = null;
          // Admission inside the unit of work, so that a host counting calls sees a consistent count.
          const admission = d.accounts?.admit({ ...call, at: u.now });
          if (admission && !admission.ok) {
            refused = admission.reason;
            return;
          }
          u.startStandalone({ ...rec }, script);
        },
        undefined,
        [call],
      );
      if (refused) return { ok: false, reason: refused };
      d.pacer?.consume(now);
      return { ok: true, attempt: { ...rec } };
    },
  };
}
