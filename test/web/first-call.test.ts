/**
 * The web app in headless Chromium, against a real server (dev mode, virtual clock): a new
 * person signs in, adds and verifies a number, sets a call for tomorrow 07:00 in their zone
 * after seeing the preview sentence, moves the dev clock and watches it ring and end
 * confirmed. Then screenshots of the main pages at phone and desktop widths (.screenshots/).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { startTestServer } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { PHONE_TEST_ENV } from '../helpers/phone.js';
import {
  addNumberThroughPage,
  apiFromPage,
  goHash,
  clockTo,
  screenshots,
  scriptPhone,
  signInThroughPage,
} from '../helpers/web.js';

const ZONE = 'Europe/Paris';
const E164 = '+12015550177';

describe('web app: first wake-up call', () => {
  let skip = '';
  let browser: Browser | undefined;
  let context: BrowserContext;
  let page: Page;
  let server: TestServer;

  before(async () => {
    const got = await launchChromium();
    if ('skip' in got) {
      skip = got.skip;
      console.log(`browser tests skipped: ${skip}`);
      return;
    }
    browser = got.browser;
    server = await startTestServer({ env: PHONE_TEST_ENV });
    context = await browser.newContext({
      timezoneId: ZONE,
      locale: 'en-GB',
      viewport: { width: 1280, height: 800 },
    });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('signs in, verifies a number, sets tomorrow 07:00 after the preview, and watches it ring and end confirmed', async (t) => {
    if (skip) return t.skip(skip);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) errors.push(m.text());
    });

    await signInThroughPage(page, server, 'alex@example.com');
    // The onboarding stepper shows on a new account, the next step marked.
    await page.locator('li[data-step="phone"][aria-current="step"]').waitFor();
    await page.getByRole('button', { name: `Use ${ZONE} (this browser's zone)` }).click();
    await page.locator('li[data-step="timezone"]').getByText('Done').waitFor();

    await addNumberThroughPage(page, server, E164);

    await page.getByRole('link', { name: 'Calls' }).click();
    await page.getByRole('link', { name: 'New call' }).click();
    await page.getByRole('heading', { name: 'New wake-up call' }).waitFor();
    // Defaults: tomorrow, 07:00, in the home zone. The preview sentence appears before saving.
    assert.equal(await page.getByLabel('Time', { exact: true }).first().inputValue(), '07:00');
    assert.equal(await page.getByRole('combobox', { name: 'Time zone' }).inputValue(), ZONE);
    const sentence = page.locator('#preview-sentence');
    await sentence.waitFor();
    assert.match(await sentence.innerText(), /07:00/);
    await page.getByLabel('Label', { exact: true }).fill('Flight');
    await page.getByRole('button', { name: 'Set the call' }).click();

    const card = page.locator('article[data-schedule]').filter({ hasText: 'Flight' });
    await card.waitFor();
    assert.match(await card.innerText(), /07:00/);
    await screenshots(page, 'calls');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Home lists it under the next calls, with its local time.
    await page.getByRole('link', { name: 'Home' }).click();
    const next = page
      .getByRole('list', { name: 'Next calls' })
      .locator('article')
      .filter({ hasText: 'Flight' });
    await next.waitFor();
    assert.match(await next.innerText(), /07:00 Europe\/Paris/);
    await screenshots(page, 'home');
    await page.setViewportSize({ width: 1280, height: 800 });
    await next.getByRole('link', { name: 'Flight' }).click();
    const status = page.locator('#occurrence-status');
    await status.waitFor();
    assert.equal(await status.getAttribute('data-status'), 'pending');
    const id = page.url().split('/').pop()!;
    const occ = await apiFromPage(page, `/occurrences/${id}`);
    assert.equal(occ.local.time, '07:00');
    assert.equal(occ.local.timezone, ZONE);

    // The phone rings 20 s before it answers and presses 1.
    await scriptPhone(server, E164, ['confirm'], 20);
    await clockTo(server, new Date(Date.parse(occ.scheduled_at) + 2_000).toISOString());
    await page.locator('#occurrence-status[data-status="calling"]').waitFor({ timeout: 6_000 });
    await page.getByRole('cell', { name: 'Ringing' }).waitFor({ timeout: 6_000 });
    await screenshots(page, 'call-ringing');
    await page.setViewportSize({ width: 1280, height: 800 });

    await clockTo(server, new Date(Date.parse(occ.scheduled_at) + 60_000).toISOString());
    await page.locator('#occurrence-status[data-status="confirmed"]').waitFor({ timeout: 6_000 });
    await page.getByRole('cell', { name: 'Confirmed (pressed 1)' }).waitFor();

    // Screenshots of the main pages for review.
    for (const [hash, name, heading] of [
      ['#/calls/new', 'call-new', 'New wake-up call'],
      ['#/numbers', 'numbers', 'Phone numbers'],
      ['#/history', 'history', 'History'],
      ['#/settings', 'settings', 'Settings'],
      ['#/account', 'account', 'Account'],
    ] as const) {
      await goHash(page, hash);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      if (name === 'call-new') await page.locator('#preview-sentence').waitFor();
      await screenshots(page, name);
    }
    assert.deepEqual(errors, []);
  });
});
