/**
 * Hang-up, for the Twilio-compatible telephony adapter (telephony.ts): during a webhook of the
 * same call (the engine reacting to a digit) it is answered in that webhook's TwiML
 * (call-webhooks.ts); otherwise it updates the live call over REST (cancel while ringing, then
 * complete if the call was answered meanwhile; a closing Say and Hangup once answered).
 * @module
 */
import type { Telephony } from '../../../engine/ports.js';
import type { CallTable } from './calls.js';
import type { TwilioClient } from './client.js';
import { twiml, type TwimlVerb } from './twiml.js';

/** Creates the adapter's `hangUp`. */
export function createHangUp(table: CallTable, client: TwilioClient): Telephony['hangUp'] {
  const { warn } = table;
  return async function hangUp(callId, hangUpOptions) {
    const s = table.get(callId);
    if (s && (s.stage === 'ended' || s.hangupRequested)) return;
    if (s && s.inWebhook > 0) {
      s.pendingHangup = hangUpOptions?.say ? { say: hangUpOptions.say } : {};
      s.hangupRequested = true;
      return;
    }
    if (s) s.hangupRequested = true;
    try {
      const answered = s?.stage === 'answered';
      const first = answered
        ? await client.updateCall(callId, {
            Twiml: twiml([
              ...(hangUpOptions?.say
                ? [{ verb: 'Say', text: hangUpOptions.say } as TwimlVerb]
                : []),
              { verb: 'Hangup' },
            ]),
          })
        : await client.updateCall(callId, { Status: 'canceled' });
      // Cancel only works before the answer; the call may have been answered meanwhile.
      if (!first.ok && !answered) {
        const second = await client.updateCall(callId, { Status: 'completed' });
        if (!second.ok)
          warn('twilio: hang-up refused (call probably over)', {
            callSid: callId,
            error: second.error,
          });
      }
    } catch (err) {
      if (s) s.hangupRequested = false;
      throw err;
    }
  };
}
