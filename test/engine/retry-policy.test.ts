/** The retry policy is defined once, in the engine: the API schema states the same bounds and defaults. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { DEFAULT_RETRY_POLICY, resolveRetryPolicy } from '../../engine/index.js';
import { RETRY_POLICY_BOUNDS } from '../../engine/internals.js';

type Int = { minimum: number; maximum: number; default?: unknown };
type Schema = {
  properties: {
    max_snoozes: Int;
    offsets_minutes: { maxItems: number; default?: unknown; items: Int };
    ring_timeout_seconds: Int;
    snooze_minutes: Int;
  };
};

const doc = parse(readFileSync(new URL('../../schema/openapi.yaml', import.meta.url), 'utf8')) as {
  components: { schemas: Record<string, Schema> };
};

describe('retry policy: one definition', () => {
  for (const name of ['RetryPolicy', 'RetryPolicyIn']) {
    it(`schema ${name} states the engine's bounds`, () => {
      const p = doc.components.schemas[name]!.properties;
      const b = RETRY_POLICY_BOUNDS;
      assert.deepEqual(
        [p.max_snoozes.minimum, p.max_snoozes.maximum],
        [b.maxSnoozes.min, b.maxSnoozes.max],
      );
      assert.deepEqual(
        [p.ring_timeout_seconds.minimum, p.ring_timeout_seconds.maximum],
        [b.ringTimeoutSeconds.min, b.ringTimeoutSeconds.max],
      );
      assert.deepEqual(
        [p.snooze_minutes.minimum, p.snooze_minutes.maximum],
        [b.snoozeMinutes.min, b.snoozeMinutes.max],
      );
      assert.equal(p.offsets_minutes.maxItems, b.offsetsMinutes.maxItems);
      assert.deepEqual(
        [p.offsets_minutes.items.minimum, p.offsets_minutes.items.maximum],
        [b.offsetsMinutes.min, b.offsetsMinutes.max],
      );
    });
  }

  it("schema RetryPolicy states the engine's defaults", () => {
    const p = doc.components.schemas['RetryPolicy']!.properties;
    assert.deepEqual(
      [
        p.max_snoozes.default,
        p.offsets_minutes.default,
        p.ring_timeout_seconds.default,
        p.snooze_minutes.default,
      ],
      [
        DEFAULT_RETRY_POLICY.maxSnoozes,
        [...DEFAULT_RETRY_POLICY.offsetsMinutes],
        DEFAULT_RETRY_POLICY.ringTimeoutSeconds,
        DEFAULT_RETRY_POLICY.snoozeMinutes,
      ],
    );
  });

  it('resolveRetryPolicy completes with defaults and names the offending field', () => {
    assert.deepEqual(resolveRetryPolicy({ maxSnoozes: 0 }), {
      ...DEFAULT_RETRY_POLICY,
      maxSnoozes: 0,
      offsetsMinutes: [5, 10],
    });
    assert.throws(
      () => resolveRetryPolicy({ offsetsMinutes: [10, 10] }, { path: 'policy' }),
      (e: { code: string; field: string }) =>
        e.code === 'invalid_retry_policy' && e.field === 'policy.offsetsMinutes.1',
    );
    assert.throws(
      () =>
        resolveRetryPolicy({ ringTimeoutSeconds: RETRY_POLICY_BOUNDS.ringTimeoutSeconds.max + 1 }),
      /ringTimeoutSeconds/,
    );
  });
});
