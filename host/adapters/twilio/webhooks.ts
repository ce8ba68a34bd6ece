/**
 * The provider's webhooks, framework-free: checks `X-Twilio-Signature` on every request
 * (403 when missing or wrong, before anything is read), then routes to the call adapter or
 * the inbound-text handler. The HTTP layer only parses the form body and rebuilds the exact
 * public URL.
 *
 * An inbound text is handled at most once per MessageSid (with an {@link EventLog}: across
 * restarts, until the key expires), and carries the provider's creation time of the message
 * (read from its REST API, since the webhook has none) so that an older STOP or START never
 * undoes a newer one.
 * @module
 */
import type {
  EventLog,
  InboundText,
  ProviderWebhooks,
  WebhookRequest,
  WebhookResponse,
} from '../../ports/telephony.js';
import { CALL_WEBHOOK_RETRIES, EMPTY_TWIML, TWILIO_WEBHOOK_PATHS } from './paths.js';
import { verifyTwilioSignature } from './signature.js';
import type { TwilioTelephony } from './telephony.js';

/** Options of {@link createTwilioWebhooks}. */
export interface TwilioWebhooksOptions {
  authToken: string;
  /** Call webhooks go here; omit when texts only run on this provider. */
  telephony?: TwilioTelephony;
  /** Inbound texts go here (STOP, START, HELP...). */
  onInboundText?: (text: InboundText) => Promise<void>;
  /** Outbound text status callbacks go here (optional; logging). */
  onTextStatus?: (params: Record<string, string>) => void;
  /** Messages handled, by `sms:<MessageSid>` (durable deduplication). */
  events?: EventLog;
  /** The provider's creation time of a message (its REST API), or null when it cannot be read. */
  messageTime?: (messageSid: string) => Promise<number | null>;
}

const FORBIDDEN: WebhookResponse = Object.freeze({
  status: 403,
  contentType: 'text/plain',
  body: 'invalid signature',
});
const NOT_FOUND: WebhookResponse = Object.freeze({
  status: 404,
  contentType: 'text/plain',
  body: 'not found',
});

const CALL_PATHS: ReadonlySet<string> = new Set([
  TWILIO_WEBHOOK_PATHS.voice,
  TWILIO_WEBHOOK_PATHS.gather,
  TWILIO_WEBHOOK_PATHS.callStatus,
]);

/**
 * The signature check. A call webhook's URL was handed to the provider with the connection
 * overrides' fragment, which the request does not carry: the signature is accepted over the
 * URL as requested, or over that URL with the fragment (whichever of the two the provider
 * signed, nothing else is accepted).
 */
function signedByProvider(authToken: string, path: string, request: WebhookRequest): boolean {
  if (verifyTwilioSignature(authToken, request.url, request.params, request.signature)) return true;
  return (
    CALL_PATHS.has(path) &&
    verifyTwilioSignature(
      authToken,
      request.url + CALL_WEBHOOK_RETRIES,
      request.params,
      request.signature,
    )
  );
}

/** Creates the dispatcher. */
export function createTwilioWebhooks(options: TwilioWebhooksOptions): ProviderWebhooks {
  return {
    async handle(path, request) {
      if (!signedByProvider(options.authToken, path, request)) return FORBIDDEN;
      const query = new URL(request.url).searchParams;
      switch (path) {
        case TWILIO_WEBHOOK_PATHS.voice:
          return options.telephony
            ? options.telephony.handleCallWebhook('voice', query, request.params)
            : NOT_FOUND;
        case TWILIO_WEBHOOK_PATHS.gather:
          return options.telephony
            ? options.telephony.handleCallWebhook('gather', query, request.params)
            : NOT_FOUND;
        case TWILIO_WEBHOOK_PATHS.callStatus:
          return options.telephony
            ? options.telephony.handleCallWebhook('callStatus', query, request.params)
            : NOT_FOUND;
        case TWILIO_WEBHOOK_PATHS.sms: {
          const { From, To, Body, MessageSid } = request.params;
          if (!From) return { status: 400, contentType: 'text/plain', body: 'From is required' };
          const key = MessageSid ? `sms:${MessageSid}` : null;
          if (key && (await options.events?.seen(key))) return EMPTY_TWIML;
          const sentAt =
            MessageSid && options.messageTime ? await options.messageTime(MessageSid) : null;
          await options.onInboundText?.({
            from: From,
            to: To ?? '',
            body: Body ?? '',
            messageId: MessageSid ?? null,
            sentAt,
          });
          if (key) await options.events?.record(key);
          // Replies (HELP, START) go out through the Messaging port, where the block rules apply.
          return EMPTY_TWIML;
        }
        case TWILIO_WEBHOOK_PATHS.smsStatus:
          options.onTextStatus?.(request.params);
          return { status: 204, contentType: 'text/plain', body: '' };
        default:
          return NOT_FOUND;
      }
    },
  };
}
