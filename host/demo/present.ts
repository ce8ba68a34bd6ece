/**
 * DemoCallOut from the demo call's engine attempt.
 *
 * `state` refines the engine's {@link callState} for a visitor who cannot see attempt
 * details: a machine answering (voicemail) is `missed`, since the person did not take the
 * call, and a call the provider refused or never acknowledged before it rang is
 * `not_placed`; a failure after it rang stays `failed`.
 * @module
 */
import type { AttemptRecord } from '../../engine/index.js';
import { callState, isLiveAttempt } from '../../engine/internals.js';
import type { DemoCallOut } from '../generated/openapi.js';
import { isoInstant } from '../instant.js';
import { maskE164 } from '../phone/index.js';

/** DemoCallOut.state. */
export type DemoState = DemoCallOut['state'];

/** The visitor-facing state of a demo call. */
export function demoState(
  a: Pick<AttemptRecord, 'status' | 'ringingAt' | 'answeredAt'>,
): DemoState {
  if (a.status === 'voicemail') return 'missed';
  if (a.status === 'failed' && a.ringingAt === null && a.answeredAt === null) return 'not_placed';
  return callState(a);
}

/** Schema DemoCallOut. */
export function demoCallOut(a: AttemptRecord): DemoCallOut {
  return {
    id: a.id,
    status: a.status,
    state: demoState(a),
    live: isLiveAttempt(a.status),
    to_masked: maskE164(a.to),
    created_at: isoInstant(a.createdAt),
  };
}
