/**
 * The public face of the account feature: what another feature or an adapter may import of
 * it. Its other files are its internals: `npm run check:arch` refuses them from outside the
 * feature, except to the composition root, host/wiring/ and host/http/, which assemble and
 * mount features.
 * @module
 */
export { resolveEngineRetryPolicy, resolveRetryPolicy, toStoredPolicy } from './retry-policy.js';
