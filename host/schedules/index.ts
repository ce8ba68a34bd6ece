/**
 * The public face of the schedules feature: what another feature or an adapter may import
 * of it. Its other files are its internals: `npm run check:arch` refuses them from outside
 * the feature, except to the composition root, host/wiring/ and host/http/, which assemble
 * and mount features.
 * @module
 */
export { applyPlan } from './apply.js';
export { checkedZone } from './input.js';
export { presentOccurrenceRecordTime } from './occurrence-time.js';
export { planChange } from './plan.js';
export { scheduleOut } from './present.js';
export { getSchedule, scheduleExportBatches } from './records.js';
export { policyInEffect } from './rule.js';
export { stopAccountSeries } from './stop.js';
