/**
 * Inbound text keywords, as carriers and the CTIA guidelines define them. A message counts
 * as a keyword only when the whole text is the keyword: case, surrounding spaces and
 * trailing punctuation are ignored (`stop`, ` Stop. `), but `please stop calling` is an
 * ordinary message (ignored; nobody reads inbound texts).
 * @module
 */

/** What an inbound text asks for. */
export type InboundIntent = 'stop' | 'start' | 'help' | 'other';

/** Opt-out words: the number is blocked (`blocked_reason` `stop`). */
export const STOP_WORDS: readonly string[] = [
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
];
/** Opt-in words: a number blocked by STOP is unblocked. */
export const START_WORDS: readonly string[] = ['START', 'UNSTOP', 'YES'];
/** Help words: the service answers with its help text. */
export const HELP_WORDS: readonly string[] = ['HELP', 'INFO'];

/** Classifies an inbound text body. */
export function classifyInbound(body: string): InboundIntent {
  const word = body
    .trim()
    .replace(/[.!?\s]+$/u, '')
    .toUpperCase();
  if (STOP_WORDS.includes(word)) return 'stop';
  if (START_WORDS.includes(word)) return 'start';
  if (HELP_WORDS.includes(word)) return 'help';
  return 'other';
}
