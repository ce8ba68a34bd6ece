/**
 * Issue 30, "As people meet it": what a person actually sees, checked by computed visibility
 * (Playwright's isVisible: display, visibility and size), not by presence in the DOM.
 * - the signed-out page shows sign-in only (no navigation);
 * - the new-call form shows only the fields of the chosen mode, in each of its three modes,
 *   and the edit form in each of its two; the settings form hides the retry fields while the
 *   built-in default is ticked;
 * - refusals read as sentences naming the field in words: no pattern, no code;
 * - packs read as call credits, not a subscription;
 * - every page's icon is served (no 404 on the way).
 * Screenshots of each state go to .screenshots/ (what-*.png).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { startTestServer } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { PHONE_TEST_ENV } from '../helpers/phone.js';
import { addNumberThroughPage, goHash, screenshots, signInThroughPage } from '../helpers/web.js';

const E164 = '+12015550181';

/** What no message a person reads may contain: a pattern, a code in brackets, an API field name. */
const DEVELOPER_TEXT = /\^|\\d|\$\.|\(([a-z]+_)+[a-z]+\)|\b[a-z]+_[a-z_]+\b|must match/;

describe('web app: what a person sees', () => {
  let skip = '';
  let browser: Browser | undefined;
  let page: Page;
  let server: TestServer;
  const notFound: string[] = [];

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
    page.on('response', (r) => {
      if (r.status() === 404) notFound.push(r.url());
    });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The visible state of each named control of the form, by its name attribute. */
  async function visibleByName(names: string[]): Promise<Record<string, boolean>> {
    const out: Record<string, boolean> = {};
    for (const n of names) {
      const all = page.locator(`form [name="${n}"]`);
      let any = false;
      for (let i = 0; i < (await all.count()); i++) any ||= await all.nth(i).isVisible();
      out[n] = any;
    }
    return out;
  }

  it('the signed-out page shows sign-in only, and the site icon is served', async (t) => {
    if (skip) return t.skip(skip);
    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.equal(
      await page.locator('#nav').isVisible(),
      false,
      'navigation hidden when signed out',
    );
    assert.equal(await page.getByRole('link', { name: 'Calls' }).isVisible(), false);
    assert.equal(await page.getByLabel('Email address').isVisible(), true);
    assert.equal(await page.locator('#devbar').isVisible(), true, 'the dev bar: dev mode is on');
    await screenshots(page, 'what-signed-out');
    const icon = await fetch(`${server.url}/favicon.ico`);
    assert.equal(icon.status, 200);
    assert.equal(icon.headers.get('content-type'), 'image/x-icon');
    assert.equal((await fetch(`${server.url}/ui/favicon.svg`)).status, 200);
  });

  it('a wrong sign-in code reads as a sentence, not as its code', async (t) => {
    if (skip) return t.skip(skip);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByLabel('Email address').fill('typo@example.com');
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByLabel('6-digit code').fill('000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const banner = page.locator('main [role=alert]').filter({ hasText: /\S/ });
    await banner.waitFor();
    const text = await banner.innerText();
    assert.match(text, /code is wrong or has expired/);
    assert.doesNotMatch(text, DEVELOPER_TEXT);
    // A signed-out visitor still sees no navigation while on the code step.
    assert.equal(await page.locator('#nav').isVisible(), false);
  });

  it('an invalid phone number is refused in words, naming the field', async (t) => {
    if (skip) return t.skip(skip);
    await signInThroughPage(page, server, `what-${randomUUID()}@example.com`);
    assert.equal(await page.locator('#nav').isVisible(), true, 'navigation shown once signed in');
    await page.getByRole('link', { name: 'Numbers' }).click();
    await page.getByLabel('Phone number', { exact: true }).fill('0612345678');
    await page.getByRole('button', { name: 'Add and send code' }).click();
    const form = page.locator('form', { has: page.getByLabel('Phone number', { exact: true }) });
    const atField = form.locator('.field-error').filter({ hasText: /\S/ });
    await atField.waitFor();
    const text = await atField.innerText();
    assert.match(text, /phone number/i);
    assert.doesNotMatch(text, DEVELOPER_TEXT, text);
    assert.equal(
      await form.locator('.form-error').innerText(),
      '',
      'shown once: at its field, not again at the top',
    );
    assert.equal(
      await page.getByLabel('Phone number', { exact: true }).getAttribute('aria-invalid'),
      'true',
    );
    await screenshots(page, 'what-phone-error');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByLabel('Phone number', { exact: true }).fill('');
    await addNumberThroughPage(page, server, E164);
  });

  it('the new-call form shows only the fields of the chosen mode, in each mode', async (t) => {
    if (skip) return t.skip(skip);
    await goHash(page, '#/calls/new');
    await page.getByRole('heading', { name: 'New wake-up call' }).waitFor();
    const names = ['local_date', 'local_time', 'in_minutes', 'days_of_week', 'end_date'];
    const expected: Record<string, Record<string, boolean>> = {
      'On a date': {
        local_date: true,
        local_time: true,
        in_minutes: false,
        days_of_week: false,
        end_date: false,
      },
      'In a few minutes': {
        local_date: false,
        local_time: false,
        in_minutes: true,
        days_of_week: false,
        end_date: false,
      },
      'Every week': {
        local_date: false,
        local_time: true,
        in_minutes: false,
        days_of_week: true,
        end_date: true,
      },
    };
    const sentence = page.locator('#preview-sentence');
    await sentence.waitFor();
    for (const [mode, want] of Object.entries(expected)) {
      const before = await sentence.innerText();
      await page.getByRole('radio', { name: mode }).check();
      // The preview follows the mode (debounced): wait for its new sentence before the screenshot.
      // (Polled from here: the page's CSP forbids the eval a waitForFunction string needs.)
      for (
        let i = 0;
        mode !== 'On a date' && i < 100 && (await sentence.innerText()) === before;
        i++
      )
        await page.waitForTimeout(50);
      const said = await sentence.innerText();
      if (mode === 'Every week') assert.match(said, /weekdays/, said);
      if (mode === 'In a few minutes') assert.match(said, /in 10 minutes/, said);
      assert.deepEqual(await visibleByName(names), want, mode);
      // Exactly one visible Time field, where a time is asked at all.
      const times = page.getByLabel('Time', { exact: true });
      let shown = 0;
      for (let i = 0; i < (await times.count()); i++) if (await times.nth(i).isVisible()) shown++;
      assert.equal(shown, want.local_time ? 1 : 0, `${mode}: visible Time fields`);
      await screenshots(page, `what-new-call-${mode.toLowerCase().replace(/\s+/g, '-')}`);
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('a call refused by the API names the field in words (a label with a link)', async (t) => {
    if (skip) return t.skip(skip);
    await page.getByRole('radio', { name: 'On a date' }).check();
    await page.getByLabel('Label', { exact: true }).fill('see https://example.com');
    await page.getByRole('button', { name: 'Set the call' }).click();
    const form = page.locator('form', { has: page.getByRole('button', { name: 'Set the call' }) });
    const atField = form.locator('.field-error').filter({ hasText: /\S/ });
    await atField.waitFor();
    const top = await atField.innerText();
    assert.match(top, /letters, digits/);
    assert.doesNotMatch(top, DEVELOPER_TEXT, top);
    assert.equal(
      await page.getByLabel('Label', { exact: true }).getAttribute('aria-invalid'),
      'true',
    );
    await page.getByLabel('Label', { exact: true }).fill('Flight');
    await page.getByRole('button', { name: 'Set the call' }).click();
    await page.locator('article[data-schedule]').filter({ hasText: 'Flight' }).waitFor();
  });

  it('the edit form shows only the fields of its mode, in each of its modes', async (t) => {
    if (skip) return t.skip(skip);
    await page
      .locator('article[data-schedule]')
      .filter({ hasText: 'Flight' })
      .getByRole('link', { name: /Edit/ })
      .click();
    await page.getByRole('heading', { name: /^Edit/ }).waitFor();
    assert.equal(
      await page.getByRole('radio', { name: 'In a few minutes' }).count(),
      0,
      'no "in N minutes" when editing',
    );
    await page.getByRole('radio', { name: 'Every week' }).check();
    assert.deepEqual(await visibleByName(['local_date', 'in_minutes', 'days_of_week']), {
      local_date: false,
      in_minutes: false,
      days_of_week: true,
    });
    await page.getByRole('radio', { name: 'On a date' }).check();
    assert.deepEqual(await visibleByName(['local_date', 'in_minutes', 'days_of_week']), {
      local_date: true,
      in_minutes: false,
      days_of_week: false,
    });
  });

  it('settings show the retry fields only when the built-in default is not used', async (t) => {
    if (skip) return t.skip(skip);
    await goHash(page, '#/settings');
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
    const builtin = page.getByRole('checkbox', { name: /Use the built-in default/ });
    await builtin.check();
    assert.equal(await page.getByLabel('Ring for (seconds)').isVisible(), false);
    await builtin.uncheck();
    assert.equal(await page.getByLabel('Ring for (seconds)').isVisible(), true);
    await builtin.check();
  });

  it('packs read as call credits paid once, not as a subscription', async (t) => {
    if (skip) return t.skip(skip);
    await goHash(page, '#/account');
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    const credits = page.getByRole('list', { name: 'Call credits' });
    await credits.waitFor();
    const text = await credits.innerText();
    assert.match(text, /10 call credits/);
    assert.match(text, /paid once/);
    assert.match(text, /never expire/);
    assert.doesNotMatch(text, /Subscribe|a period/i);
    assert.equal(
      await credits.getByRole('button', { name: 'Buy 10 call credits' }).isVisible(),
      true,
    );
    const plans = await page.getByRole('list', { name: 'Plans' }).innerText();
    assert.match(plans, /a month|a year/);
    assert.doesNotMatch(await page.locator('main').innerText(), /a period/);
    await screenshots(page, 'what-account');
    assert.deepEqual(
      notFound.filter((u) => !u.includes('/api/')),
      [],
      'no page asset (the icon included) answered 404',
    );
  });
});
