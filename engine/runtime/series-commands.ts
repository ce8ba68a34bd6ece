/**
 * The commands on recurring series: save a series (and set its current occurrence), skip its
 * next call, and resolve pending occurrences again from their series' wall time when the zone
 * rules change. Each runs as units of work over the series steps (series-steps.ts); a refusal
 * is thrown as an EngineError once the unit has run, and what a caller gets back is a copy.
 * @module
 */
import type { Clock, Ids, Store } from '../ports.js';
import type { OccurrenceRecord, SeriesRecord } from '../model.js';
import { cloneOccurrence, cloneSeries } from '../clone.js';
import { compileRecurrence } from '../time/recurrence-check.js';
import { zoneRulesVersion } from '../time/zone-rules.js';
import { checkPolicy, REFUSALS } from './command-checks.js';
import { EngineError } from './errors.js';
import type { SafeEmitter } from './events.js';
import { DEFAULT_RETRY_POLICY } from './retry-policy.js';
import type { Runtime, SaveSeriesResult, SavedSeries, SeriesInput, SeriesNext } from './types.js';
import type { RunUnit } from './unit-runner.js';

/** Occurrences read, and re-resolved in one unit, per page when the zone rules change. */
const PAGE = 500;

/** What the series commands need. */
export interface SeriesCommandsDeps {
  clock: Clock;
  ids: Ids;
  store: Store;
  events: SafeEmitter;
  unit: RunUnit;
}

/** The runtime's series commands. */
export type SeriesCommands = Pick<Runtime, 'saveSeries' | 'skipNext' | 'rulesChanged'>;

/** A copy of a series step's result (so the caller never holds a record of a unit of work), or its refusal thrown. */
function savedOrThrow(r: SaveSeriesResult): SavedSeries {
  if (!r.ok) throw new EngineError(r.code, REFUSALS[r.code]);
  return {
    series: cloneSeries(r.series),
    occurrence: r.occurrence && cloneOccurrence(r.occurrence),
  };
}

/** See the module comment. */
export function createSeriesCommands(d: SeriesCommandsDeps): SeriesCommands {
  return {
    async saveSeries(input: SeriesInput, next: SeriesNext = 'auto'): Promise<SavedSeries> {
      // An empty number is allowed for a series that makes no call (the host keeps a schedule
      // whose number was removed as history); making an occurrence of it throws.
      if (typeof input.to !== 'string')
        throw new EngineError('invalid_series', 'to must be an E.164 number', 'to');
      if (next !== null && typeof next === 'object' && !Number.isFinite(next.at)) {
        throw new EngineError('invalid_series', 'next.at must be an instant', 'next.at');
      }
      const policy = input.policy ? checkPolicy(input.policy) : DEFAULT_RETRY_POLICY;
      const now = d.clock.now();
      const record: SeriesRecord = {
        id: input.id ?? d.ids.uuid(),
        accountId: input.accountId,
        phoneNumberId: input.phoneNumberId ?? null,
        to: input.to,
        label: input.label ?? null,
        message: input.message ?? null,
        greetingName: input.greetingName ?? null,
        voice: input.voice ?? null,
        rule: compileRecurrence(input.rule, now, 'rule.'),
        policy,
        smsFallback: input.smsFallback ?? false,
        backupAlarm: input.backupAlarm ?? false,
        enabled: input.enabled ?? true,
        status: 'active',
        nextOccurrenceId: null,
        version: 0,
        createdAt: now,
        updatedAt: now,
        attributes: input.attributes ?? null,
      };
      let result: SaveSeriesResult = { ok: false, code: 'series_not_found' };
      await d.unit({ series: [record.id] }, [record.id], (u) => {
        result = u.saveSeries(cloneSeries(record), next);
      });
      return savedOrThrow(result);
    },

    async skipNext(seriesId: string): Promise<SavedSeries> {
      let result: SaveSeriesResult = { ok: false, code: 'series_not_found' };
      await d.unit({ series: [seriesId] }, [seriesId], (u) => {
        result = u.skipNext(seriesId);
      });
      return savedOrThrow(result);
    },

    async rulesChanged(): Promise<number> {
      const version = zoneRulesVersion();
      let moved = 0;
      for (let after: string | undefined; ;) {
        const page = await d.store.listStaleZoneOccurrences(version, PAGE, after);
        const ids = page.map((o) => o.id);
        let moves: { occurrence: OccurrenceRecord; from: number }[] = [];
        if (ids.length > 0) {
          await d.unit({ occurrences: ids }, ids, (u) => {
            moves = [];
            for (const id of ids) {
              const m = u.reresolve(id, version);
              if (m) moves.push(m);
            }
          });
        }
        for (const { occurrence: o, from } of moves) {
          moved++;
          d.events.emit('occurrence:reresolved', {
            occurrence: cloneOccurrence(o),
            from,
            version,
          });
        }
        if (page.length < PAGE) return moved;
        after = ids[ids.length - 1]!;
      }
    },
  };
}
