/**
 * The call webhooks of the Twilio-compatible telephony adapter (telephony.ts), signature-checked
 * by `webhooks.ts` before anything here runs:
 * - Answer URL → `call.answered` (by `machine` when the provider's AnsweredBy says a machine
 *   or fax), answered with TwiML: the script (from the URL's `s`, so that any instance can
 *   answer after a restart) inside a one-digit Gather, then a goodbye.
 * - Gather action → `call.digits`; the call then holds (Pause) until `hangUp`.
 * - Status callbacks → `call.ringing` and the one `call.ended`.
 * Events for one call are handled one at a time, in arrival order; a duplicate or a late event
 * (a ringing after the answer, anything after the end) is dropped, so the handler sees each
 * event at most once per call, ending with exactly one `call.ended`. A hang-up asked for while
 * a webhook of the call runs is answered in that webhook's TwiML.
 * @module
 */
import type { CallScript } from '../../../engine/model.js';
import type { TelephonyEvent } from '../../../engine/ports.js';
import { renderScript } from '../../reference/speech.js';
import type { TextOptions } from '../../reference/texts.js';
import type { WebhookResponse } from '../../ports/telephony.js';
import { END_REASONS, type CallState, type CallTable } from './calls.js';
import { callWebhookUrl, TWILIO_WEBHOOK_PATHS } from './paths.js';
import { twiml, type TwimlVerb } from './twiml.js';

/** The call webhooks' kinds, one per path. */
export type CallWebhookKind = 'voice' | 'gather' | 'callStatus';

/** What the webhooks need beside the call table. */
export interface CallWebhookOptions {
  publicUrl: () => string;
  text: TextOptions;
  /** Seconds the Gather waits for a digit after the speech. */
  gatherTimeoutSeconds: number;
  /** Seconds a call holds after a digit while the engine decides. */
  holdSeconds: number;
  /**
   * The digits the provider's record of the call says its Gather action posted (resume.ts), or
   * null. Asked when an answered call ends here with no key press handled by any host: the
   * press may have come while no host answered, for longer than the provider's retries.
   */
  readPress?: (callSid: string) => Promise<string | null>;
  /**
   * Records a call this process did not place when its first webhook here arrives (the
   * ledger's `record`): the process that created it may have died before recording it, and a
   * call the ledger does not hold is never read back after a restart.
   */
  record?: (callSid: string, idempotencyKey: string) => Promise<void>;
}

const VOICES: Record<string, string> = { female: 'woman', male: 'man' };

/** Encodes a script for the answer URL. */
export function encodeScript(script: CallScript): string {
  return Buffer.from(JSON.stringify(script), 'utf8').toString('base64url');
}

function decodeScript(value: string | null): CallScript | null {
  if (!value) return null;
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as CallScript;
    return parsed && typeof parsed === 'object' && typeof parsed.kind === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

const xml = (verbs: TwimlVerb[]): WebhookResponse => ({
  status: 200,
  contentType: 'text/xml',
  body: twiml(verbs),
});

const hangupTwiml = (say?: string): WebhookResponse =>
  xml([...(say ? [{ verb: 'Say', text: say } as TwimlVerb] : []), { verb: 'Hangup' }]);

/** The TwiML of a hang-up asked for during this webhook, or null when none was. */
function pendingHangup(s: CallState): WebhookResponse | null {
  if (!s.pendingHangup) return null;
  const say = s.pendingHangup.say;
  s.pendingHangup = null;
  return hangupTwiml(say);
}

/**
 * The provider's word that the call was answered (a Gather action; a `completed` status,
 * which Twilio gives only to answered calls) when this instance's memory still says placed
 * or ringing: another instance served the answer URL (several hosts behind one load
 * balancer). The event log holds that instance's `answered` (this one is then skipped); if
 * it died first, this records it.
 */
async function answeredElsewhere(
  table: CallTable,
  s: CallState,
  params: Record<string, string>,
): Promise<void> {
  if (s.stage !== 'placed' && s.stage !== 'ringing') return;
  s.stage = 'answered';
  const by = (params.AnsweredBy ?? '').startsWith('machine') ? 'machine' : 'person';
  await table.once(
    s,
    { type: 'call.answered', callId: s.sid, idempotencyKey: s.key, at: table.clock.now(), by },
    true,
  );
}

/**
 * A status callback (or what the provider's read-back says, resume.ts): `ringing` once, then the
 * one `call.ended`. Answers 204.
 */
export async function onCallStatus(
  table: CallTable,
  s: CallState,
  params: Record<string, string>,
): Promise<WebhookResponse> {
  const { clock } = table;
  const status = params.CallStatus ?? '';
  if (status === 'ringing') {
    if (s.stage === 'placed') {
      s.stage = 'ringing';
      await table.once(s, {
        type: 'call.ringing',
        callId: s.sid,
        idempotencyKey: s.key,
        at: clock.now(),
      });
    }
  } else if (END_REASONS[status] && s.stage !== 'ended') {
    if (status === 'completed') await answeredElsewhere(table, s, params);
    const answered = s.stage === 'answered';
    s.stage = 'ended';
    s.endedAt = clock.now();
    const duration = Number(params.CallDuration);
    const event: TelephonyEvent = {
      type: 'call.ended',
      callId: s.sid,
      idempotencyKey: s.key,
      at: s.endedAt,
      reason: END_REASONS[status],
      durationSeconds: answered && Number.isFinite(duration) ? duration : null,
      ...(status === 'failed' && params.ErrorCode ? { errorCode: params.ErrorCode } : {}),
    };
    await table.once(s, event);
  }
  return { status: 204, contentType: 'text/plain', body: '' };
}

/**
 * A Gather action's digits (or what the provider's record of the call says it posted,
 * resume.ts): the one `call.digits` of an answered call. A call ended since takes its digits
 * too, as long as its end is not yet handled.
 */
export async function onDigits(
  table: CallTable,
  s: CallState,
  params: Record<string, string>,
): Promise<void> {
  const digits = (params.Digits ?? '').trim();
  await answeredElsewhere(table, s, params);
  if (digits && s.stage === 'answered' && !s.digitsSeen) {
    s.digitsSeen = true;
    await table.once(
      s,
      { type: 'call.digits', callId: s.sid, idempotencyKey: s.key, at: table.clock.now(), digits },
      true,
    );
  }
}

/** Creates the handler of the call webhooks. `query` is the URL's query string parsed. */
export function createCallWebhooks(table: CallTable, options: CallWebhookOptions) {
  const { clock, warn } = table;

  async function onVoice(
    s: CallState,
    query: URLSearchParams,
    params: Record<string, string>,
  ): Promise<WebhookResponse> {
    const answeredBy = params.AnsweredBy ?? '';
    const by = answeredBy.startsWith('machine') || answeredBy === 'fax' ? 'machine' : 'person';
    if (s.stage === 'placed' || s.stage === 'ringing') {
      s.stage = 'answered';
      await table.once(
        s,
        { type: 'call.answered', callId: s.sid, idempotencyKey: s.key, at: clock.now(), by },
        true,
      );
    }
    const hangup = pendingHangup(s);
    if (hangup) return hangup;
    if (s.stage === 'ended') return hangupTwiml();
    const script = decodeScript(query.get('s'));
    if (!script) {
      warn('twilio: answer URL without a readable script', { callSid: s.sid });
      return hangupTwiml();
    }
    const speech = renderScript(script, options.text);
    const voice = 'voice' in script && script.voice ? VOICES[script.voice] : undefined;
    const voiced = voice ? { voice } : {};
    if (!speech.gather)
      return xml([{ verb: 'Say', text: speech.text, ...voiced }, { verb: 'Hangup' }]);
    return xml([
      {
        verb: 'Gather',
        action: callWebhookUrl(options.publicUrl(), TWILIO_WEBHOOK_PATHS.gather, { k: s.key }),
        timeoutSeconds: options.gatherTimeoutSeconds,
        say: { text: speech.text, ...voiced },
      },
      { verb: 'Say', text: speech.noInput, ...voiced },
      { verb: 'Hangup' },
    ]);
  }

  async function onGather(s: CallState, params: Record<string, string>): Promise<WebhookResponse> {
    await onDigits(table, s, params);
    // Otherwise hold the line while the engine decides; a later hangUp replaces this over REST.
    return (
      pendingHangup(s) ?? xml([{ verb: 'Pause', seconds: options.holdSeconds }, { verb: 'Hangup' }])
    );
  }

  /** A status callback; the end of an answered call first takes a key press lost meanwhile. */
  async function onStatus(s: CallState, params: Record<string, string>): Promise<WebhookResponse> {
    if (
      options.readPress &&
      params.CallStatus === 'completed' &&
      s.stage !== 'ended' &&
      !s.digitsSeen &&
      s.stage !== 'answered' &&
      (await table.handled(s, 'answered')) &&
      !(await table.handled(s, 'digits'))
    ) {
      // Answered under a host that is gone (this one before a restart, or another), and no
      // press handled anywhere.
      const digits = await options.readPress(s.sid).catch(() => null);
      if (digits) await onDigits(table, s, { ...params, Digits: digits });
    }
    return onCallStatus(table, s, params);
  }

  return function handleCallWebhook(
    kind: CallWebhookKind,
    query: URLSearchParams,
    params: Record<string, string>,
  ): Promise<WebhookResponse> {
    const sid = params.CallSid;
    const key = query.get('k');
    if (!sid || !key)
      return Promise.resolve({
        status: 400,
        contentType: 'text/plain',
        body: 'CallSid and k are required',
      });
    const placedElsewhere = options.record !== undefined && table.get(sid) === undefined;
    const s = table.stateOf(sid, key);
    return table.serial(s, async () => {
      if (placedElsewhere) await options.record!(sid, key);
      return kind === 'voice'
        ? onVoice(s, query, params)
        : kind === 'gather'
          ? onGather(s, params)
          : onStatus(s, params);
    });
  };
}
