/**
 * The retry policy, defined once: its bounds, its defaults and its resolver. The spec leaves
 * the bounds open; these are the project's, and `schema/openapi.yaml` states the same (a test
 * compares them). The host converts field case (snake_case) only at its HTTP edge.
 * @module
 */
import type { RetryPolicy } from '../model.js';
import { EngineError } from './errors.js';

/** Bounds of every RetryPolicy field, inclusive. */
export const RETRY_POLICY_BOUNDS = Object.freeze({
  maxSnoozes: Object.freeze({ min: 0, max: 5 }),
  offsetsMinutes: Object.freeze({ minItems: 0, maxItems: 5, min: 1, max: 120 }),
  ringTimeoutSeconds: Object.freeze({ min: 15, max: 120 }),
  snoozeMinutes: Object.freeze({ min: 1, max: 30 }),
});

/** The default policy: 2 snoozes of 9 minutes, retries at +5 and +10 minutes, 45 s of ringing. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxSnoozes: 2,
  offsetsMinutes: Object.freeze([5, 10]) as unknown as number[],
  ringTimeoutSeconds: 45,
  snoozeMinutes: 9,
});

/** Policies this module returned (frozen, so still valid): the runtime does not check them again. */
const RESOLVED = new WeakSet<object>([DEFAULT_RETRY_POLICY]);

/** Whether `p` is a policy {@link resolveRetryPolicy} returned (or the default): valid as it is. */
export function isResolvedRetryPolicy(p: RetryPolicy): boolean {
  return RESOLVED.has(p);
}

/** A retry policy to resolve: every field optional. */
export type RetryPolicyInput = Partial<RetryPolicy>;

function intIn(value: unknown, min: number, max: number, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new EngineError(
      'invalid_retry_policy',
      `${field} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`,
      field,
    );
  }
  return value;
}

/**
 * Validates a retry policy (missing fields take `base`'s value, itself defaulting to
 * {@link DEFAULT_RETRY_POLICY}) and returns a complete, frozen policy, which the runtime then
 * takes as it is (a policy is resolved once, where it enters: `saveSeries` and `schedule` resolve
 * any other). Throws
 * {@link EngineError} `invalid_retry_policy` whose `field` is the dotted path under `path`,
 * e.g. `policy.offsetsMinutes.1` with the message "… must be greater than the offset before it".
 * @example
 * const policy = resolveRetryPolicy({ maxSnoozes: 1 }); // the other fields from DEFAULT_RETRY_POLICY
 * runtime.schedule({ accountId, to, scheduledAt, policy });
 */
export function resolveRetryPolicy(
  input: RetryPolicyInput | null | undefined,
  options: { base?: RetryPolicy; path?: string } = {},
): RetryPolicy {
  const b = RETRY_POLICY_BOUNDS;
  const base = options.base ?? DEFAULT_RETRY_POLICY;
  const at = (k: string) => (options.path ? `${options.path}.${k}` : k);
  const p = input ?? {};
  const maxSnoozes = intIn(
    p.maxSnoozes ?? base.maxSnoozes,
    b.maxSnoozes.min,
    b.maxSnoozes.max,
    at('maxSnoozes'),
  );
  const ringTimeoutSeconds = intIn(
    p.ringTimeoutSeconds ?? base.ringTimeoutSeconds,
    b.ringTimeoutSeconds.min,
    b.ringTimeoutSeconds.max,
    at('ringTimeoutSeconds'),
  );
  const snoozeMinutes = intIn(
    p.snoozeMinutes ?? base.snoozeMinutes,
    b.snoozeMinutes.min,
    b.snoozeMinutes.max,
    at('snoozeMinutes'),
  );
  const offsets = p.offsetsMinutes ?? base.offsetsMinutes;
  if (!Array.isArray(offsets) || offsets.length > b.offsetsMinutes.maxItems) {
    throw new EngineError(
      'invalid_retry_policy',
      `${at('offsetsMinutes')} must be an array of at most ${b.offsetsMinutes.maxItems} integers`,
      at('offsetsMinutes'),
    );
  }
  offsets.forEach((m, i) => {
    intIn(m, b.offsetsMinutes.min, b.offsetsMinutes.max, at(`offsetsMinutes.${i}`));
    if (i > 0 && m <= offsets[i - 1]!) {
      throw new EngineError(
        'invalid_retry_policy',
        `${at(`offsetsMinutes.${i}`)} must be greater than the offset before it (${offsets[i - 1]})`,
        at(`offsetsMinutes.${i}`),
      );
    }
  });
  const resolved = Object.freeze({
    maxSnoozes,
    offsetsMinutes: Object.freeze([...offsets]) as unknown as number[],
    ringTimeoutSeconds,
    snoozeMinutes,
  });
  RESOLVED.add(resolved);
  return resolved;
}
