/**
 * The SQLite store's listing methods of the Store port, synchronous (the store wraps
 * them in its gate and its settles): `listDue`, which merges each table's due page with the
 * due keys of the rows whose newest images are still in the journal, and the recovery lists,
 * read from the tables once the journal is folded. (./reads.ts is the read model of the API.)
 * @module
 */
import type { AttemptRecord, OccurrenceRecord, SeriesRecord } from '../model.js';
import type { DueQuery, DueRef } from '../ports.js';
import type { Overlay } from './overlay.js';
import { rowToAttempt, rowToOccurrence, rowToSeries } from './rows.js';
import type { StoreStatements } from './statements.js';

// A due cursor's `at` when there is none: below every epoch-ms instant.
const NO_CURSOR_AT = -Number.MAX_SAFE_INTEGER;

/** The listing methods, synchronous; the recovery lists need the journal folded first. */
export interface StoreLists {
  /** The port's `listDue` without its lease (one process per SQLite store). */
  listDue(query: DueQuery): DueRef[];
  listAttempts(occurrenceId: string): AttemptRecord[];
  listUnacknowledgedAttempts(limit: number, afterId?: string): AttemptRecord[];
  listPendingFallbacks(limit: number, afterId?: string): OccurrenceRecord[];
  listStaleZoneOccurrences(version: string, limit: number, afterId?: string): OccurrenceRecord[];
  listSeriesWithoutNext(limit: number, afterId?: string): SeriesRecord[];
}

/** The listing methods on `q`, with the due keys of `overlay`'s rows. */
export function createStoreLists(q: StoreStatements, overlay: Overlay): StoreLists {
  const page = (
    from: { at: number; kind: DueRef['kind']; id: string },
    until: number,
    n: number,
  ): DueRef[] =>
    (
      q.due.all({ at: from.at, until, kind: from.kind, id: from.id, limit: n }) as [
        DueRef['kind'],
        string,
        number,
      ][]
    ).map(([kind, id, at]) => ({ kind, id, at }));

  const listDue = ({ until, limit, after }: DueQuery): DueRef[] => {
    const start = after ?? { at: NO_CURSOR_AT, kind: 'occurrence' as const, id: '' };
    if (overlay.size === 0) return page(start, until, limit);
    // Rows with unfolded images are due at their newest image's key, not their table row's.
    const out: DueRef[] = [];
    for (let from = start; ;) {
      const rows = page(from, until, limit);
      for (const r of rows)
        if (!(r.kind === 'occurrence' ? overlay.occurrences : overlay.attempts).has(r.id))
          out.push(r);
      if (rows.length < limit || out.length >= limit) break;
      from = rows[rows.length - 1]!;
    }
    // The pending rows' due keys in (instant, id) order past the cursor: at most `limit` of each
    // kind, and none due after the table's `limit`-th row, which could not be among the first
    // `limit` (during a spike the overlay holds the dispatched rows' next keys, all past it).
    const last = out.length >= limit ? Math.min(until, out[limit - 1]!.at) : until;
    for (const [kind, map, index] of [
      ['attempt', overlay.attempts, overlay.due.attempts],
      ['occurrence', overlay.occurrences, overlay.due.occurrences],
    ] as const) {
      // Past the cursor: its own instant after its id when the kind is the cursor's or sorts after it.
      const fromId = kind === start.kind ? start.id : kind > start.kind ? '' : '\uffff';
      for (const { at, id } of index.range(start.at, fromId, last, limit, (x) => map.atOf(x)))
        out.push({ kind, id, at });
    }
    out.sort(
      (x, y) =>
        x.at - y.at ||
        (x.kind < y.kind ? -1 : x.kind > y.kind ? 1 : x.id < y.id ? -1 : x.id > y.id ? 1 : 0),
    );
    return out.length > limit ? out.slice(0, limit) : out;
  };

  return {
    listDue,
    listAttempts: (occurrenceId) =>
      (q.attemptsOf.all(occurrenceId) as unknown[][]).map(rowToAttempt),
    listUnacknowledgedAttempts: (limit, afterId) =>
      (q.unacknowledged.all(afterId ?? '', limit) as unknown[][]).map(rowToAttempt),
    listPendingFallbacks: (limit, afterId) =>
      (q.pendingFallbacks.all(afterId ?? '', limit) as unknown[][]).map(rowToOccurrence),
    listStaleZoneOccurrences: (version, limit, afterId) =>
      (q.staleZone.all(version, afterId ?? '', limit) as unknown[][]).map(rowToOccurrence),
    listSeriesWithoutNext: (limit, afterId) =>
      (q.withoutNext.all(afterId ?? '', limit) as unknown[][]).map(rowToSeries),
  };
}
