/**
 * The use cases: what one feature asks of another, named. Features of one sub-floor never
 * import each other, and a lower feature never imports a higher one, so where a feature needs
 * another's work it declares a port (a function in its deps) and a use case here fills it from
 * the features that own the work. The root (host/compose/) builds them and hands each to the
 * feature that asks; `npm run check:arch` keeps this floor above the features and below the
 * adapters, so a use case sees every feature and no feature sees a use case.
 *
 * - {@link meBilling}: what GET /me shows of billing (account ← billing);
 * - {@link accountStops}: what an account's deletion stops (account ← schedules, the runtime);
 * - {@link inboundKeywords}: an inbound text's keyword applied to contacts (phone ← contacts);
 * - {@link scheduleExport}: what GET /me/export shows of schedules (account ← schedules);
 * - {@link settleDevClock}: POST /dev/clock's settling (calls, contacts).
 * @module
 */
export { accountStops } from './account-stops.js';
export { inboundKeywords } from './inbound-keywords.js';
export { meBilling } from './me-billing.js';
export { scheduleExport } from './schedule-export.js';
export { settleDevClock } from './dev-settle.js';
