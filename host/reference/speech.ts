/**
 * What a call says, for each engine {@link CallScript}: the sentence spoken when the call
 * is answered, and whether a keypad digit is gathered (1 confirm, 2 snooze, 9 stop;
 * contract §4).
 * @module
 */
import type { CallScript } from '../../engine/model.js';
import { spokenCode, type TextOptions } from './texts.js';

/** A rendered script. */
export interface Speech {
  /** Spoken once the call is answered. */
  text: string;
  /** Whether one keypad digit is gathered while it is spoken. */
  gather: boolean;
  /** Spoken when the gather ends without a digit, before hanging up. */
  noInput: string;
}

/** Renders a script in English. */
export function renderScript(script: CallScript, o: TextOptions): Speech {
  switch (script.kind) {
    case 'wake_up': {
      const hello = script.greetingName ? `Good morning, ${script.greetingName}.` : 'Good morning.';
      const note = script.message ? ` ${script.message}` : '';
      const snooze = script.snoozeAllowed ? ' Press 2 to snooze.' : '';
      return {
        text: `${hello} This is your wake-up call from ${o.serviceName}.${note} Press 1 to confirm you are awake.${snooze} Press 9 to stop these calls.`,
        gather: true,
        noInput: 'No key was pressed. Goodbye.',
      };
    }
    case 'test': {
      const hello = script.greetingName ? `Hello, ${script.greetingName}.` : 'Hello.';
      return {
        text: `${hello} This is a test call from ${o.serviceName}. Press 1 to confirm. Press 9 to stop calls to this number.`,
        gather: true,
        noInput: 'No key was pressed. Goodbye.',
      };
    }
    case 'demo':
      return {
        text: `This is a demo wake-up call from ${o.serviceName}. Press 1 to confirm. Press 9 if you did not ask for this call, and we will not call this number again.`,
        gather: true,
        noInput: 'No key was pressed. Goodbye.',
      };
    case 'verification_code':
      return { text: spokenCode(script.code, o), gather: false, noInput: '' };
  }
}
