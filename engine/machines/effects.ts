/**
 * Effects: what a step asks the outside world to do, as plain data. The runtime persists a
 * step's records first and executes its effects afterwards, through the ports; a crash in
 * between is repaired at start (an unacknowledged call is placed again with the same
 * idempotency key; a pending fallback text is sent again with the same key).
 * @module
 */
import type { PlaceCallRequest, StopRequest } from '../ports.js';

/** Place one call (Telephony.placeCall); the attempt's intent is already stored. */
export interface PlaceCallEffect {
  type: 'PlaceCall';
  attemptId: string;
  request: PlaceCallRequest;
}

/**
 * End a call (Telephony.hangUp). `callId` is null while the provider has not acknowledged
 * the call yet: the runtime hangs up as soon as the acknowledgement arrives.
 */
export interface HangUpEffect {
  type: 'HangUp';
  attemptId: string;
  callId: string | null;
  say?: string;
}

/** Send the fallback text (Messaging.sendText). */
export interface SendTextEffect {
  type: 'SendText';
  occurrenceId: string;
  to: string;
  body: string;
  idempotencyKey: string;
}

/**
 * Key 9: account calls off, number blocked. Applied INSIDE the unit of work through the
 * Accounts port (a store change, atomic with the attempt); listed here so that observers see it.
 */
export interface StopCallsEffect {
  type: 'StopCalls';
  request: StopRequest;
}

/** Every effect a step can produce. */
export type Effect = PlaceCallEffect | HangUpEffect | SendTextEffect | StopCallsEffect;
