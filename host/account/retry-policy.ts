/**
 * Retry policy bounds and defaults (decided values; the schema states the same bounds and
 * checks all but one of them: "strictly increasing" cannot be said in JSON Schema).
 * @module
 */
import type { StoredRetryPolicy } from '../db/accounts.js';
import { problem } from '../errors.js';

/** The built-in default policy. */
export const DEFAULT_RETRY_POLICY: Readonly<StoredRetryPolicy> = Object.freeze({
  max_snoozes: 2,
  offsets_minutes: [5, 10],
  ring_timeout_seconds: 45,
  snooze_minutes: 9,
});

/** Bounds, inclusive. */
export const RETRY_POLICY_BOUNDS = {
  max_snoozes: [0, 5],
  offsets_count: [0, 5],
  offset_minutes: [1, 120],
  ring_timeout_seconds: [15, 120],
  snooze_minutes: [1, 30],
} as const;

/**
 * Completes a (schema-validated) policy object with defaults and checks every bound again,
 * so that callers outside HTTP get the same rule. `field` prefixes the problem's field.
 * @throws AppError invalid_retry_policy
 */
export function resolveRetryPolicy(input: Partial<StoredRetryPolicy>, field: string): StoredRetryPolicy {
  const p: StoredRetryPolicy = {
    max_snoozes: input.max_snoozes ?? DEFAULT_RETRY_POLICY.max_snoozes,
    offsets_minutes: input.offsets_minutes ?? [...DEFAULT_RETRY_POLICY.offsets_minutes],
    ring_timeout_seconds: input.ring_timeout_seconds ?? DEFAULT_RETRY_POLICY.ring_timeout_seconds,
    snooze_minutes: input.snooze_minutes ?? DEFAULT_RETRY_POLICY.snooze_minutes,
  };
  const B = RETRY_POLICY_BOUNDS;
  const fail = (sub: string, detail: string) => problem('invalid_retry_policy', { detail, field: `${field}.${sub}` });
  const within = (v: number, [lo, hi]: readonly [number, number]) => Number.isInteger(v) && v >= lo && v <= hi;
  if (!within(p.max_snoozes, B.max_snoozes)) throw fail('max_snoozes', 'max_snoozes must be 0 to 5.');
  if (!within(p.ring_timeout_seconds, B.ring_timeout_seconds))
    throw fail('ring_timeout_seconds', 'ring_timeout_seconds must be 15 to 120.');
  if (!within(p.snooze_minutes, B.snooze_minutes)) throw fail('snooze_minutes', 'snooze_minutes must be 1 to 30.');
  if (!within(p.offsets_minutes.length, B.offsets_count)) throw fail('offsets_minutes', 'offsets_minutes holds at most 5 values.');
  p.offsets_minutes.forEach((v, i) => {
    if (!within(v, B.offset_minutes)) throw fail(`offsets_minutes.${i}`, 'Each of offsets_minutes must be 1 to 120.');
    if (i > 0 && v <= p.offsets_minutes[i - 1]!) {
      throw fail(`offsets_minutes.${i}`, 'offsets_minutes must be strictly increasing.');
    }
  });
  return p;
}
