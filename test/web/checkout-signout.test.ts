/**
 * Issue 38, item 8: after a checkout, a link leads back to the app; Sign out is in the header
 * on every page while signed in (and not on the sign-in page). With the dev mode's simulated
 * payment provider. At 390 px and 1280 px. Screenshots: .screenshots/checkout-*.png.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  atBothWidths,
  goHash,
  screenshots,
  signInThroughPage,
  webSession,
} from '../helpers/web.js';

describe('web app: back from checkout, and Sign out in the header', () => {
  const web = webSession({ timezoneId: 'Europe/Paris' });

  it('pays in the simulator and comes back to the app by the link; signs out from the header', async (t) => {
    if (web.skip) return t.skip(web.skip);
    const { page, server } = web;
    await page.goto(`${server.url}/`);
    await page.getByLabel('Email address').waitFor();
    assert.equal(
      await page.getByRole('button', { name: 'Sign out' }).isVisible(),
      false,
      'no Sign out before sign-in',
    );
    await signInThroughPage(page, server, `checkout-${randomUUID()}@example.com`);
    const signOut = page.locator('header').getByRole('button', { name: 'Sign out' });
    await atBothWidths(page, async (width) => {
      assert.ok(await signOut.isVisible(), `${width}: Sign out in the header`);
      assert.ok(
        (await page.evaluate<number>('document.documentElement.scrollWidth')) <= width,
        `${width}: no sideways scroll`,
      );
    });
    await screenshots(page, 'checkout-header');

    await goHash(page, '#/account');
    const subscribe = page.getByRole('button', { name: /^Subscribe to / }).first();
    await subscribe.click();
    await page.getByRole('heading', { name: 'Simulated checkout' }).waitFor();
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/app\/subscribe\/done$/);
    const back = page.getByRole('link', { name: 'Back to Wake-Up Call' });
    await atBothWidths(page, async (width) => {
      assert.ok(await back.isVisible(), `${width}: the way back`);
    });
    await screenshots(page, 'checkout-done');
    await back.click();
    await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();

    await signOut.click();
    await page.getByLabel('Email address').waitFor();
    assert.equal(await signOut.isVisible(), false);
    assert.equal(await page.evaluate<number>("fetch('/api/v1/me').then((r) => r.status)"), 401);
  });
});
