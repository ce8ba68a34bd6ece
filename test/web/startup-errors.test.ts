/**
 * Issue 38, item 1: no lock-out on the dev clock. When the account cannot be read (here: the
 * per-account rate limit, on the virtual clock), the page says what happened and when to try
 * again, instead of hanging on "Loading…"; the dev bar stays, and moving the clock gets the
 * user out (real time does too: test/host/rate-limit.test.ts). Checked at start-up (a reload)
 * and on a page change, at 390 px and 1280 px. Screenshots: .screenshots/startup-*.png.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { startTestServer } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { atBothWidths, goHash, screenshots, signInThroughPage } from '../helpers/web.js';

describe('web app: an error at start-up', () => {
  let skip = '';
  let browser: Browser | undefined;
  let page: Page;
  let server: TestServer;
  const pageErrors: string[] = [];

  before(async () => {
    const got = await launchChromium();
    if ('skip' in got) {
      skip = got.skip;
      console.log(`browser tests skipped: ${skip}`);
      return;
    }
    browser = got.browser;
    server = await startTestServer({ env: { WAKEUP_RATE_LIMIT_ACCOUNT: '20' } });
    const context = await browser.newContext({
      timezoneId: 'Europe/Paris',
      locale: 'en-GB',
      viewport: { width: 1280, height: 800 },
    });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (e) => pageErrors.push(e.message));
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Spends the account's requests of this minute, from inside the page (its session). */
  async function exhaustAccountLimit(): Promise<void> {
    const status = await page.evaluate(async () => {
      let s = 200;
      for (let i = 0; i < 40 && s !== 429; i++)
        s = (await fetch('/api/v1/me', { credentials: 'same-origin' })).status;
      return s;
    });
    assert.equal(status, 429);
  }

  /** The error page: a heading, the sentence with the wait, the dev bar, no endless "Loading…". */
  async function expectErrorPage(): Promise<void> {
    await page.getByRole('heading', { name: 'This page could not load' }).waitFor();
    await atBothWidths(page, async (width) => {
      const alert = page.locator('main [role=alert]');
      assert.equal(await alert.isVisible(), true, `${width}: the reason is shown`);
      assert.match(
        await alert.innerText(),
        /Too many tries in a short time\. You can try again in \d+ seconds\./,
      );
      assert.equal(await alert.getAttribute('data-code'), 'rate_limited');
      assert.equal(await page.locator('#devbar').isVisible(), true, `${width}: the dev bar stays`);
      assert.equal(await page.getByRole('button', { name: '+1 min' }).isEnabled(), true);
      assert.equal(await page.getByRole('button', { name: 'Try again' }).isVisible(), true);
      assert.equal(await page.getByText('Loading…').count(), 0);
    });
  }

  it('at start-up: says why the page could not load, keeps the dev bar, and the clock gets the user out', async (t) => {
    if (skip) return t.skip(skip);
    await signInThroughPage(page, server, `startup-${randomUUID()}@example.com`);
    await exhaustAccountLimit();
    await page.reload();
    await expectErrorPage();
    await screenshots(page, 'startup-rate-limited');
    await page.getByRole('button', { name: '+1 min' }).click();
    await page.getByRole('heading', { level: 1, name: /^Hello/ }).waitFor();
    assert.deepEqual(pageErrors, [], 'no uncaught error in the page');
  });

  it('on a page change: the same page, and Try again works once the window has passed', async (t) => {
    if (skip) return t.skip(skip);
    await exhaustAccountLimit();
    await goHash(page, '#/calls');
    await expectErrorPage();
    await fetch(`${server.url}/dev/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_seconds: 60 }),
    });
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'Wake-up calls' }).waitFor();
    assert.deepEqual(pageErrors, [], 'no uncaught error in the page');
  });
});
