/**
 * Where the provider's webhooks reach the service: at the site root (not under /api/v1:
 * they are not part of the public API and are authenticated by signature, not by
 * credentials). Configure the phone number's inbound-text webhook in the provider's console
 * as `{WAKEUP_SITE_URL}/webhooks/twilio/sms` (POST); the call URLs are sent with each call.
 * @module
 */
import type { WebhookResponse } from '../../ports/telephony.js';

/** Webhook paths, relative to the public URL. */
export const TWILIO_WEBHOOK_PATHS = Object.freeze({
  /** Fetched when a call is answered; answers TwiML. Query: k (attempt key), s (script). */
  voice: '/webhooks/twilio/voice',
  /** Gather action: the keypad digit. Query: k. Answers TwiML. */
  gather: '/webhooks/twilio/gather',
  /** Call status callbacks (ringing, completed, busy, no-answer, failed, canceled). Query: k. */
  callStatus: '/webhooks/twilio/call-status',
  /** Inbound texts (STOP, START, HELP, ...). Answers empty TwiML. */
  sms: '/webhooks/twilio/sms',
  /** Outbound text status callbacks (logged only). */
  smsStatus: '/webhooks/twilio/sms-status',
});

/**
 * Connection overrides (Twilio's URL fragment extension) on every call webhook URL the service
 * hands the provider: a request that cannot connect, times out or gets a 5xx is tried again,
 * up to 5 times within 15 s, so a host that restarts within that time loses no webhook. The
 * fragment never reaches the server (a URL's fragment is not sent), and no 4xx is retried (a
 * refused signature stays refused).
 */
export const CALL_WEBHOOK_RETRIES = '#rc=5&rp=ct,rt,5xx&ct=1000&tt=15000';

/** A call webhook's URL under `publicUrl`, with the connection overrides that make the provider retry it. */
export const callWebhookUrl = (publicUrl: string, path: string, query: Record<string, string>) =>
  `${publicUrl}${path}?${new URLSearchParams(query).toString()}${CALL_WEBHOOK_RETRIES}`;

/** An empty TwiML answer ("do nothing more"). */
export const EMPTY_TWIML: WebhookResponse = Object.freeze({
  status: 200,
  contentType: 'text/xml',
  body: '<?xml version="1.0" encoding="UTF-8"?><Response></Response>',
});
