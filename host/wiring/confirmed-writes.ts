/**
 * `last_confirmed_at` of a phone number, written in the transaction of the unit of work that
 * confirms a call on it: a read that sees the call confirmed sees the number's field too.
 * @module
 */
import type { StatusChange } from '../../engine/index.js';
import type { UnitWrite } from '../db/engine-store.js';
import { setLastConfirmedAt } from '../db/phone-numbers.js';

/**
 * One write per attempt on a number that this unit turned `confirmed` (none for most units,
 * and none for a confirmed attempt written again when its call ends). The write only moves the
 * field forward.
 */
export function confirmedNumberWrites(statuses: readonly StatusChange[]): UnitWrite[] {
  let writes: UnitWrite[] | undefined;
  for (const change of statuses) {
    if (change.kind !== 'attempt') continue;
    const a = change.record;
    if (a.status !== 'confirmed' || a.phoneNumberId === null) continue;
    const id = a.phoneNumberId;
    const at = a.answeredAt ?? a.updatedAt;
    (writes ??= []).push((tx) => setLastConfirmedAt(tx, id, at));
  }
  return writes ?? [];
}
