/**
 * The public face of the phone feature: what another feature or an adapter may import of
 * it. Its other files are its internals: `npm run check:arch` refuses them from outside the
 * feature, except to the composition root, host/wiring/ and host/http/, which assemble and
 * mount features.
 * @module
 */
export { checkText, TEXT_LIMITS } from './content.js';
export { maskE164, parsePhone, type ParsedPhone } from './numbers.js';
export { isVerified, toPhoneRef } from './present.js';
