/**
 * An inbound text's keyword, once the phone feature applied it to the number (STOP blocks it,
 * START lifts a STOP), applied to the contacts of that number (STOP ends them, YES agrees):
 * the phone feature's `onKeyword` port, filled by the contacts feature's listener.
 * @module
 */
import { contactKeywordListener, type ContactRepliesDeps } from '../contacts/replies.js';
import type { InboundDeps } from '../phone/inbound.js';

/** The phone feature's `onKeyword`. */
export function inboundKeywords(deps: ContactRepliesDeps): NonNullable<InboundDeps['onKeyword']> {
  return contactKeywordListener(deps);
}
