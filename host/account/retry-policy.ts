/**
 * The retry policy at the HTTP edge: the engine defines it once (bounds, defaults and the
 * resolver: `resolveRetryPolicy`); here the API's snake_case is converted to the engine's
 * camelCase and back, and the engine's error becomes the problem with the API's field path.
 * @module
 */
import {
  DEFAULT_RETRY_POLICY as ENGINE_DEFAULT,
  EngineError,
  resolveRetryPolicy as resolve,
  type RetryPolicy,
} from '../../engine/index.js';
import type { StoredRetryPolicy } from '../db/accounts.js';
import { problem } from '../errors.js';

/** The API's spelling of a policy. */
export function toStoredPolicy(p: RetryPolicy): StoredRetryPolicy {
  return {
    max_snoozes: p.maxSnoozes,
    offsets_minutes: [...p.offsetsMinutes],
    ring_timeout_seconds: p.ringTimeoutSeconds,
    snooze_minutes: p.snoozeMinutes,
  };
}

/** The engine's spelling of a policy. */
export function toEnginePolicy(p: Partial<StoredRetryPolicy>): Partial<RetryPolicy> {
  return {
    ...(p.max_snoozes !== undefined ? { maxSnoozes: p.max_snoozes } : {}),
    ...(p.offsets_minutes !== undefined ? { offsetsMinutes: p.offsets_minutes } : {}),
    ...(p.ring_timeout_seconds !== undefined ? { ringTimeoutSeconds: p.ring_timeout_seconds } : {}),
    ...(p.snooze_minutes !== undefined ? { snoozeMinutes: p.snooze_minutes } : {}),
  };
}

/** The built-in default policy, as the API spells it. */
export const DEFAULT_RETRY_POLICY: Readonly<StoredRetryPolicy> = Object.freeze(
  toStoredPolicy(ENGINE_DEFAULT),
);

const snake = (path: string) => path.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Completes a (schema-validated) policy object with defaults and checks every bound again
 * with the engine's resolver, so that callers outside HTTP get the same rule. `field`
 * prefixes the problem's field (`retry_policy.offsets_minutes.1`).
 * @throws AppError invalid_retry_policy
 */
export function resolveRetryPolicy(
  input: Partial<StoredRetryPolicy>,
  field: string,
): StoredRetryPolicy {
  return toStoredPolicy(resolveEngineRetryPolicy(input, field));
}

/** {@link resolveRetryPolicy} in the engine's spelling: the engine's resolved policy, which the runtime takes as it is. */
export function resolveEngineRetryPolicy(
  input: Partial<StoredRetryPolicy>,
  field: string,
): RetryPolicy {
  try {
    return resolve(toEnginePolicy(input));
  } catch (err) {
    if (!EngineError.is(err) || err.code !== 'invalid_retry_policy') throw err;
    const path = `${field}.${snake(err.field ?? '')}`;
    throw problem('invalid_retry_policy', {
      field: path,
      detail: `${path}${snake(err.message.slice((err.field ?? '').length))}.`,
    });
  }
}
