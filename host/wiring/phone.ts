/**
 * Builds the phone side of the host once per process: the voice provider (simulator or
 * Twilio-compatible), the text sender, the block guard, the code-send limits and the
 * provider's webhook dispatcher. `host/compose.ts` calls {@link createPhoneRuntime} and puts
 * the result in `deps.phone`; `deps.messaging` becomes {@link PhoneRuntime.messaging}.
 * @module
 */
import type { Db } from '../db/sql.js';
import type { Clock, Messaging, Telephony } from '../../engine/index.js';
import { realTime } from '../adapters/clock/system-clock.js';
import {
  createSimulatorTelephony,
  type SimulatorTelephony,
} from '../adapters/telephony/simulator.js';
import { createTwilioClient } from '../adapters/twilio/client.js';
import { createTwilioTexts } from '../adapters/twilio/messaging.js';
import { createTwilioTelephony } from '../adapters/twilio/telephony.js';
import { createTwilioWebhooks } from '../adapters/twilio/webhooks.js';
import { blockNumber } from '../db/phone-numbers.js';
import { createPlacementLedger } from '../db/provider-calls.js';
import { createTextLedger } from '../db/provider-texts.js';
import { recordWebhookEvent, webhookEventSeen } from '../db/webhook-events.js';
import type { Logger } from '../logger.js';
import type { PhoneConfig } from '../phone/config.js';
import { guardTexts } from '../phone/guard.js';
import { CodeSendLimits } from '../phone/limits.js';
import type { PhoneRuntime } from '../phone/runtime.js';
import type { InboundText } from '../ports/telephony.js';
import type { TextOptions } from '../reference/texts.js';
import type { SharedState } from '../shared-state.js';

/** Options of {@link createPhoneRuntime}. */
export interface PhoneRuntimeOptions {
  config: PhoneConfig;
  db: Db;
  /** Where the code-send windows and the check queue live (host/shared-state.ts). */
  shared: SharedState;
  clock: Clock;
  /** The host's messaging before the guard: e-mails (and texts when WAKEUP_SMS=simulator). */
  messaging: Messaging;
  logger: Logger;
  /** Public origin (webhook URLs, HELP's default contact). */
  siteUrl: () => string;
  /** Dev mode: spoken verification codes are logged, as texted ones are by the outbox. */
  dev: boolean;
  /** Handles an inbound text (wired to `inbound.ts` by compose; set late to break the cycle). */
  onInboundText?: (text: InboundText) => Promise<void>;
}

/** Builds the runtime. */
export function createPhoneRuntime(
  options: PhoneRuntimeOptions,
): PhoneRuntime & { setInboundHandler(fn: (t: InboundText) => Promise<void>): void } {
  const { config, db, clock, logger } = options;
  const text = (): TextOptions => ({
    serviceName: config.serviceName,
    supportContact: config.supportContact ?? options.siteUrl(),
  });
  const twilio = config.twilio;
  const client = twilio
    ? createTwilioClient({
        baseUrl: twilio.apiUrl,
        accountSid: twilio.accountSid,
        authToken: twilio.authToken,
      })
    : null;

  let simulator: SimulatorTelephony | null = null;
  let telephony: Telephony;
  let twilioTelephony: ReturnType<typeof createTwilioTelephony> | undefined;
  // Provider webhooks applied, in the database: a replay after a restart changes nothing.
  const events = {
    seen: async (key: string) => await webhookEventSeen(db, key, clock.now()),
    record: async (key: string) => await recordWebhookEvent(db, key, clock.now()),
  };
  if (config.telephony === 'twilio' && client && twilio) {
    twilioTelephony = createTwilioTelephony({
      client,
      clock,
      from: twilio.from,
      publicUrl: options.siteUrl,
      text: text(),
      warn: (message, detail) => logger.warn(detail ?? {}, message),
      // Which attempt owns a provider call, and one placement per number across hosts.
      ledger: createPlacementLedger(db, { now: () => clock.now(), realTime }),
      events,
    });
    telephony = twilioTelephony;
  } else {
    simulator = createSimulatorTelephony({
      clock,
      from: config.callerIds[0]!,
      onSpoken: options.dev
        ? (r) => {
            if (r.script.kind === 'verification_code') {
              logger.info(
                { callId: r.callId, to: r.to },
                `dev phone: call to ${r.to} speaks verification code ${r.script.code}`,
              );
            }
          }
        : undefined,
    });
    telephony = simulator;
  }

  const rawTexts: Pick<Messaging, 'sendText'> =
    config.sms === 'twilio' && client && twilio
      ? createTwilioTexts({
          client,
          from: twilio.smsFrom,
          publicUrl: options.siteUrl,
          clock,
          // Keyed texts (contacts, fallbacks) at most once across a crash.
          ledger: createTextLedger(db, () => clock.now()),
          // The carrier says the recipient opted out: record it as the STOP it was.
          onOptedOut: async (e164) => {
            await blockNumber(db, e164, 'stop', 'provider', clock.now(), 'provider error 21610');
          },
        })
      : { sendText: (m) => options.messaging.sendText(m) };

  const combined: Messaging = {
    sendText: (m) => rawTexts.sendText(m),
    sendEmail: (m) => options.messaging.sendEmail(m),
  };
  let inbound = options.onInboundText;
  const webhooks = twilio
    ? createTwilioWebhooks({
        authToken: twilio.authToken,
        ...(twilioTelephony ? { telephony: twilioTelephony } : {}),
        onInboundText: (t) => (inbound ? inbound(t) : Promise.resolve()),
        onTextStatus: (p) =>
          logger.debug(
            { messageSid: p.MessageSid, status: p.MessageStatus, error: p.ErrorCode },
            'text status',
          ),
        events,
        messageTime: async (sid) => {
          try {
            const r = await client!.getMessage(sid);
            const at = r.ok ? Date.parse(r.body.date_created) : NaN;
            if (Number.isFinite(at)) return at;
            logger.warn(
              { messageSid: sid, error: r.ok ? 'no date_created' : r.error },
              'inbound text: provider time unknown',
            );
          } catch (err) {
            logger.warn({ err, messageSid: sid }, 'inbound text: provider time unknown');
          }
          return null;
        },
      })
    : null;

  return {
    config,
    telephony,
    simulator,
    messaging: guardTexts(combined, db),
    rawTexts,
    limits: new CodeSendLimits(clock, config.codeLimits, options.shared.rateWindows),
    checks: options.shared.queues.queue('phone-verification'),
    webhooks,
    text,
    async resumeCalls() {
      if (!twilioTelephony) return;
      try {
        const counts = await twilioTelephony.resume();
        if (counts.checked > 0)
          logger.info(counts, 'calls read back from the provider after a restart');
      } catch (err) {
        logger.warn({ err }, 'reading calls back from the provider failed');
      }
    },
    setInboundHandler(fn) {
      inbound = fn;
    },
  };
}
