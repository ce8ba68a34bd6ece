/**
 * The words the service sends to a phone: text bodies and the spoken verification code.
 * Kept in one file so that wording, length (one GSM-7 segment, 160 characters, where
 * possible) and the mandatory opt-out hint are reviewed together.
 * @module
 */

/** Product name used in texts; overridable by config so a self-hoster can brand it. */
export interface TextOptions {
  serviceName: string;
  /** Where HELP sends people, e.g. an e-mail address or a web page. */
  supportContact: string;
}

/** Text carrying a verification code. The code is also what GET /dev/outbox reports as `code`. */
export function codeText(code: string, o: TextOptions): string {
  return `${o.serviceName}: your verification code is ${code}. It expires in 10 minutes. Reply STOP to opt out.`;
}

/** Answer to HELP. */
export function helpText(o: TextOptions): string {
  return `${o.serviceName} wake-up calls. Help: ${o.supportContact}. Reply STOP to stop all calls and texts, START to allow them again.`;
}

/** Answer to START once a STOP block was lifted. */
export function startText(o: TextOptions): string {
  return `${o.serviceName}: calls and texts to this number are allowed again. Reply STOP to opt out, HELP for help.`;
}

/** Sentence spoken by a verification call; digits are separated so a voice reads them one by one. */
export function spokenCode(code: string, o: TextOptions): string {
  const digits = code.split('').join(', ');
  return `This is ${o.serviceName}. Your verification code is ${digits}. Again: ${digits}. Goodbye.`;
}

/** Text carrying a code for the public demo call (POST /demo/start). */
export function demoCodeText(code: string, o: TextOptions): string {
  return `${o.serviceName}: your demo code is ${code}. It expires in 10 minutes. Enter it to get one demo wake-up call. Reply STOP to opt out.`;
}
