/**
 * Start-up reconciliation: the work a crash may have left.
 * - Calls whose intent is stored but whose acceptance is not: placed again with the same
 *   idempotency key, flagged `outcomeUnknown` (the adapter looks for the earlier call before
 *   it dials: never two calls, never none).
 * - Fallback texts decided but not known sent: sent again with the same key.
 * - Series left without an unfinished occurrence: given their next one (or completed).
 * Every page is one list call (plus one load for the attempts' occurrences, and one unit of
 * work for a page of series).
 * @module
 */
import type { Effect } from '../machines/effects.js';
import type { Store } from '../ports.js';
import { isFinishedOccurrence } from '../machines/status.js';
import type { EffectRunner } from './effect-runner.js';
import type { ResolvedRuntimeOptions } from './options.js';
import { fallbackEffect, wakeUpScript } from './record-factories.js';
import type { RunUnit } from './unit-runner.js';

const PAGE = 500;

/** What reconciliation needs. */
export interface ReconcileDeps {
  store: Store;
  options: ResolvedRuntimeOptions;
  runner: EffectRunner;
  /** Re-resolves pending occurrences resolved under other zone rules. */
  rulesChanged(): Promise<number>;
  unit: RunUnit;
  /** Starts the dispatch loop: after the calls and texts are handed over and the zone rules checked, before series repair. */
  startDispatch(): void | Promise<void>;
  /** Yields to the event loop between pages (background recovery), or null. */
  yieldToLoop: (() => Promise<void>) | null;
  /** True once the runtime was stopped: the walk ends at its next page. */
  stopped(): boolean;
}

/**
 * See the module comment. Each page's calls and texts go to the runner as soon as the page
 * is read: the runner's line bounds the requests, and the oldest intents are first in it.
 */
export async function reconcile(d: ReconcileDeps): Promise<void> {
  const pause = async () => {
    if (d.yieldToLoop) await d.yieldToLoop();
    return d.stopped();
  };
  for (let after: string | undefined; ;) {
    const page = await d.store.listUnacknowledgedAttempts(PAGE, after);
    const owners = page.filter((a) => a.occurrenceId !== null).map((a) => a.occurrenceId!);
    const occurrences = new Map(
      owners.length === 0
        ? []
        : (await d.store.load({ occurrences: owners })).occurrences.map((o) => [o.id, o] as const),
    );
    const effects: Effect[] = [];
    for (const a of page) {
      const o = a.occurrenceId === null ? undefined : occurrences.get(a.occurrenceId);
      const script = a.script ?? (o ? wakeUpScript(o) : null);
      if (!script || (o && isFinishedOccurrence(o.status))) continue;
      effects.push({
        type: 'PlaceCall',
        attemptId: a.id,
        request: {
          idempotencyKey: a.idempotencyKey,
          to: a.to,
          script,
          ringTimeoutSeconds: a.ringTimeoutSeconds,
          // A recovered intent: an earlier request (of a process that died, or of another host) may have dialled.
          outcomeUnknown: true,
          ...(a.requestedAt !== null ? { requestedAt: a.requestedAt } : {}),
        },
      });
    }
    if (d.stopped()) return;
    d.runner.execute(effects);
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.id;
    if (await pause()) return;
  }
  for (let after: string | undefined; ;) {
    const page = await d.store.listPendingFallbacks(PAGE, after);
    if (d.stopped()) return;
    d.runner.execute(page.map((o) => fallbackEffect(o, d.options)));
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.id;
    if (await pause()) return;
  }
  await d.rulesChanged();
  if (d.stopped()) return;
  await d.startDispatch();
  for (let after: string | undefined; ;) {
    if (await pause()) return;
    const page = await d.store.listSeriesWithoutNext(PAGE, after);
    const ids = page.map((x) => x.id);
    if (ids.length > 0)
      await d.unit({ series: ids }, ids, (u) => ids.forEach((id) => u.repairSeries(id)));
    if (page.length < PAGE) break;
    after = ids[ids.length - 1]!;
  }
}
