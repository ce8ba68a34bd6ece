/**
 * The engine's commits write their webhook events in the same transaction
 * (docs/decisions/0023): the writes a unit's change set reports (host/webhooks/events.ts),
 * which the runtime's unit writer passes to the engine store's commit, made in its transaction
 * (docs/decisions/0025). A change set that reports nothing gives no write.
 * @module
 */
import type { ChangeSet } from '../../engine/internals.js';
import type { UnitWrite } from '../db/engine-store.js';
import { recordEvents } from '../db/webhook-outbox.js';
import { changeSetEvents } from './events.js';

/** The outbox write of the events `changes` reports, or none. */
export function outcomeEventWrites(changes: ChangeSet): UnitWrite[] {
  const events = changeSetEvents(changes);
  return events.length === 0 ? [] : [(tx) => recordEvents(tx, events, false)];
}
