/**
 * `last_confirmed_at` of a phone number, written in the transaction of the unit of work that
 * confirms a call on it: a read that sees the call confirmed sees the number's field too.
 * @module
 */
import type { ChangeSet } from '../../engine/internals.js';
import type { UnitWrite } from '../db/engine-store.js';
import { setLastConfirmedAt } from '../db/phone-numbers.js';

/**
 * One write per confirmed attempt a unit writes on a number (none for most units). The write
 * only moves the field forward, so a confirmed attempt written again changes nothing.
 */
export function confirmedNumberWrites(changes: ChangeSet): UnitWrite[] {
  let writes: UnitWrite[] | undefined;
  for (const { record: a } of changes.attempts) {
    if (a.status !== 'confirmed' || a.phoneNumberId === null) continue;
    const id = a.phoneNumberId;
    const at = a.answeredAt ?? a.updatedAt;
    (writes ??= []).push((tx) => setLastConfirmedAt(tx, id, at));
  }
  return writes ?? [];
}
