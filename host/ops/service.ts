/**
 * The operator's view as a service: who may use it, the figures with their
 * defaults and bounds, and the actions. Built by the root; the routes are
 * host/http/routes/ops.ts.
 * @module
 */
import type { Clock, EpochMs } from '../../engine/index.js';
import type { Principal } from '../auth/principal.js';
import type { OperatorConfig } from '../config.js';
import { invalid } from '../errors.js';
import { createOpsActions, type OpsActionDeps, type OpsActions } from './actions.js';
import { forecast, health, lateness, outcomes } from './figures.js';
import { requireOperator, type OperatorRole } from './operators.js';

/** The longest window of GET /ops/outcomes (168 hours). */
export const MAX_WINDOW_MS = 7 * 86_400_000;
/** The longest window of GET /ops/lateness: per minute, 48 hours is 2,880 rows already. */
export const MAX_LATENESS_WINDOW_MS = 2 * 86_400_000;

/** A window query (instants as the schema's date-time strings). */
export interface WindowQuery {
  from?: string;
  to?: string;
}

/** See the module header. */
export interface OpsService extends OpsActions {
  /** The caller's role, or 403 insufficient_scope (see ./operators.ts). */
  require(principal: Principal, needs: OperatorRole): OperatorRole;
  forecast(query: { hours?: number; rate?: number; warn_seconds?: number }): Promise<unknown>;
  lateness(query: WindowQuery & { objective_seconds?: number }): Promise<unknown>;
  outcomes(query: WindowQuery): Promise<unknown>;
  health(): Promise<unknown>;
}

/** Creates the service. */
export function createOpsService(
  deps: OpsActionDeps & {
    config: OperatorConfig;
    callsPerSecond: number | null;
    providers: () => Record<string, { status: string }>;
  },
): OpsService {
  const { db, clock, config } = deps;
  return {
    ...createOpsActions(deps),
    require: (principal, needs) => requireOperator(config, principal, needs),
    forecast: (q) =>
      forecast(db, {
        now: clock.now(),
        hours: q.hours ?? 24,
        callsPerSecond: q.rate ?? deps.callsPerSecond,
        warnSeconds: q.warn_seconds ?? config.objectiveSeconds,
      }),
    lateness: (q) =>
      lateness(db, {
        ...window(clock, q, MAX_LATENESS_WINDOW_MS),
        objectivePercent: config.objectivePercent,
        objectiveSeconds: q.objective_seconds ?? config.objectiveSeconds,
      }),
    outcomes: (q) => outcomes(db, window(clock, q, MAX_WINDOW_MS)),
    health: () => health(db, { now: clock.now(), providers: deps.providers() }),
  };
}

/** [from, to): by default the last 24 hours; at most `maxMs`, `from` before `to` (else 400 validation_error). */
function window(clock: Clock, q: WindowQuery, maxMs: number): { from: EpochMs; to: EpochMs } {
  const to = q.to === undefined ? clock.now() : Date.parse(q.to);
  const from = q.from === undefined ? to - 86_400_000 : Date.parse(q.from);
  if (!(from < to))
    throw invalid({ field: 'from', in: 'query', code: 'invalid', message: 'must be before to' });
  if (to - from > maxMs)
    throw invalid({
      field: 'from',
      in: 'query',
      code: 'maximum',
      message: `the window is at most ${maxMs / 3_600_000} hours`,
    });
  return { from, to };
}
