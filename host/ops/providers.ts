/**
 * Which provider runs behind each port, for the first log lines (`host/server.ts`): the
 * operator sees at a glance whether real phones ring and real emails leave, and a
 * production server still on a simulator says so loudly. Reads the configuration only;
 * never prints a credential (the SMTP relay is shown without its password).
 * @module
 */
import { describeSmtp } from '../adapters/email/config.js';
import type { HostConfig } from '../config.js';

/** One port's provider. */
export interface ProviderLine {
  /** `telephony`, `texts`, `email`, `payments`. */
  port: string;
  /** `simulator`, `twilio`, `smtp`, `stripe`, `none`. */
  provider: string;
  /** Where it goes (API root, relay without password), or null for a simulator. */
  target: string | null;
  simulated: boolean;
  /** What to set to use a real provider (for the warning). */
  hint: string;
}

/** The providers in use, in a fixed order. */
export function describeProviders(config: HostConfig): ProviderLine[] {
  const twilioTarget = config.phone.twilio ? config.phone.twilio.apiUrl : null;
  return [
    {
      port: 'telephony',
      provider: config.phone.telephony,
      target: config.phone.telephony === 'twilio' ? twilioTarget : null,
      simulated: config.phone.telephony === 'simulator',
      hint: 'no real phone rings; set WAKEUP_TELEPHONY=twilio and the WAKEUP_TWILIO_* variables',
    },
    {
      port: 'texts',
      provider: config.phone.sms,
      target: config.phone.sms === 'twilio' ? twilioTarget : null,
      simulated: config.phone.sms === 'simulator',
      hint: 'texts (phone verification codes, fallback texts) go to the internal outbox only; set WAKEUP_SMS=twilio',
    },
    {
      port: 'email',
      provider: config.email.provider,
      target: config.email.smtp ? describeSmtp(config.email.smtp) : null,
      simulated: config.email.provider === 'simulator',
      hint: 'sign-in codes go to the internal outbox only; set WAKEUP_EMAIL=smtp',
    },
    {
      // `none`: no checkout (503 provider_unavailable); plans can still be granted by `admin plan`.
      port: 'payments',
      provider: config.billing.payments,
      target: config.billing.stripe ? config.billing.stripe.apiUrl : null,
      simulated: config.billing.payments === 'simulator',
      hint: 'checkouts are paid on a simulated page; set WAKEUP_PAYMENTS=stripe and the WAKEUP_STRIPE_* variables',
    },
  ];
}
