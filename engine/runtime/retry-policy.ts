/**
 * Retry policy defaults and bounds (the spec leaves the bounds open; these are the
 * project's, shared with schema/openapi.yaml).
 * @module
 */
import type { RetryPolicy } from '../ports.js';
import { EngineError } from './errors.js';

/** Bounds of every RetryPolicy field, inclusive. */
export const RETRY_POLICY_BOUNDS = Object.freeze({
  maxSnoozes: { min: 0, max: 5 },
  offsetsMinutes: { minItems: 0, maxItems: 5, min: 1, max: 120 },
  ringTimeoutSeconds: { min: 15, max: 120 },
  snoozeMinutes: { min: 1, max: 30 },
});

/** The default policy: 2 snoozes of 9 minutes, retries at +5 and +10 minutes, 45 s of ringing. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxSnoozes: 2,
  offsetsMinutes: Object.freeze([5, 10]) as unknown as number[],
  ringTimeoutSeconds: 45,
  snoozeMinutes: 9,
});

/** A retry policy as the API spells it (snake_case, every field optional). */
export interface RetryPolicyInput {
  max_snoozes?: number;
  offsets_minutes?: number[];
  ring_timeout_seconds?: number;
  snooze_minutes?: number;
}

function intIn(value: unknown, min: number, max: number, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new EngineError(
      'invalid_retry_policy',
      `${field} must be an integer between ${min} and ${max}, got ${JSON.stringify(value)}`,
      field,
    );
  }
  return value;
}

/**
 * Validates a retry policy given as the API spells it (missing fields take `base`'s value,
 * itself defaulting to {@link DEFAULT_RETRY_POLICY}) and returns a complete, frozen policy.
 * Throws {@link EngineError} `invalid_retry_policy` naming the field, e.g.
 * `retry_policy.offsets_minutes.1 must be greater than the offset before it`.
 */
export function resolveRetryPolicy(input: RetryPolicyInput | null | undefined, base: RetryPolicy = DEFAULT_RETRY_POLICY): RetryPolicy {
  const b = RETRY_POLICY_BOUNDS;
  const p = input ?? {};
  const maxSnoozes = intIn(p.max_snoozes ?? base.maxSnoozes, b.maxSnoozes.min, b.maxSnoozes.max, 'retry_policy.max_snoozes');
  const ringTimeoutSeconds = intIn(
    p.ring_timeout_seconds ?? base.ringTimeoutSeconds,
    b.ringTimeoutSeconds.min,
    b.ringTimeoutSeconds.max,
    'retry_policy.ring_timeout_seconds',
  );
  const snoozeMinutes = intIn(
    p.snooze_minutes ?? base.snoozeMinutes,
    b.snoozeMinutes.min,
    b.snoozeMinutes.max,
    'retry_policy.snooze_minutes',
  );
  const offsets = p.offsets_minutes ?? base.offsetsMinutes;
  if (!Array.isArray(offsets) || offsets.length > b.offsetsMinutes.maxItems) {
    throw new EngineError(
      'invalid_retry_policy',
      `retry_policy.offsets_minutes must be an array of at most ${b.offsetsMinutes.maxItems} integers`,
      'retry_policy.offsets_minutes',
    );
  }
  offsets.forEach((m, i) => {
    intIn(m, b.offsetsMinutes.min, b.offsetsMinutes.max, `retry_policy.offsets_minutes.${i}`);
    if (i > 0 && m <= offsets[i - 1]!) {
      throw new EngineError(
        'invalid_retry_policy',
        `retry_policy.offsets_minutes.${i} must be greater than the offset before it (${offsets[i - 1]})`,
        `retry_policy.offsets_minutes.${i}`,
      );
    }
  });
  return Object.freeze({
    maxSnoozes,
    offsetsMinutes: Object.freeze([...offsets]) as unknown as number[],
    ringTimeoutSeconds,
    snoozeMinutes,
  });
}
