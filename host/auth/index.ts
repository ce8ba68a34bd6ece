/**
 * The public face of the auth feature: what another feature or an adapter may import of
 * it. Its other files are its internals: `npm run check:arch` refuses them from outside the
 * feature, except to the composition root, host/wiring/ and host/http/, which assemble and
 * mount features.
 * @module
 */
export { CODE_LOCK_MS, DAY_MS, MAX_CODE_FAILURES } from './policy.js';
export type { Principal } from './principal.js';
export { hashToken, randomBase62 } from './secrets.js';
export { startWebSession, webSessionAccountId } from './web-session.js';
