/**
 * The commands on one-off occurrences: schedule a new pending occurrence, cancel one (a live
 * call is hung up), amend a pending one. Each is one unit of work; a refusal (missing, finished,
 * no longer pending) is thrown as an EngineError once the unit has run.
 * @module
 */
import type { Clock, Ids } from '../ports.js';
import type { OccurrenceRecord } from '../model.js';
import { cloneOccurrence } from '../clone.js';
import { isFinishedOccurrence } from '../machines/status.js';
import { checkPolicy, REFUSALS, type Refusal } from './command-checks.js';
import { EngineError } from './errors.js';
import type { ResolvedRuntimeOptions } from './options.js';
import { pendingOccurrence } from './record-factories.js';
import { DEFAULT_RETRY_POLICY } from './retry-policy.js';
import type { NewOccurrence, OccurrencePatch, Runtime } from './types.js';
import type { RunUnit } from './unit-runner.js';

/** What the occurrence commands need. */
export interface OccurrenceCommandsDeps {
  clock: Clock;
  ids: Ids;
  options: ResolvedRuntimeOptions;
  unit: RunUnit;
}

/** The runtime's occurrence commands. */
export type OccurrenceCommands = Pick<Runtime, 'schedule' | 'cancel' | 'amend'>;

/** The occurrence a command found, or its refusal thrown. */
function occurrenceOrThrow(r: OccurrenceRecord | Refusal): OccurrenceRecord {
  if (typeof r === 'string') throw new EngineError(r, REFUSALS[r]);
  return r;
}

/** See the module comment. */
export function createOccurrenceCommands(d: OccurrenceCommandsDeps): OccurrenceCommands {
  return {
    async schedule(input: NewOccurrence): Promise<OccurrenceRecord> {
      if (typeof input.to !== 'string' || input.to.length === 0)
        throw new EngineError('invalid_occurrence', 'to must be an E.164 number', 'to');
      if (!Number.isFinite(input.scheduledAt))
        throw new EngineError(
          'invalid_occurrence',
          'scheduledAt must be an instant',
          'scheduledAt',
        );
      const policy = input.policy ? checkPolicy(input.policy) : DEFAULT_RETRY_POLICY;
      const record = pendingOccurrence(
        {
          id: input.id ?? d.ids.uuid(),
          scheduleId: input.scheduleId ?? null,
          accountId: input.accountId,
          phoneNumberId: input.phoneNumberId ?? null,
          to: input.to,
          label: input.label ?? null,
          message: input.message ?? null,
          greetingName: input.greetingName ?? null,
          voice: input.voice ?? null,
          timezone: input.timezone ?? null,
          derivationSource: input.derivationSource ?? 'one_off',
          scheduledAt: input.scheduledAt,
          policy,
          smsFallback: input.smsFallback ?? false,
          backupAlarm: input.backupAlarm ?? false,
        },
        d.clock.now(),
        d.options,
      );
      await d.unit({}, [record.id], (u) => u.addOccurrence(cloneOccurrence(record)));
      return record;
    },

    async cancel(occurrenceId: string): Promise<OccurrenceRecord> {
      let result: OccurrenceRecord | Refusal = 'occurrence_not_found';
      await d.unit({ occurrences: [occurrenceId] }, [occurrenceId], (u) => {
        const o = u.occurrence(occurrenceId);
        if (!o) return void (result = 'occurrence_not_found');
        if (isFinishedOccurrence(o.status)) return void (result = 'occurrence_terminal');
        u.cancel(occurrenceId);
        result = o;
      });
      return occurrenceOrThrow(result);
    },

    async amend(occurrenceId: string, patch: OccurrencePatch): Promise<OccurrenceRecord> {
      if (patch.policy) patch = { ...patch, policy: checkPolicy(patch.policy) };
      if (patch.scheduledAt !== undefined && !Number.isFinite(patch.scheduledAt)) {
        throw new EngineError(
          'invalid_occurrence',
          'scheduledAt must be an instant',
          'scheduledAt',
        );
      }
      let result: OccurrenceRecord | Refusal = 'occurrence_not_found';
      await d.unit({ occurrences: [occurrenceId] }, [occurrenceId], (u) => {
        const o = u.occurrence(occurrenceId);
        if (!o) return void (result = 'occurrence_not_found');
        if (o.status !== 'pending') return void (result = 'occurrence_not_pending');
        u.amend(occurrenceId, patch);
        result = o;
      });
      return occurrenceOrThrow(result);
    },
  };
}
