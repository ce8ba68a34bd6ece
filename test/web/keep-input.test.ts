/**
 * Issue 38, item 3: no redraw loses input. The dev bar's +1 min / +10 min draw the page again;
 * so may a stray render (a second hashchange). What was typed, ticked and chosen stays, with
 * the focus and the live preview; a form sent successfully comes back empty. At 390 px and
 * 1280 px. Screenshots: .screenshots/keep-*.png.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { startTestServer } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { PHONE_TEST_ENV } from '../helpers/phone.js';
import {
  addNumberThroughPage,
  atBothWidths,
  goHash,
  screenshots,
  signInThroughPage,
} from '../helpers/web.js';

describe('web app: a redraw keeps what was typed', () => {
  let skip = '';
  let browser: Browser | undefined;
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
    const context = await browser.newContext({
      timezoneId: 'Europe/Paris',
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

  /** Marks the page's main content, runs `act`, and waits until the content was drawn anew. */
  async function redrawnBy(act: () => Promise<void>): Promise<void> {
    await page.evaluate("document.querySelector('main .view').dataset.old = '1'");
    await act();
    await page.locator('main .view:not([data-old])').waitFor();
  }

  it('the dev bar’s +1 min and +10 min keep the new-call form as filled, preview included', async (t) => {
    if (skip) return t.skip(skip);
    await signInThroughPage(page, server, `keep-${randomUUID()}@example.com`);
    await addNumberThroughPage(page, server, '+12015550164');
    await atBothWidths(page, async (width) => {
      await goHash(page, '#/');
      await page.getByRole('heading', { level: 1, name: /^Hello/ }).waitFor();
      await goHash(page, '#/calls/new');
      await page.getByRole('heading', { name: 'New wake-up call' }).waitFor();
      await page.getByRole('radio', { name: 'Every week' }).check();
      await page.getByLabel('Sat', { exact: true }).check();
      await page.getByLabel('Label', { exact: true }).fill(`Flight home ${width}`);
      await page.getByLabel('Spoken note (optional)').fill('Your taxi is at six.');
      await page
        .locator('#preview-sentence')
        .filter({ hasText: /Fri and Sat at 07:00/ })
        .waitFor();
      for (const button of ['+1 min', '+10 min']) {
        await redrawnBy(() => page.getByRole('button', { name: button }).click());
        assert.equal(
          await page.getByLabel('Label', { exact: true }).inputValue(),
          `Flight home ${width}`,
          `${width} ${button}: label`,
        );
        assert.equal(
          await page.getByLabel('Spoken note (optional)').inputValue(),
          'Your taxi is at six.',
          `${width} ${button}: note`,
        );
        assert.equal(
          await page.getByRole('radio', { name: 'Every week' }).isChecked(),
          true,
          `${width} ${button}: mode`,
        );
        assert.equal(
          await page.getByLabel('Sat', { exact: true }).isChecked(),
          true,
          `${width} ${button}: Saturday`,
        );
        assert.equal(
          await page.getByRole('group', { name: 'Days' }).isVisible(),
          true,
          `${width} ${button}: the weekly fields are shown`,
        );
        await page
          .locator('#preview-sentence')
          .filter({ hasText: /Fri and Sat at 07:00/ })
          .waitFor();
      }
    });
    await screenshots(page, 'keep-new-call-after-clock');
  });

  it('a stray second render keeps the contact being typed, and the focus in its field', async (t) => {
    if (skip) return t.skip(skip);
    await atBothWidths(page, async (width) => {
      await goHash(page, '#/contacts');
      await page.getByRole('heading', { name: 'Contacts', exact: true }).waitFor();
      await page.getByLabel('Their mobile number, with country code').fill('+12015550163');
      const name = page.getByLabel('Their name');
      await name.click();
      await name.pressSequentially('Ann');
      await redrawnBy(() =>
        page.evaluate("window.dispatchEvent(new HashChangeEvent('hashchange'))"),
      );
      await page.keyboard.type('a Lee');
      assert.equal(
        await name.inputValue(),
        'Anna Lee',
        `${width}: typing went on in the same field`,
      );
      assert.equal(
        await page.getByLabel('Their mobile number, with country code').inputValue(),
        '+12015550163',
        `${width}`,
      );
      if (width === 390) await screenshots(page, 'keep-contact-after-redraw');
      await page.getByLabel('Their mobile number, with country code').fill('');
      await name.fill('');
    });
  });

  it('a form sent successfully comes back empty', async (t) => {
    if (skip) return t.skip(skip);
    await page.getByRole('link', { name: 'Numbers' }).click();
    await page.getByRole('heading', { name: 'Phone numbers' }).waitFor();
    await page.getByLabel('Phone number', { exact: true }).fill('+12015550162');
    await page.getByLabel('Label (optional)').fill('Office');
    await redrawnBy(() => page.getByRole('button', { name: 'Add and send code' }).click());
    await page.locator('article[data-number="+12015550162"]').waitFor();
    assert.equal(await page.getByLabel('Phone number', { exact: true }).inputValue(), '');
    assert.equal(await page.getByLabel('Label (optional)').inputValue(), '');
  });
});
