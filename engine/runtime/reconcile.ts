/**
 * Start-up reconciliation: the work a crash may have left.
 * - Calls whose intent is stored but whose acceptance is not: placed again with the same
 *   idempotency key (the provider dedupes: never two calls, never none).
 * - Fallback texts decided but not known sent: sent again with the same key.
 * - Series left without an unfinished occurrence: given their next one (or completed).
 * Every page is one list call (plus one load for the attempts' occurrences, and one unit of
 * work for a page of series).
 * @module
 */
import type { Effect } from '../machines/effects.js';
import type { LoadKeys, Store } from '../ports.js';
import { isFinishedOccurrence } from '../machines/status.js';
import type { EffectRunner } from './effect-runner.js';
import type { ResolvedRuntimeOptions } from './options.js';
import { fallbackEffect, wakeUpScript, type UnitOfWork } from './unit-of-work.js';

const PAGE = 500;

/** What reconciliation needs. */
export interface ReconcileDeps {
  store: Store;
  options: ResolvedRuntimeOptions;
  runner: EffectRunner;
  /** Re-resolves pending occurrences resolved under other zone rules. */
  rulesChanged(): Promise<number>;
  unit(keys: LoadKeys, lock: readonly string[], fn: (u: UnitOfWork) => void): Promise<void>;
}

/** See the module comment. */
export async function reconcile(d: ReconcileDeps): Promise<void> {
  const effects: Effect[] = [];
  for (let after: string | undefined; ;) {
    const page = await d.store.listUnacknowledgedAttempts(PAGE, after);
    const owners = page.filter((a) => a.occurrenceId !== null).map((a) => a.occurrenceId!);
    const occurrences = new Map(
      owners.length === 0 ? [] : (await d.store.load({ occurrences: owners })).occurrences.map((o) => [o.id, o] as const),
    );
    for (const a of page) {
      const o = a.occurrenceId === null ? undefined : occurrences.get(a.occurrenceId);
      const script = a.script ?? (o ? wakeUpScript(o) : null);
      if (!script || (o && isFinishedOccurrence(o.status))) continue;
      effects.push({
        type: 'PlaceCall',
        attemptId: a.id,
        request: { idempotencyKey: a.idempotencyKey, to: a.to, script, ringTimeoutSeconds: a.ringTimeoutSeconds },
      });
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.id;
  }
  for (let after: string | undefined; ;) {
    const page = await d.store.listPendingFallbacks(PAGE, after);
    for (const o of page) effects.push(fallbackEffect(o, d.options));
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.id;
  }
  d.runner.execute(effects);
  await d.rulesChanged();
  for (let after: string | undefined; ;) {
    const page = await d.store.listSeriesWithoutNext(PAGE, after);
    const ids = page.map((x) => x.id);
    if (ids.length > 0) await d.unit({ series: ids }, ids, (u) => ids.forEach((id) => u.repairSeries(id)));
    if (page.length < PAGE) break;
    after = ids[ids.length - 1]!;
  }
}
