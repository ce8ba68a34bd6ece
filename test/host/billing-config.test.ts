/**
 * The billing settings of loadConfig: defaults, and each bad value refused with its variable named.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../host/config.js';
import { PRODUCTION_ENV } from '../helpers/server.js';

const base = { WAKEUP_DB: '/tmp/x.sqlite' };

describe('billing configuration', () => {
  it('defaults: the simulator and the web checkout in dev mode; no payments and no web checkout in production', () => {
    const dev = loadConfig(base).billing;
    assert.deepEqual([dev.payments, dev.webCheckout, dev.inapp], ['simulator', true, null]);
    assert.match(dev.webhookSecret, /^whsec_sim_/);
    const prod = loadConfig({ ...base, ...PRODUCTION_ENV }).billing;
    assert.deepEqual([prod.payments, prod.webCheckout], ['none', false]);
  });

  for (const [label, env, pattern] of [
    [
      'simulator outside dev mode',
      { ...PRODUCTION_ENV, WAKEUP_PAYMENTS: 'simulator' },
      /WAKEUP_PAYMENTS=simulator needs dev mode/,
    ],
    ['unknown provider', { WAKEUP_PAYMENTS: 'paypal' }, /WAKEUP_PAYMENTS=paypal/],
    ['stripe without a key', { WAKEUP_PAYMENTS: 'stripe' }, /WAKEUP_STRIPE_SECRET_KEY/],
    [
      'stripe without the webhook secret',
      { WAKEUP_PAYMENTS: 'stripe', WAKEUP_STRIPE_SECRET_KEY: 'sk' },
      /WAKEUP_PAYMENTS_WEBHOOK_SECRET/,
    ],
    [
      'stripe without a price for a plan',
      {
        WAKEUP_PAYMENTS: 'stripe',
        WAKEUP_STRIPE_SECRET_KEY: 'sk',
        WAKEUP_PAYMENTS_WEBHOOK_SECRET: 'w',
        WAKEUP_STRIPE_PRICES: 'traveler_monthly=p1',
      },
      /no price id for the purchasable plan traveler_yearly/,
    ],
    ['plans not JSON', { WAKEUP_BILLING_PLANS: '[{' }, /WAKEUP_BILLING_PLANS: not JSON/],
    [
      'a plan without a currency',
      {
        WAKEUP_BILLING_PLANS:
          '[{"code":"a","name":"A","price_cents":1,"interval":"month","included_calls_per_period":1}]',
      },
      /currency/,
    ],
    [
      'a product mapped to no plan',
      { WAKEUP_INAPP_API_KEY: 'k', WAKEUP_INAPP_PRODUCTS: 'com.x=gold' },
      /WAKEUP_INAPP_PRODUCTS/,
    ],
    ['web checkout flag', { WAKEUP_WEB_CHECKOUT: 'yes' }, /WAKEUP_WEB_CHECKOUT=yes/],
  ] as const) {
    it(`refuses ${label}`, () => {
      assert.throws(
        () => loadConfig({ ...base, ...env }),
        (err: unknown) => err instanceof ConfigError && pattern.test(err.message),
      );
    });
  }
});
