/**
 * The phone side of the host as the phone feature receives it: the voice provider, the text
 * sender with and without the block guard, the code-send limits and the provider's webhook
 * dispatcher. Built once per process by the composition root (host/wiring/phone.ts); the
 * feature sees the ports only, never an adapter.
 * @module
 */
import type { Messaging, Telephony } from '../../engine/index.js';
import type { ProviderWebhooks, SimulatedPhones } from '../ports/telephony.js';
import type { KeyedQueue } from '../rate-limit/one-at-a-time.js';
import type { TextOptions } from '../reference/texts.js';
import type { PhoneConfig } from './config.js';
import type { CodeSendLimits } from './limits.js';

/** The phone side of the host. */
export interface PhoneRuntime {
  readonly config: PhoneConfig;
  /** The voice provider (the engine runtime places its calls through it too). */
  readonly telephony: Telephony;
  /** The simulator when it is the voice provider (PUT /dev/phones scripts it), else null. */
  readonly simulator: SimulatedPhones | null;
  /**
   * Texts and e-mails with the block guard: texts to a blocked number are refused. This is
   * what the rest of the host uses (`deps.messaging`).
   */
  readonly messaging: Messaging;
  /** Text sender WITHOUT the guard: verification codes only, after their own block check. */
  readonly rawTexts: Pick<Messaging, 'sendText'>;
  readonly limits: CodeSendLimits;
  /** Code checks of one number run one at a time (see ../rate-limit/one-at-a-time.ts for why). */
  readonly checks: KeyedQueue;
  /** The provider's webhook dispatcher when a Twilio-compatible provider is configured. */
  readonly webhooks: ProviderWebhooks | null;
  /** Words for texts and calls. */
  text(): TextOptions;
  /**
   * At start, after the engine's runtime: reads back from the voice provider the calls whose
   * end no host handled (a restart), and ends them as the provider says (a no-op on the simulator).
   */
  resumeCalls(): Promise<void>;
}
