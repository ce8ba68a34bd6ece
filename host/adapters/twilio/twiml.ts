/**
 * TwiML: the XML a Twilio-compatible provider asks for when a call is answered or a keypad
 * digit was gathered. Only the verbs the service uses: Say, Gather, Pause, Hangup.
 * @module
 */

/** Escapes text for an XML element or attribute. */
export function xmlEscape(value: string): string {
  return value.replace(
    /[<>&"']/g,
    (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' }[c]!};`,
  );
}

/** One verb of a response. */
export type TwimlVerb =
  | { verb: 'Say'; text: string; voice?: string }
  | {
      verb: 'Gather';
      action: string;
      timeoutSeconds: number;
      say: { text: string; voice?: string };
    }
  | { verb: 'Pause'; seconds: number }
  | { verb: 'Hangup' };

function sayXml(text: string, voice?: string): string {
  return `<Say${voice ? ` voice="${xmlEscape(voice)}"` : ''}>${xmlEscape(text)}</Say>`;
}

/** Renders a `<Response>` document. */
export function twiml(verbs: readonly TwimlVerb[]): string {
  const body = verbs
    .map((v) => {
      switch (v.verb) {
        case 'Say':
          return sayXml(v.text, v.voice);
        case 'Gather':
          return `<Gather input="dtmf" numDigits="1" timeout="${v.timeoutSeconds}" action="${xmlEscape(v.action)}" method="POST" actionOnEmptyResult="false">${sayXml(v.say.text, v.say.voice)}</Gather>`;
        case 'Pause':
          return `<Pause length="${v.seconds}"/>`;
        case 'Hangup':
          return '<Hangup/>';
      }
    })
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`;
}
